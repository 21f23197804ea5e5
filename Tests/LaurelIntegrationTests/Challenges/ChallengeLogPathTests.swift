import Foundation
import LaurelCore
import LaurelJSON
import LaurelProtocol
import LaurelStore
import LaurelServer
import Testing
@testable import LaurelPostgres

/// Challenges take no write off the one route: the first LOG of a day chooses the day's challenges and stores them
/// with itself, a LOG that completes one stores the completion, its XP and its `CHALLENGE` push in its own commit,
/// and a session on another instance learns of the completion when it catches up.
@Suite struct ChallengeLogPathTests {
    static let periodsRead = "laurel_pieces_loaded_total{piece=\"challenges\"}"
    static let pieceReads = "laurel_piece_reads_total"
    static let atSessionVersion = "laurel_writes_total{route=\"session_version\"}"
    static let underLock = "laurel_writes_total{route=\"user_lock\"}"
    static let loaded = "laurel_session_progress_total{source=\"store\"}"
    static let caughtUp = "laurel_session_progress_total{source=\"caught_up\"}"

    @Test func theFirstLogOfTheDayAndALogThatCompletesAChallengeAreStoredFromTheSession() async throws {
        let user = try await LaurelTestDatabase.createUser("challenge-session-path")
        try await TestServer.withServer(challenges: true) { server in
            let client = try await PushRecorder.authenticated(port: server.port, token: user.token)
            let loadsAtStart = server.counter(Self.loaded)
            Engine.ok(try await client.request("LOG", Engine.log("lunges", amount: 1, id: "first")))
            #expect(try await Self.storedChallenges(user) == 4, "the first LOG of the day chose the day's and the week's challenges")
            let answer = try await Challenges.read(client)
            #expect(server.counter(Self.periodsRead) == 0, "the session loaded today's periods with the user: nothing more was read")

            let (challenge, logs) = try #require(Challenges.daily(answer).lazy.compactMap { challenge in
                Challenges.completingLogs(challenge, idPrefix: "c").map { (challenge, $0) }
            }.first)
            let id = try #require(challenge["id"]?.stringValue)
            var last: JSONObject = [:]
            for log in logs { last = Engine.ok(try await client.request("LOG", log)) }
            try await client.wait { $0.contains { $0.kind == "CHALLENGE" && $0.object["id"]?.stringValue == id } }
            #expect(client.pushes("CHALLENGE").filter { $0.object["id"]?.stringValue == id }.count == 1)

            #expect(server.counter(Self.underLock) == 0, "no write needed the user's lock")
            #expect(server.counter(Self.atSessionVersion) == 1 + logs.count, "one commit per LOG (CHALLENGES stored nothing)")
            #expect(server.counter(Self.loaded) == loadsAtStart, "the session was not loaded again")

            let after = try await Challenges.read(client)
            let completed = try #require(Challenges.daily(after).first { $0["id"]?.stringValue == id })
            #expect(completed["completed_at"] != nil)
            let profile = Engine.ok(try await client.request("PROFILE"))
            let expected = 10 * (1 + logs.count) + 5 + 50 * (profile["unlocked"]?.intValue ?? 0) + Challenges.completedXP([after])
            #expect(profile["xp"]?.intValue == expected, "\(profile) \(after)")
            #expect(last["xp"]?.intValue == expected, "the completing LOG's answer counts the challenge XP")
            #expect(try await Self.storedXP(user) == expected, "the commit stored the figures with the challenge XP")
        }
    }

    @Test func aCompletionOnOneInstanceReachesTheOtherInstancesSession() async throws {
        let user = try await LaurelTestDatabase.createUser("challenge-two-instances")
        try await TestServer.withServer(challenges: true) { first in
            try await TestServer.withServer(challenges: true) { second in
                let here = try await PushRecorder.authenticated(port: first.port, token: user.token)
                let there = try await PushRecorder.authenticated(port: second.port, token: user.token)
                let answer = try await Challenges.read(here)
                let seenThere = try await Challenges.read(there)
                #expect(Challenges.daily(seenThere).map(Challenges.identity) == Challenges.daily(answer).map(Challenges.identity))
                let loadsThere = second.counter(Self.loaded)

                let (challenge, logs) = try #require(Challenges.daily(answer).lazy.compactMap { challenge in
                    Challenges.completingLogs(challenge, idPrefix: "here").map { (challenge, $0) }
                }.first)
                let id = try #require(challenge["id"]?.stringValue)
                for log in logs { Engine.ok(try await here.request("LOG", log)) }
                try await there.wait { $0.contains { $0.kind == "CHALLENGE" && $0.object["id"]?.stringValue == id } }

                // The other instance's session catches up with the LOG commits, the completion among them.
                let shownThere = try await Challenges.read(there)
                let completedThere = try #require(Challenges.daily(shownThere).first { $0["id"]?.stringValue == id })
                #expect(completedThere["completed_at"] != nil, "\(shownThere)")
                let logThere = Engine.ok(try await there.request("LOG", Engine.log("plank", amount: 5, id: "there")))
                // Read where the LOG was made: the first instance hears of it a moment later.
                let profile = Engine.ok(try await there.request("PROFILE"))
                let expected = 10 * (logs.count + 1) + 5 + 50 * (profile["unlocked"]?.intValue ?? 0)
                    + Challenges.completedXP([try await Challenges.read(there)])
                #expect(logThere["xp"]?.intValue == expected, "the other instance counts the challenge XP: \(logThere)")
                #expect(profile["xp"]?.intValue == expected)
                #expect(try await Self.storedXP(user) == expected)

                #expect(second.counter(Self.loaded) == loadsThere, "the other session caught up instead of loading again")
                #expect(second.counter(Self.caughtUp) >= 1)
                #expect(first.counter(Self.underLock) + second.counter(Self.underLock) == 0)
            }
        }
    }

    @Test func aSessionThatChoseWhatWasChosenElsewhereTakesTheStoredChoice() async throws {
        let user = try await LaurelTestDatabase.createUser("challenge-chosen-elsewhere")
        // Neither instance hears of the other: the second finds out from its commit.
        try await TestServer.withServer(challenges: true, hearsStateVersions: false) { first in
            try await TestServer.withServer(challenges: true, hearsStateVersions: false) { second in
                let here = try await PushRecorder.authenticated(port: first.port, token: user.token)
                let there = try await PushRecorder.authenticated(port: second.port, token: user.token)
                let chosenHere = try await Challenges.read(here)
                Engine.ok(try await there.request("LOG", Engine.log("squats", amount: 3, id: "there-first")))
                #expect(second.counter("laurel_stale_commits_total") >= 1, "the choosing commit was stale")
                #expect(second.counter(Self.underLock) == 0)
                #expect(try await Self.storedChallenges(user) == 4)
                let shownThere = try await Challenges.read(there)
                #expect((Challenges.daily(shownThere) + Challenges.weekly(shownThere)).map(Challenges.identity)
                    == (Challenges.daily(chosenHere) + Challenges.weekly(chosenHere)).map(Challenges.identity))
            }
        }
    }

    /// An app that was offline sends what it logged over days when it reconnects: the first backfill reads every
    /// period of the window the session lacks, in one read, and the rest read nothing.
    @Test func backfillsOverManyDaysReadThePastPeriodsOnce() async throws {
        let user = try await LaurelTestDatabase.createUser("challenge-backfill-burst")
        // The server's clock at noon of today: the days below stay its days at any hour the test runs.
        var configuration = ServerConfiguration(port: 0)
        configuration.clock = TestClock.middayClock()
        let now = configuration.clock.now
        let today = TestClock.day(of: configuration.clock)
        // Chosen when yesterday and four days ago were today: two logs each complete them.
        for daysBack in [1, 4] {
            try await LaurelTestDatabase.scalar(
                """
                INSERT INTO laurel.challenges (user_id, period, period_start, slot, kind, title, target, xp, chosen_at)
                VALUES ($1::bigint, 'daily', $2::date, 0, 'logs_today', 'Log 2 exercises', 2, 20, $3::timestamptz)
                """, [.int(Int(user.id.rawValue)), .text(today.adding(days: -daysBack).description),
                      .text(Timestamp.format(now.addingTimeInterval(-Double(daysBack) * 86_400)))])
        }
        try await TestServer.withServer(configuration: configuration, challenges: true) { server in
            let client = try await PushRecorder.authenticated(port: server.port, token: user.token)
            Engine.ok(try await client.request("LOG", Engine.log("lunges", amount: 1, id: "today")))
            #expect(server.counter(Self.pieceReads) == 0, "today's periods came with the session")

            for daysBack in 1...12 {
                for n in 0..<(daysBack == 1 || daysBack == 4 ? 2 : 1) {
                    let at = now.addingTimeInterval(-Double(daysBack) * 86_400)
                    Engine.ok(try await client.request("LOG", Engine.log("squats", amount: 2, at: at, id: "back-\(daysBack)-\(n)")))
                }
            }
            #expect(server.counter(Self.pieceReads) == 1, "one read brought every period of the window")
            #expect(server.counter(Self.periodsRead) >= 30, "the window's days, each a period")
            try await client.wait { $0.filter { $0.kind == "CHALLENGE" && $0.object["title"]?.stringValue == "Log 2 exercises" }.count == 2 }
            #expect(try await LaurelTestDatabase.count(
                "SELECT count(*) FROM laurel.challenges WHERE user_id = $1::bigint AND title = 'Log 2 exercises' AND completed_at IS NOT NULL",
                [.int(Int(user.id.rawValue))]) == 2, "both past challenges are stored completed")
            let profile = Engine.ok(try await client.request("PROFILE"))
            #expect(profile["xp"]?.intValue == (try await Self.storedXP(user)), "the stored XP counts both completions: \(profile)")
            #expect(server.counter(Self.underLock) == 0)
        }
    }

    @Test func aCommitStoresTheChallengesItChoseAndAPeriodIsStoredOnce() async throws {
        let user = try await LaurelTestDatabase.createUser("challenge-commit-choice")
        let pool = try await UserCommitTests.poolWithCatalog()
        let day = LocalDay(year: 2026, month: 9, day: 21)!
        let chosen = [
            ChallengeChoice(slot: 0, kind: .logsToday, period: .daily, periodStart: day, target: 1, xp: 20, title: "Log 1 exercise today"),
            ChallengeChoice(slot: 1, kind: .distinctToday, period: .daily, periodStart: day, target: 3, xp: 25, title: "Log 3 different"),
        ]
        let firstCommit = UserCommitTests.commit(user, version: 0, logID: "choose-1") { writes in
            writes.challengesChosen = [StoredChallenge(choice: chosen[0], completedAt: UserCommitTests.decidedAt), StoredChallenge(choice: chosen[1], completedAt: nil)]
        }
        let stored = try await pool.withConnection { connection in try PostgresStore.storeCommits([firstCommit], on: connection) }
        guard case .success(.committed(let newVersion, _, _, _)) = stored[0] else {
            Issue.record("the choosing LOG was not committed: \(stored[0])")
            return
        }
        #expect(try await Self.storedChallenges(user) == 2)
        #expect(try await LaurelTestDatabase.count(
            "SELECT count(*) FROM laurel.challenges WHERE user_id = $1::bigint AND completed_at IS NOT NULL", [.int(Int(user.id.rawValue))]) == 1,
            "the challenge the LOG chose and completed is stored completed")

        // A chooser of the same period at an older version is stale; one at the new version (a session that decided
        // wrongly) breaks the period's key: stale too, and nothing of it is stored.
        for version in [Int64(0), newVersion] {
            let secondCommit = UserCommitTests.commit(user, version: version, logID: "choose-2") { writes in
                writes.challengesChosen = [StoredChallenge(
                    choice: ChallengeChoice(slot: 0, kind: .keepStreak, period: .daily, periodStart: day, target: 1, xp: 10, title: "Keep"),
                    completedAt: nil)]
            }
            let refused = try await pool.withConnection { connection in try PostgresStore.storeCommits([secondCommit], on: connection) }
            #expect(try refused[0].get() == .stale)
        }
        #expect(try await Self.storedChallenges(user) == 2)
        #expect(try await LaurelTestDatabase.logCount(of: user) == 1)
    }

    static func storedChallenges(_ user: TestUser) async throws -> Int {
        try await LaurelTestDatabase.count("SELECT count(*) FROM laurel.challenges WHERE user_id = $1::bigint", [.int(Int(user.id.rawValue))])
    }

    static func storedXP(_ user: TestUser) async throws -> Int {
        try await LaurelTestDatabase.count("SELECT xp FROM laurel.progress WHERE user_id = $1::bigint", [.int(Int(user.id.rawValue))])
    }
}
