/// A user's daily streak as a friend sees it (FRIENDS, the FRIEND push): worked out from the figures the user's last
/// write stored, without the user's facts. The streak stored holds through `holdsThrough` (`StreakWalker`); after
/// that day it has fallen to 0. It is at risk when today is not active yet and would count against it, the same
/// test `StreakWalker.state(today:settings:events:)` makes.
public struct StreakGlance: Hashable, Sendable {
    public var current: Int
    public var atRisk: Bool

    public init(current: Int, atRisk: Bool) {
        self.current = current
        self.atRisk = atRisk
    }

    /// - Parameters:
    ///   - stored: the current streak stored with the user's figures.
    ///   - lastActiveDay: the user's last active local day, if any.
    ///   - holdsThrough: the last day the stored streak holds through without new activity (nil: for good).
    ///   - today: the user's local date now.
    ///   - excused: today is a rest day or a vacation day by the user's settings now.
    public init(stored: Int, lastActiveDay: LocalDay?, holdsThrough: LocalDay?, today: LocalDay, excused: Bool) {
        let holds = stored > 0 && (holdsThrough.map { today <= $0 } ?? true)
        current = holds ? stored : 0
        atRisk = current > 0 && (lastActiveDay.map { today > $0 } ?? false) && !excused
    }
}
