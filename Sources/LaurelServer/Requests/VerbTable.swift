import LaurelProtocol

/// Every verb the server answers (protocol.md), one row each: adding a verb is a row here and its handler.
///
/// A row names the verb's argument type (checked before anything runs), whether the verb reads or writes (writes
/// run in the user's turn), and the handler; ``VerbRoute`` applies all of it.
enum VerbTable {
    /// The rows, each knowing its place among them (``VerbRoute/place``).
    static let routes: [VerbRoute] = rows.enumerated().map { place, route in route.placed(at: place) }

    private static let rows: [VerbRoute] = [
        .connection("AUTH", AuthRequest.self, .writes, ConnectionRequests.authenticate),
        .connection("PING", NoArguments.self, .reads, ConnectionRequests.ping),
        .connection("QUIT", NoArguments.self, .reads, ConnectionRequests.quit),

        .user("ACTIVITIES", ActivitiesRequest.self, .reads, ActivityRequests.list),
        .user("ACTIVITY.CREATE", ActivityCreateRequest.self, .writes, ActivityRequests.create),
        .user("ACTIVITY.DELETE", ActivityIDRequest.self, .writes, ActivityRequests.delete),
        .user("ACTIVITY.RESTORE", ActivityIDRequest.self, .writes, ActivityRequests.restore),

        .user("LOG", LogRequest.self, .writes, LogRequests.log),
        .user("LOG.DELETE", IDRequest.self, .writes, LogRequests.delete),
        .user("LOGS", LogsRequest.self, .reads, LogRequests.list),
        .user("LESSON.DONE", LessonDoneRequest.self, .writes, LessonAndEventRequests.lessonDone),
        .user("EVENT", EventRequest.self, .writes, LessonAndEventRequests.event),
        .user("REMINDER", ReminderRequest.self, .writes, LessonAndEventRequests.reminder),

        .user("ACHIEVEMENTS", AchievementsRequest.self, .reads, AchievementRequests.list),
        .user("ACHIEVEMENT", AchievementRequest.self, .reads, AchievementRequests.one),
        .user("PROFILE", .reads, AccountRequests.profile),
        .user("CHALLENGES", ChallengesRequest.self, .writes, ChallengeRequests.challenges),
        .user("SETTINGS", SettingsRequest.self, .writes, AccountRequests.settings),
        .user("NOTIFICATIONS", NotificationsRequest.self, .reads, AccountRequests.notifications),

        .user("SUBSCRIPTION", .reads, SubscriptionRequests.subscription),
        .user("TRIAL.START", .writes, SubscriptionRequests.startTrial),

        .user("PRESETS", .reads, TemplateRequests.presets),
        .user("TEMPLATES", TemplatesRequest.self, .reads, TemplateRequests.list),
        .user("TEMPLATE.CREATE", TemplateCreateRequest.self, .writes, TemplateRequests.create),
        .user("TEMPLATE.UPDATE", TemplateUpdateRequest.self, .writes, TemplateRequests.update),
        .user("TEMPLATE.DELETE", IDRequest.self, .writes, TemplateRequests.delete),
        .user("TEMPLATE.EXPORT", TemplateExportRequest.self, .reads, TemplateTransferRequests.export),
        .user("TEMPLATE.IMPORT", TemplateImportRequest.self, .writes, TemplateTransferRequests.importDocument),
        .user("TEMPLATE.PUBLISH", TemplatePublishRequest.self, .writes, MarketplaceRequests.publish),
        .user("TEMPLATE.UNPUBLISH", ListingRequest.self, .writes, MarketplaceRequests.unpublish),
        .user("TEMPLATE.INSTALL", TemplateInstallRequest.self, .writes, MarketplaceRequests.install),
        .user("MARKET", MarketRequest.self, .reads, MarketplaceRequests.market),

        .user("INVITE.CREATE", .writes, FriendRequests.createInvite),
        .user("INVITE.ACCEPT", InviteAcceptRequest.self, .writes, FriendRequests.acceptInvite),
        .user("FRIENDS", .reads, FriendRequests.friends),
        .user("FRIEND.REMOVE", FriendRemoveRequest.self, .writes, FriendRequests.removeFriend),
        .user("LEADERBOARD", LeaderboardRequest.self, .reads, LeaderboardRequests.leaderboard),

        .user("ACCOUNT.EXPORT", .reads, AccountRequests.export),
        .user("ACCOUNT.DELETE", AccountDeleteRequest.self, .writes, AccountRequests.delete),
    ]

    /// The rows by verb (upper case).
    static let byVerb: [String: VerbRoute] = Dictionary(uniqueKeysWithValues: routes.map { ($0.verb, $0) })

    /// The rows by their verb's length in bytes: what every request is routed by.
    private static let byVerbLength: [[VerbRoute]] = {
        var byLength = [[VerbRoute]](repeating: [], count: (routes.map(\.verb.utf8.count).max() ?? 0) + 1)
        for route in routes { byLength[route.verb.utf8.count].append(route) }
        return byLength
    }()

    /// The row of `verb` (upper case), as ``byVerb`` has it, found among the few verbs of its length: a request's verb
    /// is the parser's copy of a row's, so comparing it is comparing a short string's bytes or one pointer, where
    /// hashing it for the dictionary was some 500 instructions a request.
    static func route(for verb: String) -> VerbRoute? {
        let length = verb.utf8.count
        guard length < byVerbLength.count else { return nil }
        return byVerbLength[length].first { $0.verb == verb }
    }

    /// The request-line parser that knows these verbs.
    static let parser = RequestLineParser(knownVerbs: Set(byVerb.keys))
}
