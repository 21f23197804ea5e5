import Foundation
import LaurelCore
import LaurelJSON
import LaurelServer
import LaurelStore
import Testing
@testable import LaurelPostgres

/// Every write is one `UserCommit`, stored by `laurel.commit_changes`: many users' commits in one statement and one
/// transaction, each checked against the user's version, each user's part failing alone.
@Suite struct UserCommitTests {
    @Test func oneUsersFailureInABatchFailsOnlyThatUser() async throws {
        let good = try await LaurelTestDatabase.createUser("batch-good")
        let broken = try await LaurelTestDatabase.createUser("batch-broken")
        let stale = try await LaurelTestDatabase.createUser("batch-stale")
        let retried = try await LaurelTestDatabase.createUser("batch-retried")
        let gone = try await LaurelTestDatabase.createUser("batch-gone")
        let pool = try await Self.poolWithCatalog()

        // A log the retry will repeat, stored first on its own.
        let first = try await pool.withConnection { connection in
            try PostgresStore.storeCommits([Self.commit(retried, version: 0, logID: "retry-me")], on: connection)
        }
        #expect(try first[0].get() != .stale)
        try await LaurelTestDatabase.scalar("SELECT laurel.delete_user($1::text)", [.text(gone.name)])

        let batch = [
            Self.commit(good, version: 0, logID: "good-1", pushes: [PushDraft(kind: .unlock, data: #"{"id":"first_exercise"}"#)]),
            // An amount the table's check refuses: this part fails.
            Self.commit(broken, version: 0, logID: "broken-1", amount: 0),
            Self.commit(stale, version: 7, logID: "stale-1"),
            Self.commit(retried, version: 1, logID: "retry-me"),
            Self.commit(gone, version: 0, logID: "gone-1"),
        ]
        let results = try await pool.withConnection { connection in try PostgresStore.storeCommits(batch, on: connection) }

        guard case .success(.committed(let version, let lastSeq, let factSeq, let pushes)) = results[0] else {
            Issue.record("the good part was not committed: \(results[0])")
            return
        }
        #expect(version == 1 && lastSeq == 1 && factSeq != nil)
        #expect(pushes.map(\.seq) == [1] && pushes.map(\.kind) == [.unlock])
        guard case .failure(.failed(let reason)) = results[1] else {
            Issue.record("the broken part did not fail: \(results[1])")
            return
        }
        #expect(reason.contains("23514"), "a check violation: \(reason)")
        #expect(try results[2].get() == .stale)
        #expect(try results[3].get() == .duplicate)
        #expect(results[4] == .failure(.unknownUser))

        // What the failed, stale and duplicate parts would have written is not there; the good part is whole.
        #expect(try await Self.versionAndLogs(good) == "1/1")
        #expect(try await Self.versionAndLogs(broken) == "0/0")
        #expect(try await Self.versionAndLogs(stale) == "0/0")
        #expect(try await Self.versionAndLogs(retried) == "1/1")
        #expect(try await LaurelTestDatabase.count(
            "SELECT count(*) FROM laurel.pushes WHERE user_id = $1::bigint", [.int(Int(good.id.rawValue))]) == 1)
        #expect(try await LaurelTestDatabase.count(
            "SELECT xp FROM laurel.progress WHERE user_id = $1::bigint", [.int(Int(broken.id.rawValue))]) == 0)
    }

    @Test func aBatchWithoutFailuresTellsStaleDuplicateAndCommittedApart() async throws {
        let good = try await LaurelTestDatabase.createUser("set-good")
        let stale = try await LaurelTestDatabase.createUser("set-stale")
        let retried = try await LaurelTestDatabase.createUser("set-retried")
        let pool = try await Self.poolWithCatalog()
        _ = try await pool.withConnection { connection in
            try PostgresStore.storeCommits([Self.commit(retried, version: 0, logID: "again")], on: connection)
        }
        let batch = [
            Self.commit(retried, version: 1, logID: "again"),
            Self.commit(good, version: 0, logID: "set-1", pushes: [PushDraft(kind: .unlock, data: #"{"id":"first_exercise"}"#)]),
            Self.commit(stale, version: 3, logID: "set-2"),
        ]
        let results = try await pool.withConnection { connection in try PostgresStore.storeCommits(batch, on: connection) }
        #expect(try results[0].get() == .duplicate)
        guard case .success(.committed(version: 1, lastSeq: 1, factSeq: _, let pushes)) = results[1] else {
            Issue.record("not committed: \(results[1])")
            return
        }
        #expect(pushes.map(\.seq) == [1])
        #expect(try results[2].get() == .stale)
        #expect(try await Self.versionAndLogs(good) == "1/1")
        #expect(try await Self.versionAndLogs(stale) == "0/0")
        #expect(try await Self.versionAndLogs(retried) == "1/1")
        #expect(try await LaurelTestDatabase.scalar(
            "SELECT data->>'id' FROM laurel.pushes WHERE user_id = $1::bigint AND seq = 1", [.int(Int(good.id.rawValue))]) == "first_exercise")
    }

    /// A fact's id is its idempotency key (protocol.md: the same `id` again counts nothing twice), for every kind a
    /// commit stores: the second commit of an id is told `duplicate` and stores nothing, the version unmoved. A LOG's
    /// id is looked up in the batch statement itself, the other kinds' by `laurel.fact_id_taken`.
    @Test func aRepeatedFactIDOfEveryKindIsADuplicate() async throws {
        let pool = try await Self.poolWithCatalog()
        let kinds: [(String, NewFact.Content)] = [
            ("log", .log(activityID: "squats", amount: 5, localHour: 12, note: nil)),
            ("lesson", .lesson(Catalog.Lesson(id: "breathing-1", category: "breathing"))),
            ("event", .event(name: "session_started")),
            ("reminder", .reminder(windowMinutes: 30, answered: false)),
        ]
        for (kind, content) in kinds {
            let user = try await LaurelTestDatabase.createUser("repeated-\(kind)")
            func commit(version: Int64) -> UserCommit {
                Self.commit(user, version: version, logID: "same-\(kind)") { writes in
                    writes.fact = NewFact(
                        content: content, id: "same-\(kind)", at: Self.decidedAt, day: LocalDay(year: 2026, month: 9, day: 21)!,
                        requestedAt: Self.decidedAt)
                }
            }
            let (once, twice) = (commit(version: 0), commit(version: 1))
            let first = try await pool.withConnection { connection in try PostgresStore.storeCommits([once], on: connection) }
            guard case .success(.committed(version: 1, lastSeq: _, factSeq: _, pushes: _)) = first[0] else {
                Issue.record("\(kind): the first was not committed: \(first[0])")
                continue
            }
            let again = try await pool.withConnection { connection in try PostgresStore.storeCommits([twice], on: connection) }
            #expect(try again[0].get() == .duplicate, "\(kind)")
            #expect(try await LaurelTestDatabase.scalar(
                "SELECT version::text FROM laurel.progress WHERE user_id = $1::bigint", [.int(Int(user.id.rawValue))]) == "1", "\(kind)")
        }
    }

    /// A fact's id is its idempotency key, whatever its kind: `laurel.fact_id_taken` (which a batch asks for every
    /// fact but a LOG) finds an id stored for the user, and neither another id nor the same id of another user.
    @Test func aFactIDIsTakenOnlyForItsUserAndKind() async throws {
        let owner = try await LaurelTestDatabase.createUser("fact-id-owner")
        let other = try await LaurelTestDatabase.createUser("fact-id-other")
        let pool = try await Self.poolWithCatalog()
        _ = try await pool.withConnection { connection in
            try PostgresStore.storeCommits([Self.commit(owner, version: 0, logID: "taken-log")], on: connection)
        }
        let user = [PostgresValue.int(Int(owner.id.rawValue))]
        _ = try await LaurelTestDatabase.scalar(
            """
            WITH lesson AS (
                INSERT INTO laurel.lesson_completions (user_id, id, lesson_id, category, at, day, response)
                VALUES ($1::bigint, 'taken-lesson', 'breathing-1', 'breathing', now(), current_date, '{}')
            ), event AS (
                INSERT INTO laurel.reported_events (user_id, id, name, at, day, response)
                VALUES ($1::bigint, 'taken-event', 'session_started', now(), current_date, '{}')
            )
            INSERT INTO laurel.reminders (user_id, id, at, day, window_minutes, answered, response)
            VALUES ($1::bigint, 'taken-reminder', now(), current_date, 30, false, '{}')
            RETURNING 'stored'
            """, user)
        for kind in ["log", "lesson", "event", "reminder"] {
            func taken(_ user: TestUser, _ id: String, as kind: String = kind) async throws -> String? {
                try await LaurelTestDatabase.scalar(
                    "SELECT laurel.fact_id_taken($1::text, $2::bigint, $3::text)::text",
                    [.text(kind), .int(Int(user.id.rawValue)), .text(id)])
            }
            #expect(try await taken(owner, "taken-\(kind)") == "true", "\(kind)")
            #expect(try await taken(owner, "free-\(kind)") == "false", "\(kind)")
            #expect(try await taken(other, "taken-\(kind)") == "false", "\(kind)")
        }
        // An id is taken within its own kind only.
        #expect(try await LaurelTestDatabase.scalar(
            "SELECT laurel.fact_id_taken('lesson', $1::bigint, 'taken-log')::text", user) == "false")
    }

    @Test func commitsArrivingTogetherShareBatchesAndAllLand() async throws {
        _ = try await Self.poolWithCatalog()
        var users: [TestUser] = []
        for _ in 0..<40 { users.append(try await LaurelTestDatabase.createUser("batch-many")) }
        let pool = PostgresPool(configuration: try LaurelTestDatabase.configuration(), size: 2, logger: LaurelTestDatabase.logger)
        let store = PostgresStore(pool: pool, maxCommitBatch: 8, commitFlushers: 1)
        let outcomes = try await withThrowingTaskGroup(of: CommitOutcome.self) { group in
            for user in users {
                group.addTask { try await store.access(to: user.id).commit(Self.commit(user, version: 0, logID: "many-1")) }
            }
            var outcomes: [CommitOutcome] = []
            for try await outcome in group { outcomes.append(outcome) }
            return outcomes
        }
        await pool.close()
        #expect(outcomes.count == users.count)
        #expect(outcomes.allSatisfy { if case .committed(version: 1, lastSeq: 0, factSeq: _, pushes: []) = $0 { true } else { false } })
        for user in users { #expect(try await Self.versionAndLogs(user) == "1/1") }
    }

    /// What a LOG writes is stored by one statement; a batch with parts that write more (a log deleted, unlocks of a
    /// deleted template removed, a recomputed snapshot) stores the rest in a second: every part whole either way, and
    /// the second sees nothing of the first that the one statement they once were did not.
    @Test func aBatchOfLogsAndOfWritesWithMoreStoresEveryPartWhole() async throws {
        let plain = try await LaurelTestDatabase.createUser("mixed-plain")
        let deleter = try await LaurelTestDatabase.createUser("mixed-deleter")
        let templater = try await LaurelTestDatabase.createUser("mixed-templater")
        let rebuilt = try await LaurelTestDatabase.createUser("mixed-rebuilt")
        let chooser = try await LaurelTestDatabase.createUser("mixed-chooser")
        let completer = try await LaurelTestDatabase.createUser("mixed-completer")
        let pool = try await Self.poolWithCatalog()
        let day = LocalDay(year: 2026, month: 9, day: 21)!
        let logFive = ChallengeChoice(slot: 0, kind: .logsToday, period: .daily, periodStart: day, target: 5, xp: 20, title: "Log 5 exercises today")
        let squats = ChallengeChoice(
            slot: 1, kind: .amountToday, period: .daily, periodStart: day, target: 20, xp: 20, title: "Do 20 Squats today", activity: "squats")
        _ = try await pool.withConnection { connection in
            try PostgresStore.storeCommits(
                [
                    Self.commit(deleter, version: 0, logID: "old"),
                    Self.commit(templater, version: 0, logID: "t-1", change: { $0.unlocks = ["tpl-old-1"] }),
                    Self.commit(completer, version: 0, logID: "c-1", change: { $0.challengesChosen = [StoredChallenge(choice: logFive, completedAt: nil)] }),
                ], on: connection)
        }
        let batch = [
            Self.commit(plain, version: 0, logID: "p-1"),
            Self.commit(deleter, version: 1, logID: "new", change: { $0.deletedLog = "old" }),
            Self.commit(templater, version: 1, logID: "t-2", change: {
                $0.unlocks = ["tpl-old-2"]
                $0.deletedUnlockPrefixes = ["tpl-old"]
            }),
            Self.commit(rebuilt, version: 0, logID: "r-1", change: { $0.rebuilt = true }, snapshot: #"{"state":"recomputed"}"#),
            // Challenges chosen (one complete as it is chosen) and one chosen before completed.
            Self.commit(chooser, version: 0, logID: "ch-1", change: {
                $0.challengesChosen = [StoredChallenge(choice: logFive, completedAt: Self.decidedAt), StoredChallenge(choice: squats, completedAt: nil)]
            }),
            Self.commit(completer, version: 1, logID: "c-2", change: { $0.challengesCompleted = [logFive] }),
        ]
        let results = try await pool.withConnection { connection in try PostgresStore.storeCommits(batch, on: connection) }
        for result in results {
            guard case .success(.committed) = result else {
                Issue.record("not committed: \(result)")
                return
            }
        }
        #expect(try await Self.versionAndLogs(plain) == "1/1")
        #expect(try await Self.versionAndLogs(deleter) == "2/2")
        #expect(try await LaurelTestDatabase.scalar(
            "SELECT string_agg(id, ',' ORDER BY id) FROM laurel.logs WHERE user_id = $1::bigint AND deleted_at IS NULL",
            [.int(Int(deleter.id.rawValue))]) == "new")
        #expect(try await LaurelTestDatabase.scalar(
            "SELECT string_agg(achievement_id, ',' ORDER BY achievement_id) FROM laurel.unlocks WHERE user_id = $1::bigint",
            [.int(Int(templater.id.rawValue))]) == "tpl-old-2", "the template's earlier unlock goes, the one this write made stays")
        // The snapshot is stored at the version the write moved the user to, naming the logs before the write's own.
        #expect(try await LaurelTestDatabase.scalar(
            "SELECT version || ':' || last_log_seq FROM laurel.progress_snapshots WHERE user_id = $1::bigint",
            [.int(Int(rebuilt.id.rawValue))]) == "1:0")
        let challenges = """
            SELECT string_agg(slot || ':' || kind || ':' || (completed_at IS NOT NULL), ',' ORDER BY slot)
              FROM laurel.challenges WHERE user_id = $1::bigint AND period = 'daily' AND period_start = '2026-09-21'
            """
        #expect(try await LaurelTestDatabase.scalar(challenges, [.int(Int(chooser.id.rawValue))]) == "0:logs_today:true,1:amount_today:false")
        #expect(try await LaurelTestDatabase.scalar(challenges, [.int(Int(completer.id.rawValue))]) == "0:logs_today:true")
        #expect(try await Self.versionAndLogs(completer) == "2/2")
    }

    @Test func aStoredSnapshotIsNeverReplacedByAnOlderOne() async throws {
        let user = try await LaurelTestDatabase.createUser("snapshot")
        let pool = try await Self.poolWithCatalog()
        for version in 0..<7 {
            _ = try await pool.withConnection { connection in
                try PostgresStore.storeCommits([Self.commit(user, version: Int64(version), logID: "log-\(version)")], on: connection)
            }
        }
        let store = PostgresStore(pool: pool)
        let stored = { try await LaurelTestDatabase.scalar(
            "SELECT version || ':' || last_log_seq FROM laurel.progress_snapshots WHERE user_id = $1::bigint", [.int(Int(user.id.rawValue))]) }
        func save(_ version: Int64, seq: Int64) async throws {
            try await store.saveSnapshot(ProgressSnapshot(version: version, seqs: FactSeqs(log: seq), accumulator: ProgressAccumulator()), of: user.id)
        }
        try await save(5, seq: 50)
        #expect(try await stored() == "5:50")
        try await save(3, seq: 30)
        #expect(try await stored() == "5:50", "an older snapshot does not replace a newer one")
        try await save(7, seq: 70)
        #expect(try await stored() == "7:70")
        try await save(9, seq: 90)
        #expect(try await stored() == "7:70", "no snapshot of a version the user has not reached")
    }

    /// The admin pool, with the built-in activities the commits log installed.
    static func poolWithCatalog() async throws -> PostgresPool {
        let pool = try await LaurelTestDatabase.admin()
        try await PostgresStore(pool: pool).installCatalog(try ShippedCatalogs.load("standfit"))
        return pool
    }

    /// When every commit of ``commit(_:version:logID:activity:amount:pushes:change:)`` is decided.
    static let decidedAt = Date(timeIntervalSince1970: 1_790_000_000)

    /// A commit of one log of `activity` for `user`, decided against `version` at ``decidedAt``, with what `change` adds
    /// to its writes.
    static func commit(
        _ user: TestUser, version: Int64, logID: String, activity: String = "squats", amount: Int = 5, pushes: [PushDraft] = [],
        change: (inout ProgressWrites) -> Void = { _ in }, snapshot: String? = nil,
        announcing: (ProgressWrites, LatestDayScores) -> AnnouncedChange? = { _, _ in nil }
    ) -> UserCommit {
        let at = decidedAt
        var writes = ProgressWrites()
        writes.fact = NewFact(
            content: .log(activityID: activity, amount: amount, localHour: 12, note: nil), id: logID, at: at,
            day: LocalDay(year: 2026, month: 9, day: 21)!, requestedAt: at)
        writes.unlocks = pushes.isEmpty ? [] : ["first_exercise"]
        var figures = ProgressFigures()
        figures.xp = 15
        figures.shownStreak = StreakState(current: 1, longest: 1)
        writes.figures = figures
        change(&writes)
        return UserCommit(
            user: user.id, expectedVersion: version, writes: writes, decidedAt: at, pushes: pushes,
            answer: Array(#"{"log":{"id":"\#(logID)"},"duplicate":false}"#.utf8), snapshot: snapshot, scoresBefore: LatestDayScores(),
            announcing: announcing)
    }

    /// The user's version and number of logs, as "version/logs".
    static func versionAndLogs(_ user: TestUser) async throws -> String? {
        try await LaurelTestDatabase.scalar(
            """
            SELECT p.version || '/' || (SELECT count(*) FROM laurel.logs l WHERE l.user_id = p.user_id)
              FROM laurel.progress p WHERE p.user_id = $1::bigint
            """, [.int(Int(user.id.rawValue))])
    }
}
