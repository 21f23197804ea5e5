import Foundation
import LaurelCore
import LaurelJSON
import LaurelPostgres
import Testing

/// A user's figures recomputed from scratch by the pure core, from the rows the server stored (live logs,
/// reminders, reported events, settings history, unlocks, LEVEL pushes) read with plain SQL: the reference the server's incremental
/// evaluation must agree with.
struct RecomputedProgress {
    /// Live logs as stored, with the local day and hour the server fixed when each was made.
    let logs: [LoggedFact]
    let settings: StreakSettingsHistory
    let unlocked: Set<String>
    let highestLevel: Int
    let today: LocalDay
    let recomputation: ProgressRecomputation
    let outcome: AchievementEvaluator.Outcome

    /// - Parameter now: the server's now (a server on a shifted clock is recomputed at its own now).
    static func read(_ user: TestUser, zone: TimeZone, catalog: Catalog, now: Date = Date()) async throws -> RecomputedProgress {
        let userID = PostgresValue.int(Int(user.id.rawValue))
        let pool = try await LaurelTestDatabase.admin()
        let (logs, reminders, events, settings, unlocked, highestLevel) = try await pool.transaction { connection in
            let logs = try connection.query(
                """
                SELECT id, activity_id, amount, (extract(epoch FROM at) * 1000000)::bigint AS at_us,
                       to_char(day, 'YYYY-MM-DD') AS day, local_hour
                  FROM laurel.logs WHERE user_id = $1::bigint AND deleted_at IS NULL
                """, [userID]
            ).map { row in
                LoggedFact(
                    id: try row.string("id"), activity: try row.string("activity_id"), amount: try row.int("amount"),
                    at: Date(timeIntervalSince1970: Double(try row.int("at_us")) / 1_000_000),
                    day: LocalDay(try row.string("day")) ?? LocalDay(daysSince1970: 0), localHour: try row.int("local_hour"))
            }
            let reminders = try connection.query(
                """
                SELECT id, (extract(epoch FROM at) * 1000000)::bigint AS at_us, to_char(day, 'YYYY-MM-DD') AS day, window_minutes
                  FROM laurel.reminders WHERE user_id = $1::bigint
                """, [userID]
            ).map { row in
                ReminderFact(
                    id: try row.string("id"), at: Date(timeIntervalSince1970: Double(try row.int("at_us")) / 1_000_000),
                    day: LocalDay(try row.string("day")) ?? LocalDay(daysSince1970: 0), windowMinutes: try row.int("window_minutes"))
            }
            let events = try connection.query(
                "SELECT name, (extract(epoch FROM at) * 1000000)::bigint AS at_us FROM laurel.reported_events WHERE user_id = $1::bigint ORDER BY seq",
                [userID]
            ).map { row in
                ReportedEvent(name: try row.string("name"), at: Date(timeIntervalSince1970: Double(try row.int("at_us")) / 1_000_000))
            }
            var settings = StreakSettingsHistory()
            for row in try connection.query(
                "SELECT to_char(effective_day, 'YYYY-MM-DD') AS day, rest_day, vacation, weekly_goal FROM laurel.settings WHERE user_id = $1::bigint ORDER BY id",
                [userID])
            {
                let day = LocalDay(try row.string("day")) ?? LocalDay(daysSince1970: 0)
                settings.setRestDay(try row.optionalInt("rest_day").flatMap(Weekday.init(rawValue:)), from: day)
                settings.setVacation(try row.bool("vacation"), from: day)
                settings.setWeeklyGoal(try row.int("weekly_goal"), from: day)
            }
            let unlocked = Set(try connection.query(
                "SELECT achievement_id FROM laurel.unlocks WHERE user_id = $1::bigint", [userID]).map { try $0.string("achievement_id") })
            let highest = try connection.query(
                "SELECT coalesce(max((data->>'level')::int), 1) AS level FROM laurel.pushes WHERE user_id = $1::bigint AND kind = 'LEVEL'",
                [userID]
            ).first?.int("level") ?? 1
            return (logs, reminders, events, settings, unlocked, highest)
        }
        let today = LocalDay(of: now, in: zone)
        let recomputation = ProgressRecomputation(
            facts: ProgressFacts(logs: logs, events: events, reminders: reminders), settings: settings, today: today, now: now,
            speedWindows: SpeedWindow.required(by: catalog.achievements))
        // Only unlocks of achievements still listed are worth XP (these users have no templates: the catalog's).
        let outcome = AchievementEvaluator.evaluate(
            definitions: catalog.achievements, measures: recomputation.measures,
            alreadyUnlocked: AchievementEvaluator.unlocksWorthXP(unlocked, listed: catalog.achievements),
            highestLevelReached: highestLevel)
        return RecomputedProgress(
            logs: logs, settings: settings, unlocked: unlocked, highestLevel: highestLevel, today: today,
            recomputation: recomputation, outcome: outcome)
    }

    var measures: ProgressMeasures { recomputation.measures }

    static func json(_ streak: StreakState) -> JSONValue {
        .object(streak.json)
    }

    /// WSTREAK as PROFILE shows it.
    static func json(_ streak: WeeklyGoalStreak) -> JSONValue {
        [
            "goal": .int(streak.goal), "current": .int(streak.current), "longest": .int(streak.longest),
            "this_week": .int(streak.thisWeek), "met": .bool(streak.met), "at_risk": .bool(streak.atRisk),
        ]
    }

    /// Checks PROFILE and ACHIEVEMENTS (with hidden ones) against these figures.
    func expectAgreement(
        with client: LineClient, catalog: Catalog, _ label: String, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        #expect(outcome.newlyUnlocked.isEmpty, "\(label): met but not unlocked: \(outcome.newlyUnlocked.map(\.id))", sourceLocation: sourceLocation)
        #expect(!outcome.reachedNewLevel, "\(label): a level above the LEVEL pushes", sourceLocation: sourceLocation)

        let profile = Engine.ok(try await client.request("PROFILE"), sourceLocation: sourceLocation)
        #expect(profile["xp"]?.intValue == outcome.xp, "\(label): xp", sourceLocation: sourceLocation)
        #expect(profile["level"]?.intValue == outcome.level, "\(label): level", sourceLocation: sourceLocation)
        #expect(profile["xp_to_next_level"]?.intValue == outcome.xpToNextLevel, "\(label): xp_to_next_level", sourceLocation: sourceLocation)
        let worthXP = AchievementEvaluator.unlocksWorthXP(unlocked, listed: catalog.achievements)
        #expect(profile["unlocked"]?.intValue == worthXP.count, "\(label): unlocked", sourceLocation: sourceLocation)
        #expect(profile["streak"] == Self.json(recomputation.streak.state), "\(label): streak", sourceLocation: sourceLocation)
        #expect(profile["weekly_streak"] == Self.json(recomputation.weeklyGoalStreak), "\(label): weekly streak", sourceLocation: sourceLocation)
        let reminders = recomputation.reminderStreak
        #expect(profile["reminder_streak"] == ["current": .int(reminders.current), "longest": .int(reminders.longest), "pending": .int(reminders.pending)],
                "\(label): reminder streak", sourceLocation: sourceLocation)
        var byActivity = JSONObject()
        for (activity, figures) in measures.activities.sorted(by: { $0.key < $1.key }) { byActivity[activity] = .int(figures.total) }
        let totals: JSONValue = ["logs": .int(measures.totalLogs), "active_days": .int(measures.activeDays), "by_activity": .object(byActivity)]
        #expect(profile["totals"] == totals, "\(label): totals", sourceLocation: sourceLocation)

        let listed = Engine.byID(Engine.ok(try await client.request("ACHIEVEMENTS", ["include_hidden": true]), sourceLocation: sourceLocation))
        #expect(Set(listed.keys) == Set(catalog.achievements.map(\.id)), sourceLocation: sourceLocation)
        for definition in catalog.achievements {
            let shown = listed[definition.id]
            let expected = definition.displayedProgress(for: measures.measure(of: definition.rule, level: highestLevel))
            #expect(shown?["progress"]?.intValue == expected, "\(label): progress of \(definition.id)", sourceLocation: sourceLocation)
            #expect((shown?["unlocked_at"] != nil) == unlocked.contains(definition.id), "\(label): \(definition.id)", sourceLocation: sourceLocation)
        }
    }
}
