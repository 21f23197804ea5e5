/// Something that happened to the streak on one day of the walk; the kinds are those of the `STREAK` push.
public struct StreakEvent: Hashable, Sendable, Codable {
    /// What happened; the raw values are the `event` names of the `STREAK` push.
    public enum Kind: String, Hashable, Sendable, Codable, CaseIterable {
        /// An active day made `current` grow.
        case extended
        /// `current` reached a multiple of 7 and a freeze was added (only when fewer than 2 were held).
        case freezeEarned = "freeze_earned"
        /// An ordinary inactive day cost a freeze instead of the streak.
        case freezeUsed = "freeze_used"
        /// An ordinary inactive day with no freeze in hand reset a running streak to 0.
        case broken
    }

    public var kind: Kind
    public var day: LocalDay

    public init(kind: Kind, day: LocalDay) {
        self.kind = kind
        self.day = day
    }

    /// Which `STREAK` push, if any, a change of the streak is worth, comparing the state the user last saw
    /// with the state now (for example before and after a log, or the last evaluation and a new login).
    ///
    /// A longer streak is `freeze_earned` when the freezes grew with it, else `extended`; a streak that fell
    /// to 0 is `broken`; the same streak with fewer freezes is `freeze_used`; freezes that grew alone are
    /// `freeze_earned`. Anything else (a deleted log shortening the streak, no change) is worth no push.
    /// - Parameters:
    ///   - before: the state before.
    ///   - after: the state after.
    public static func worthShowing(before: StreakState, after: StreakState) -> Kind? {
        if after.current > before.current {
            return after.freezes > before.freezes ? .freezeEarned : .extended
        }
        if after.current == 0, before.current > 0 {
            return .broken
        }
        if after.current == before.current {
            if after.freezes < before.freezes { return .freezeUsed }
            if after.freezes > before.freezes { return .freezeEarned }
        }
        return nil
    }
}
