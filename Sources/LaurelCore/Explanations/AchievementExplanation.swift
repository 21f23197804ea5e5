import Foundation

/// Why an achievement is not unlocked yet and what would change that (`explain` of ACHIEVEMENT): the figure that must
/// reach the target, what is left, one English sentence, when the figure would fall back if nothing more is logged,
/// and what keeps progress from counting now. Made from the evaluator's own figures, never a second computation.
public struct AchievementExplanation: Sendable, Equatable {
    /// What keeps progress from counting now, the first that applies.
    public enum Blocked: String, Sendable {
        case activityDeleted = "activity_deleted"
        case templateInactive = "template_inactive"
        case premiumLapsed = "premium_lapsed"
        case notThisPeriod = "not_this_period"
    }

    /// The rule kind as rules.md names it.
    public var rule: String
    /// The rule's measure, uncapped; for the streak kinds the *current* streak (the run that must grow).
    public var measure: Int
    public var target: Int
    /// `max(0, target - measure)`; 0 once unlocked.
    public var remaining: Int
    public var text: String
    /// When the measure would fall back if nothing more is logged; nil when nothing can make it fall.
    public var deadline: Date?
    public var blocked: Blocked?

    public init(rule: String, measure: Int, target: Int, remaining: Int, text: String, deadline: Date?, blocked: Blocked?) {
        self.rule = rule
        self.measure = measure
        self.target = target
        self.remaining = remaining
        self.text = text
        self.deadline = deadline
        self.blocked = blocked
    }
}

extension LocalDay {
    /// The first instant of this local date in `zone` (the local midnight that starts it, or the first valid time
    /// after it when a daylight-saving change skips midnight).
    public func start(in zone: TimeZone) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let (year, month, day) = components
        return calendar.date(from: DateComponents(year: year, month: month, day: day))
            ?? Date(timeIntervalSince1970: TimeInterval(daysSince1970) * 86_400)
    }
}
