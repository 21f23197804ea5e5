import LaurelJSON

/// A request whose fields have all been checked for syntax: presence, types, ranges and unknown fields.
///
/// Checks that need stored state or configuration (does the activity exist, is `at` inside the backfill
/// window, is the time zone known) are left to the server and the domain.
public enum Request: Sendable, Hashable {
    case auth(AuthRequest)
    case ping
    case quit
    case activities(ActivitiesRequest)
    case activityCreate(ActivityCreateRequest)
    case activityDelete(ActivityIDRequest)
    case activityRestore(ActivityIDRequest)
    case log(LogRequest)
    case logDelete(LogDeleteRequest)
    case logs(LogsRequest)
    case lessonDone(LessonDoneRequest)
    case event(EventRequest)
    case achievements(AchievementsRequest)
    case achievement(AchievementRequest)
    case profile
    case settings(SettingsRequest)
    case challenges
    case subscription
    case trialStart
    case presets
    case templates(TemplatesRequest)
    case templateCreate(TemplateCreateRequest)
    case templateUpdate(TemplateUpdateRequest)
    case templateDelete(TemplateDeleteRequest)
    case templateExport(TemplateExportRequest)
    case templateImport(TemplateImportRequest)
    case accountExport
    case accountDelete(AccountDeleteRequest)
    case notifications(NotificationsRequest)

    /// Checks the argument of a parsed line against its verb's fields.
    ///
    /// Verbs without fields accept no argument or `{}`; any field they are given is unknown.
    /// - Throws: `invalid_argument` naming the field, or `unknown_verb` if `line.verb` is not a verb
    ///   (``RequestLineParser`` never produces such a line).
    public static func parse(_ line: RequestLine) throws(ProtocolError) -> Request {
        guard let verb = Verb(rawValue: line.verb.uppercased()) else {
            throw .unknownVerb(line.verb)
        }
        let argument = line.argument
        switch verb {
        case .auth: return .auth(try AuthRequest(argument: argument))
        case .ping: try expectNoFields(argument); return .ping
        case .quit: try expectNoFields(argument); return .quit
        case .activities: return .activities(try ActivitiesRequest(argument: argument))
        case .activityCreate: return .activityCreate(try ActivityCreateRequest(argument: argument))
        case .activityDelete: return .activityDelete(try ActivityIDRequest(argument: argument))
        case .activityRestore: return .activityRestore(try ActivityIDRequest(argument: argument))
        case .log: return .log(try LogRequest(argument: argument))
        case .logDelete: return .logDelete(try LogDeleteRequest(argument: argument))
        case .logs: return .logs(try LogsRequest(argument: argument))
        case .lessonDone: return .lessonDone(try LessonDoneRequest(argument: argument))
        case .event: return .event(try EventRequest(argument: argument))
        case .achievements: return .achievements(try AchievementsRequest(argument: argument))
        case .achievement: return .achievement(try AchievementRequest(argument: argument))
        case .profile: try expectNoFields(argument); return .profile
        case .settings: return .settings(try SettingsRequest(argument: argument))
        case .challenges: try expectNoFields(argument); return .challenges
        case .subscription: try expectNoFields(argument); return .subscription
        case .trialStart: try expectNoFields(argument); return .trialStart
        case .presets: try expectNoFields(argument); return .presets
        case .templates: return .templates(try TemplatesRequest(argument: argument))
        case .templateCreate: return .templateCreate(try TemplateCreateRequest(argument: argument))
        case .templateUpdate: return .templateUpdate(try TemplateUpdateRequest(argument: argument))
        case .templateDelete: return .templateDelete(try TemplateDeleteRequest(argument: argument))
        case .templateExport: return .templateExport(try TemplateExportRequest(argument: argument))
        case .templateImport: return .templateImport(try TemplateImportRequest(argument: argument))
        case .accountExport: try expectNoFields(argument); return .accountExport
        case .accountDelete: return .accountDelete(try AccountDeleteRequest(argument: argument))
        case .notifications: return .notifications(try NotificationsRequest(argument: argument))
        }
    }

    private static func expectNoFields(_ argument: JSONObject?) throws(ProtocolError) {
        _ = try ArgumentReader(argument, fields: [])
    }

    /// The verb this request was made with.
    public var verb: Verb {
        switch self {
        case .auth: .auth
        case .ping: .ping
        case .quit: .quit
        case .activities: .activities
        case .activityCreate: .activityCreate
        case .activityDelete: .activityDelete
        case .activityRestore: .activityRestore
        case .log: .log
        case .logDelete: .logDelete
        case .logs: .logs
        case .lessonDone: .lessonDone
        case .event: .event
        case .achievements: .achievements
        case .achievement: .achievement
        case .profile: .profile
        case .settings: .settings
        case .challenges: .challenges
        case .subscription: .subscription
        case .trialStart: .trialStart
        case .presets: .presets
        case .templates: .templates
        case .templateCreate: .templateCreate
        case .templateUpdate: .templateUpdate
        case .templateDelete: .templateDelete
        case .templateExport: .templateExport
        case .templateImport: .templateImport
        case .accountExport: .accountExport
        case .accountDelete: .accountDelete
        case .notifications: .notifications
        }
    }
}
