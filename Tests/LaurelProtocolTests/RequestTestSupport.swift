import LaurelJSON
import LaurelProtocol
import NIOCore

/// The argument type of each verb of protocol version 1 (protocol.md), as the server's verb table pairs them.
let argumentTypes: [String: any (RequestArguments & Hashable).Type] = [
    "AUTH": AuthRequest.self, "PING": NoArguments.self, "QUIT": NoArguments.self,
    "ACTIVITIES": ActivitiesRequest.self, "ACTIVITY.CREATE": ActivityCreateRequest.self,
    "ACTIVITY.DELETE": ActivityIDRequest.self, "ACTIVITY.RESTORE": ActivityIDRequest.self,
    "LOG": LogRequest.self, "LOG.DELETE": IDRequest.self, "LOGS": LogsRequest.self,
    "LESSON.DONE": LessonDoneRequest.self, "EVENT": EventRequest.self, "REMINDER": ReminderRequest.self,
    "ACHIEVEMENTS": AchievementsRequest.self, "ACHIEVEMENT": AchievementRequest.self, "PROFILE": NoArguments.self,
    "SETTINGS": SettingsRequest.self, "CHALLENGES": NoArguments.self, "SUBSCRIPTION": NoArguments.self,
    "TRIAL.START": NoArguments.self, "PRESETS": NoArguments.self, "TEMPLATES": TemplatesRequest.self,
    "TEMPLATE.CREATE": TemplateCreateRequest.self, "TEMPLATE.UPDATE": TemplateUpdateRequest.self,
    "TEMPLATE.DELETE": IDRequest.self, "TEMPLATE.EXPORT": TemplateExportRequest.self,
    "TEMPLATE.IMPORT": TemplateImportRequest.self, "ACCOUNT.EXPORT": NoArguments.self,
    "ACCOUNT.DELETE": AccountDeleteRequest.self, "NOTIFICATIONS": NotificationsRequest.self,
    "TEMPLATE.PUBLISH": TemplatePublishRequest.self, "TEMPLATE.UNPUBLISH": ListingRequest.self,
    "TEMPLATE.INSTALL": TemplateInstallRequest.self, "MARKET": MarketRequest.self,
    "INVITE.CREATE": NoArguments.self, "INVITE.ACCEPT": InviteAcceptRequest.self, "FRIENDS": NoArguments.self,
    "FRIEND.REMOVE": FriendRemoveRequest.self, "LEADERBOARD": LeaderboardRequest.self,
]

/// A parser that knows the verbs of protocol version 1.
let requestLineParser = RequestLineParser(knownVerbs: Set(argumentTypes.keys))

/// Parses `"t " + text` all the way to the verb's typed argument.
func parseRequest(_ text: String) -> Result<AnyHashable, ProtocolError> {
    switch requestLineParser.parse(ByteBuffer(string: "t " + text)) {
    case .failure(let error):
        return .failure(error.error)
    case .success(let line):
        guard let type = argumentTypes[line.verb] else { return .failure(.unknownVerb(line.verb)) }
        do throws(ProtocolError) {
            let arguments = try type.init(line: line)
            return .success(AnyHashable(arguments))
        } catch {
            return .failure(error)
        }
    }
}

/// The typed argument parsed from `text`, or `nil` if it was rejected.
func request(_ text: String) -> AnyHashable? {
    try? parseRequest(text).get()
}

/// The `field` of the `invalid_argument` error `text` is rejected with, or `nil` if it is not rejected so.
func invalidField(_ text: String) -> String? {
    guard case .failure(let error) = parseRequest(text), error.code == .invalidArgument else {
        return nil
    }
    return error.details["field"]?.stringValue
}

/// A JSON string literal of `text`, for building request lines.
func quoted(_ text: String) -> String {
    JSONValue.string(text).serialized()
}
