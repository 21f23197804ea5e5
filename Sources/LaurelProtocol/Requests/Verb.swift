/// The verbs of protocol version 1, spelled as on the wire (upper case).
public enum Verb: String, Sendable, Hashable, CaseIterable {
    case auth = "AUTH"
    case ping = "PING"
    case quit = "QUIT"
    case activities = "ACTIVITIES"
    case activityCreate = "ACTIVITY.CREATE"
    case activityDelete = "ACTIVITY.DELETE"
    case activityRestore = "ACTIVITY.RESTORE"
    case log = "LOG"
    case logDelete = "LOG.DELETE"
    case logs = "LOGS"
    case lessonDone = "LESSON.DONE"
    case event = "EVENT"
    case achievements = "ACHIEVEMENTS"
    case achievement = "ACHIEVEMENT"
    case profile = "PROFILE"
    case settings = "SETTINGS"
    case challenges = "CHALLENGES"
    case subscription = "SUBSCRIPTION"
    case trialStart = "TRIAL.START"
    case presets = "PRESETS"
    case templates = "TEMPLATES"
    case templateCreate = "TEMPLATE.CREATE"
    case templateUpdate = "TEMPLATE.UPDATE"
    case templateDelete = "TEMPLATE.DELETE"
    case templateExport = "TEMPLATE.EXPORT"
    case templateImport = "TEMPLATE.IMPORT"
    case accountExport = "ACCOUNT.EXPORT"
    case accountDelete = "ACCOUNT.DELETE"
    case notifications = "NOTIFICATIONS"

    /// Whether the verb may be used before AUTH succeeded; every other verb is `not_authenticated` then.
    public var isAllowedBeforeAuthentication: Bool {
        switch self {
        case .auth, .ping, .quit: true
        default: false
        }
    }
}
