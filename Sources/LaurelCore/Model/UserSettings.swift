/// A user's settings as in force from some day on. Rest day and vacation have history (rules.md): a day is
/// judged by the settings in force on that day, so changes never rewrite the past.
public struct UserSettings: Sendable, Equatable {
    /// An IANA time zone name.
    public var timeZone: String
    /// The weekly rest day, if any.
    public var restDay: Weekday?
    public var vacation: Bool

    public init(timeZone: String, restDay: Weekday? = nil, vacation: Bool = false) {
        self.timeZone = timeZone
        self.restDay = restDay
        self.vacation = vacation
    }
}
