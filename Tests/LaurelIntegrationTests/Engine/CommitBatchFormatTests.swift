import Foundation
import LaurelCore
import LaurelJSON
import LaurelStore
import Testing
@testable import LaurelPostgres

/// What a batch of commits is to `laurel.commit_changes`: an array of `laurel.commit_part` records in binary format
/// (`UserCommitBatch`), read back here by PostgreSQL itself, so that every field is checked as the server reads it:
/// in its place, of its type, NULL where a part has none.
@Suite struct CommitBatchFormatTests {
    static let decided = Date(timeIntervalSince1970: 1_781_546_400.123)

    @Test func aLogCommitCarriesItsRowsAndFigures() async throws {
        var writes = ProgressWrites()
        writes.fact = NewFact(
            content: .log(activityID: "pushups", amount: 20, localHour: 18, note: "a \"good\" one, ünïcode"), id: "l1", at: Self.decided,
            day: LocalDay("2026-06-15")!, requestedAt: nil)
        writes.unlocks = ["first_exercise"]
        var figures = ProgressFigures()
        figures.xp = 65
        writes.figures = figures
        writes.allowance = LogAllowance(available: 999.5, at: Self.decided)
        writes.scores.add(.logs, on: LocalDay("2026-06-15")!, 1)
        writes.scores.add(.logs, on: LocalDay("2026-06-10")!, -1)
        let yesterday = LatestDayScores(day: LocalDay("2026-06-14")!, scores: [.init(board: .xp, score: 30, reachedAt: Date(timeIntervalSince1970: 1))])
        let commit = UserCommit(
            user: UserID(3), expectedVersion: 41, writes: writes, decidedAt: Self.decided,
            pushes: [PushDraft(kind: .unlock, data: "{\"id\":\"first_exercise\"}")], answer: Array("{\"duplicate\":false}".utf8), snapshot: nil,
            scoresBefore: yesterday)
        let part = try await Self.read([commit])[0]
        #expect(part["n"] == .int(0) && part["user_id"] == .int(3) && part["version"] == .int(41))
        #expect(part["fact_kind"] == .string("log") && part["fact_id"] == .string("l1") && part["activity"] == .string("pushups"))
        #expect(part["amount"] == .int(20) && part["local_hour"] == .int(18) && part["day"] == .string("2026-06-15"))
        #expect(part["note"] == .string("a \"good\" one, ünïcode"))
        #expect(part["at_us"] == .int(1_781_546_400_123_000) && part["decided_us"] == .int(1_781_546_400_123_000))
        #expect(part["response"] == ["duplicate": false])
        #expect(part["unlocks"] == .array(["first_exercise"]))
        #expect(part["push_kinds"] == .array(["UNLOCK"]) && part["push_data"] == .array([["id": "first_exercise"]]))
        // The pushes are announced with the commit, each push's data as the text stored (no change announced).
        #expect(part["announce"] == ["pushes": [["UNLOCK", "{\"id\":\"first_exercise\"}"]]])
        #expect(part["has_figures"] == .bool(true) && part["xp"] == .int(65) && part["streak_at_risk"] == .bool(false))
        #expect(part["allowance"] == .double(999.5) && part["allowance_us"] == .int(1_781_546_400_123_000))
        #expect(part["requested_us"] == nil && part["reloads"] == nil && part["settings_zone"] == nil && part["window_minutes"] == nil)
        // The day the new log's day replaces as the latest moves to rows of its own, as does the backfill.
        #expect(part["scores"] == .array([
            ["day": "2026-06-14", "board": "xp", "delta": 30, "reached_us": 1_000_000],
            ["day": "2026-06-10", "board": "logs", "delta": -1, "reached_us": .int(1_781_546_400_123_000)],
        ]))
        #expect(part["latest_score_day"] == .string("2026-06-15"))
        #expect(part["latest_scores"] == ["logs": [1, .int(1_781_546_400_123_000)]])
    }

    /// Challenges chosen travel column by column, one array element a challenge (migration 0017), so that PostgreSQL
    /// takes them apart without parsing: a challenge without an activity or an hour has NULL there.
    @Test func theChallengesChosenComeColumnByColumn() async throws {
        let day = LocalDay("2026-06-15")!
        var writes = ProgressWrites()
        writes.challengesChosen = [
            StoredChallenge(
                choice: ChallengeChoice(
                    slot: 1, kind: .amountToday, period: .daily, periodStart: day, target: 40, xp: 30, title: "Do 40 pushups today",
                    activity: "pushups"),
                completedAt: nil),
            StoredChallenge(
                choice: ChallengeChoice(
                    slot: 0, kind: .activeDaysWeek, period: .weekly, periodStart: day, target: 4, xp: 50, title: "Be active on 4 \"days\"",
                    hour: 9),
                completedAt: Self.decided),
        ]
        let commit = UserCommit(
            user: UserID(5), expectedVersion: 1, writes: writes, decidedAt: Self.decided, pushes: [], answer: nil, snapshot: nil,
            scoresBefore: LatestDayScores())
        let part = try await Self.read([commit])[0]
        #expect(part["chosen_period"] == ["daily", "weekly"])
        #expect(part["chosen_start"] == ["2026-06-15", "2026-06-15"])
        #expect(part["chosen_slot"] == [1, 0])
        #expect(part["chosen_kind"] == ["amount_today", "active_days_week"])
        #expect(part["chosen_title"] == ["Do 40 pushups today", "Be active on 4 \"days\""])
        #expect(part["chosen_target"] == [40, 4] && part["chosen_xp"] == [30, 50])
        #expect(part["chosen_activity"] == ["pushups", .null])
        #expect(part["chosen_hour"] == [.null, 9])
        #expect(part["chosen_completed"] == [false, true])
        #expect(part["completed"] == nil)
    }

    @Test func settingsARemindersAndTemplatesFieldsComeInTheirPlaces() async throws {
        let template = UUID()
        let listing = UUID()
        var writes = ProgressWrites()
        writes.fact = NewFact(
            content: .reminder(windowMinutes: 45, answered: true), id: "r1", at: Self.decided, day: LocalDay("2026-06-15")!,
            requestedAt: Self.decided.addingTimeInterval(1))
        var settings = UserSettings(timeZone: "Europe/Berlin")
        settings.restDay = .sunday
        settings.vacation = true
        settings.weeklyGoal = 5
        writes.settings = (settings, effective: LocalDay("2026-06-16")!)
        writes.deletedTemplates = [template.uuidString]
        writes.deletedUnlockPrefixes = ["tpl.x."]
        writes.installedListing = listing.uuidString
        writes.deletedLog = "gone"
        let commit = UserCommit(
            user: UserID(9), expectedVersion: 2, writes: writes, decidedAt: Self.decided, pushes: [], answer: Array("{}".utf8), snapshot: "{\"v\":7}",
            scoresBefore: LatestDayScores())
        let other = UserCommitTests.commit(TestUser(id: UserID(4), name: "other", token: ""), version: 0, logID: "o1")
        let parts = try await Self.read([commit, other])
        // Ordered by user: the other commit first.
        #expect(parts[0]["user_id"] == .int(4) && parts[0]["n"] == .int(0) && parts[1]["n"] == .int(1))
        let part = parts[1]
        #expect(part["fact_kind"] == .string("reminder") && part["window_minutes"] == .int(45) && part["answered"] == .bool(true))
        #expect(part["requested_us"] == .int(1_781_546_401_123_000) && part["activity"] == nil && part["local_hour"] == nil)
        #expect(part["settings_zone"] == .string("Europe/Berlin") && part["settings_vacation"] == .bool(true))
        #expect(part["settings_goal"] == .int(5) && part["settings_rest"] == .int(Weekday.sunday.rawValue))
        #expect(part["settings_window"] == .int(UserSettings.defaultReminderWindow) && part["settings_leaderboards"] == .bool(true))
        #expect(part["settings_day"] == .string("2026-06-16") && part["deleted_log"] == .string("gone"))
        #expect(part["deleted_templates"] == .array([.string(template.uuidString.lowercased())]))
        #expect(part["installed_listing"] == .string(listing.uuidString.lowercased()))
        #expect(part["deleted_unlock_prefixes"] == .array(["tpl.x."]) && part["snapshot"] == .string("{\"v\":7}"))
        #expect(part["has_figures"] == nil && part["unlocks"] == nil && part["push_kinds"] == nil)
    }

    /// An instance that knows of no other announces no pushes: no one would read them.
    @Test func pushesAreAnnouncedOnlyWhenAsked() async throws {
        var writes = ProgressWrites()
        writes.fact = NewFact(
            content: .log(activityID: "pushups", amount: 5, localHour: 9, note: nil), id: "l2", at: Self.decided,
            day: LocalDay("2026-06-15")!, requestedAt: nil)
        let commit = UserCommit(
            user: UserID(5), expectedVersion: 1, writes: writes, decidedAt: Self.decided,
            pushes: [PushDraft(kind: .level, data: "{\"level\":2}")], answer: Array("{}".utf8), snapshot: nil, scoresBefore: LatestDayScores(),
            announcingPushes: false)
        let part = try await Self.read([commit])[0]
        #expect(part["push_kinds"] == .array(["LEVEL"]) && part["push_data"] == .array([["level": 2]]))
        #expect(part["announce"] == nil)
    }

    /// A commit's pushes go in as two arrays, their kinds and their data (`json[]`), and are stored paired in order,
    /// each with its own seq.
    @Test func pushesAreStoredWithTheirOwnKindsAndData() async throws {
        let user = try await LaurelTestDatabase.createUser("format-pushes")
        let pool = try await UserCommitTests.poolWithCatalog()
        let pushes = [
            PushDraft(kind: .unlock, data: #"{"id":"first_exercise"}"#),
            PushDraft(kind: .challenge, data: #"{"id":"daily-1","note":"a \"quoted\" word, [brackets] and, commas"}"#),
            PushDraft(kind: .unlock, data: #"{"id":"early_bird"}"#),
        ]
        let results = try await pool.withConnection { connection in
            try PostgresStore.storeCommits([UserCommitTests.commit(user, version: 0, logID: "format-pushes-1", pushes: pushes)], on: connection)
        }
        guard case .success(.committed(version: 1, lastSeq: 3, factSeq: _, let stored)) = results[0] else {
            Issue.record("not committed: \(results[0])")
            return
        }
        #expect(stored.map(\.seq) == [1, 2, 3])
        let rows = try await pool.withConnection { connection in
            try connection.query(
                "SELECT seq::bigint AS seq, kind, data::text AS data FROM laurel.pushes WHERE user_id = $1::bigint ORDER BY seq",
                [.int(Int(user.id.rawValue))])
        }
        #expect(try rows.map { "\(try $0.int("seq")) \(try $0.string("kind")) \(try $0.string("data"))" } == [
            #"1 UNLOCK {"id":"first_exercise"}"#,
            #"2 CHALLENGE {"id":"daily-1","note":"a \"quoted\" word, [brackets] and, commas"}"#,
            #"3 UNLOCK {"id":"early_bird"}"#,
        ])
    }

    @Test func anEmptyBatchIsAnEmptyArray() async throws {
        #expect(try await Self.read([]).isEmpty)
    }

    /// `CommitPartField` is the writer's list of the type's fields; a field added to the type and not to the list
    /// (or in another place, or of another type) fails here before any batch does.
    @Test func theWritersFieldsAreTheTypesFieldsInOrder() async throws {
        try await LaurelTestDatabase.withFreshDatabase { pool in
            let rows = try await pool.withConnection { connection in
                try connection.query(
                    """
                    SELECT a.attname::text AS name, a.atttypid::bigint AS type
                      FROM pg_attribute a
                     WHERE a.attrelid = (SELECT typrelid FROM pg_type WHERE oid = 'laurel.commit_part'::regtype)
                       AND a.attnum > 0 AND NOT a.attisdropped
                     ORDER BY a.attnum
                    """)
            }
            let stored = try rows.map { "\(try $0.string("name")) \(try $0.int("type"))" }
            #expect(stored == CommitPartField.allCases.map { "\($0.name) \($0.type.rawValue)" })
        }
    }

    /// A batch is one parameter, read before anything runs: a value its type cannot hold is kept out of it, and
    /// only its own commit fails.
    @Test func aCommitWithAValueItsTypeCannotHoldFailsAlone() async throws {
        try await LaurelTestDatabase.withFreshDatabase { pool in
            let first = try await CommitPlanTests.createUser("format-first", on: pool)
            let second = try await CommitPlanTests.createUser("format-second", on: pool)
            let results = try await pool.withConnection { connection in
                try PostgresStore.storeCommits([
                    UserCommitTests.commit(first, version: 0, logID: "bad") { writes in writes.deletedTemplates = ["not-a-uuid"] },
                    UserCommitTests.commit(second, version: 0, logID: "good"),
                ], on: connection)
            }
            guard case .failure(.failed(let reason)) = results[0] else {
                Issue.record("the unwritable commit: \(results[0])")
                return
            }
            #expect(reason.contains("not-a-uuid"))
            guard case .success(.committed) = results[1] else {
                Issue.record("the other commit: \(results[1])")
                return
            }
        }
    }

    /// The fields that carry JSON as text (migration 0014): read here as the JSON they hold.
    static let jsonTextFields = ["response", "latest_scores", "announce"]

    /// The parts of a batch as PostgreSQL reads them, as JSON objects without their NULL fields.
    static func read(_ commits: [UserCommit]) async throws -> [JSONObject] {
        var parts: [JSONObject] = []
        try await LaurelTestDatabase.withFreshDatabase { pool in
            let text = try await pool.withConnection { connection in
                let order = commits.indices.sorted { commits[$0].user.rawValue < commits[$1].user.rawValue }
                let batch = UserCommitBatch.bytes(commits, in: order, partType: try connection.typeOID(of: "laurel.commit_part"))
                return try connection.query(
                    """
                    SELECT coalesce(json_agg(json_strip_nulls(row_to_json(p)) ORDER BY p.n), '[]')::text AS parts
                      FROM unnest($1::laurel.commit_part[]) AS p
                    """, [.binary(batch)]).first?.string("parts")
            }
            let json = try #require(text)
            let array = try #require(try JSONParser.parse(json).arrayValue)
            parts = try array.map { element in
                var part = try #require(element.objectValue)
                for field in jsonTextFields {
                    if case .string(let text) = part[field] { part[field] = try JSONParser.parse(text) }
                }
                return part
            }
        }
        return parts
    }
}
