import LaurelProtocol
import Testing

@testable import LaurelServer

/// The verb table is the one place a verb is declared: these check what its rows say, the behaviour behind them
/// is shown over sockets by the other suites.
@Suite struct VerbTableTests {
    /// The verbs of protocol.md ("Verbs") the server has so far.
    static let protocolVerbs: Set<String> = [
        "AUTH", "PING", "QUIT", "ACTIVITIES", "ACTIVITY.CREATE", "ACTIVITY.DELETE", "ACTIVITY.RESTORE", "LOG", "LOG.DELETE",
        "LOGS", "LESSON.DONE", "EVENT", "REMINDER", "ACHIEVEMENTS", "ACHIEVEMENT", "PROFILE", "SETTINGS", "CHALLENGES", "SUBSCRIPTION",
        "TRIAL.START", "PRESETS", "TEMPLATES", "TEMPLATE.CREATE", "TEMPLATE.UPDATE", "TEMPLATE.DELETE", "TEMPLATE.EXPORT",
        "TEMPLATE.IMPORT", "ACCOUNT.EXPORT", "ACCOUNT.DELETE", "NOTIFICATIONS",
        "TEMPLATE.PUBLISH", "TEMPLATE.UNPUBLISH", "TEMPLATE.INSTALL", "MARKET",
        "INVITE.CREATE", "INVITE.ACCEPT", "FRIENDS", "FRIEND.REMOVE", "LEADERBOARD",
    ]

    @Test func everyVerbHasExactlyOneRow() {
        #expect(VerbTable.routes.count == VerbTable.byVerb.count)
        #expect(Set(VerbTable.byVerb.keys) == Self.protocolVerbs)
        #expect(VerbTable.parser.knownVerbs == Self.protocolVerbs)
    }

    /// What is kept for each verb (its metrics) is found by the row's place.
    @Test func everyRowKnowsItsPlace() {
        for (place, route) in VerbTable.routes.enumerated() {
            #expect(route.place == place)
            #expect(VerbTable.byVerb[route.verb]?.place == place)
            #expect(VerbTable.route(for: route.verb)?.place == place)
        }
    }

    /// A request is routed by its verb's length and bytes: a verb of a row's length that no row has, a longer one than
    /// any row's and one spelt in lower case (the parser upper-cases what it reads) find no row.
    @Test func aVerbNoRowHasFindsNone() {
        #expect(VerbTable.route(for: "LOX") == nil)
        #expect(VerbTable.route(for: "log") == nil)
        #expect(VerbTable.route(for: "") == nil)
        #expect(VerbTable.route(for: String(repeating: "A", count: 40)) == nil)
        #expect(VerbTable.route(for: String("xLOG".dropFirst()))?.verb == "LOG")
    }

    @Test func onlyAuthPingAndQuitWorkBeforeAuthentication() {
        #expect(Set(VerbTable.routes.filter { $0.access == .anyone }.map(\.verb)) == ["AUTH", "PING", "QUIT"])
    }

    @Test func theFactVerbsWrite() {
        #expect(VerbTable.routes.filter { ["LOG", "LESSON.DONE", "EVENT", "REMINDER"].contains($0.verb) }.allSatisfy { $0.effect == .writes })
    }

    /// CHALLENGES is not among them: the first request of a day chooses and stores the day's challenges.
    @Test func verbsThatOnlyReadNeverTakeTheUsersTurn() {
        let reading: Set<String> = [
            "ACTIVITIES", "LOGS", "ACHIEVEMENTS", "ACHIEVEMENT", "PROFILE", "NOTIFICATIONS", "SUBSCRIPTION",
            "PRESETS", "TEMPLATES", "TEMPLATE.EXPORT", "ACCOUNT.EXPORT", "MARKET", "FRIENDS", "LEADERBOARD",
        ]
        #expect(Set(VerbTable.routes.filter { $0.access == .user && $0.effect == .reads }.map(\.verb)) == reading)
    }
}
