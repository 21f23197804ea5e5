import Foundation
import LaurelCore
import LaurelJSON
import LaurelStore

/// A batch of commits as `laurel.commit_changes` takes it (the type `laurel.commit_part`, in
/// sql/migrations/0013_commit_parts.sql, names the fields): a JSON array written straight into bytes, one object per
/// commit, with the rows the rules decided. The answer kept for retries and the pushes travel as JSON themselves (a
/// string of JSON escapes every quote of it, and a first LOG of the day carries 4-8 pushes); other values that are
/// JSON (tiers, a snapshot) travel as strings. All are stored as sent.
enum UserCommitBatch {
    /// The batch's UTF-8 for the commits at `order`, each numbered by its place there (handed to libpq as it is).
    static func bytes(_ commits: [UserCommit], in order: [Int]) -> [UInt8] {
        // A LOG's commit is 600 to 900 bytes (its answer, figures and board scores): room for one without growing.
        var json = JSONWriter(capacity: 1024 * order.count)
        json.beginArray()
        for (place, index) in order.enumerated() { write(commits[index], place: place, into: &json) }
        json.endArray()
        return json.finish()
    }

    private static func write(_ commit: UserCommit, place: Int, into json: inout JSONWriter) {
        let writes = commit.writes
        json.beginObject()
        json.field("n", place)
        json.field("user_id", Int(commit.user.rawValue))
        json.field("version", Int(commit.expectedVersion))
        if writes.reloadsSessions { json.field("reloads", true) }
        if writes.rebuilt { json.field("rebuilt", true) }
        json.field("decided_us", PostgresTimestamp.microseconds(commit.decidedAt))
        if let fact = writes.fact { write(fact, answer: commit.answer ?? "{}", into: &json) }
        json.field("installed_listing", ifPresent: writes.installedListing)
        json.field("deleted_log", ifPresent: writes.deletedLog)
        if let change = writes.settings {
            json.field("settings_zone", change.0.timeZone)
            json.field("settings_rest", ifPresent: change.0.restDay?.rawValue)
            json.field("settings_vacation", change.0.vacation)
            json.field("settings_goal", change.0.weeklyGoal)
            json.field("settings_window", change.0.reminderWindowMinutes)
            json.field("settings_leaderboards", change.0.leaderboards)
            json.field("settings_day", change.effective)
        }
        if let activity = writes.activity {
            json.key("custom_activity")
            json.beginObject()
            json.field("id", activity.id)
            json.field("name", activity.name)
            json.field("unit", activity.unit.rawValue)
            json.field("icon", ifPresent: activity.icon)
            json.field("deleted", activity.deleted)
            json.endObject()
        }
        if !writes.templates.isEmpty {
            json.key("templates")
            json.beginArray()
            for template in writes.templates { write(template, into: &json) }
            json.endArray()
        }
        strings("deleted_templates", writes.deletedTemplates, into: &json)
        strings("deleted_unlock_prefixes", writes.deletedUnlockPrefixes, into: &json)
        strings("unlocks", writes.unlocks, into: &json)
        if !writes.challengesChosen.isEmpty {
            json.key("chosen")
            json.beginArray()
            for chosen in writes.challengesChosen {
                json.beginObject()
                period(of: chosen.choice, into: &json)
                json.field("kind", chosen.choice.kind.rawValue)
                json.field("title", chosen.choice.title)
                json.field("target", chosen.choice.target)
                json.field("xp", chosen.choice.xp)
                json.field("activity_id", ifPresent: chosen.choice.activity)
                json.field("hour", ifPresent: chosen.choice.hour)
                json.field("completed", chosen.completedAt != nil)
                json.endObject()
            }
            json.endArray()
        }
        if !writes.challengesCompleted.isEmpty {
            json.key("completed")
            json.beginArray()
            for choice in writes.challengesCompleted {
                json.beginObject()
                period(of: choice, into: &json)
                json.endObject()
            }
            json.endArray()
        }
        if !commit.pushes.isEmpty {
            strings("push_kinds", commit.pushes.map(\.kind.rawValue), into: &json)
            json.key("push_data")
            json.beginArray()
            for push in commit.pushes { json.raw(push.data) }
            json.endArray()
        }
        if let figures = writes.figures { write(figures, into: &json) }
        if let allowance = writes.allowance, let available = allowance.available, let at = allowance.spentAt {
            json.key("allowance")
            json.double(available)
            json.field("allowance_us", PostgresTimestamp.microseconds(at))
        }
        json.field("snapshot", ifPresent: commit.snapshot)
        if !commit.scoreRows.earlierDays.isEmpty {
            json.key("scores")
            write(commit.scoreRows.earlierDays, into: &json)
        }
        if let latest = commit.scoreRows.latest, let day = latest.day {
            json.field("latest_score_day", day)
            // As JSON, kept by the json column as sent; a reader parses it back (PostgresUserReader.latestScores).
            json.key("latest_scores")
            write(latest.scores, into: &json)
        }
        if let change = commit.announcement {
            json.key("announce")
            AnnouncedChangeJSON.write(change, into: &json)
        }
        json.endObject()
    }

    /// Changes of earlier days' rows: `[{"day","board","delta","reached_us"}]`.
    static func write(_ changes: [LatestDayScores.EarlierDayChange], into json: inout JSONWriter) {
        json.beginArray()
        for change in changes {
            json.beginObject()
            json.field("day", change.day)
            json.key("board")
            board(change.board, into: &json)
            json.field("delta", change.delta)
            json.field("reached_us", PostgresTimestamp.microseconds(change.reachedAt))
            json.endObject()
        }
        json.endArray()
    }

    /// The latest day's scores as `laurel.progress.latest_scores` keeps them: `{"BOARD": [score, reached_us], ...}`.
    /// Short, since every LOG writes it into the progress row and the WAL.
    static func write(_ scores: [LatestDayScores.Score], into json: inout JSONWriter) {
        json.beginObject()
        for score in scores {
            boardKey(score.board, into: &json)
            json.beginArray()
            json.int(score.score)
            json.int(PostgresTimestamp.microseconds(score.reachedAt))
            json.endArray()
        }
        json.endObject()
    }

    /// A board's name as a string (`LeaderboardBoard.description`), the fixed ones without making a `String`.
    private static func board(_ board: LeaderboardBoard, into json: inout JSONWriter) {
        switch board {
        case .xp: json.raw(static: "\"xp\"")
        case .logs: json.raw(static: "\"logs\"")
        case .challenges: json.raw(static: "\"challenges\"")
        case .activity: json.string(board.description)
        }
    }

    /// A board's name as a member's name: every LOG writes the four its scores are on.
    private static func boardKey(_ board: LeaderboardBoard, into json: inout JSONWriter) {
        switch board {
        case .xp: json.key("xp")
        case .logs: json.key("logs")
        case .challenges: json.key("challenges")
        case .activity: json.key(runtime: board.description)
        }
    }

    private static func write(_ fact: NewFact, answer: String, into json: inout JSONWriter) {
        json.field("fact_kind", fact.kind.rawValue)
        json.field("fact_id", fact.id)
        json.field("at_us", PostgresTimestamp.microseconds(fact.at))
        json.field("day", fact.day)
        if let requestedAt = fact.requestedAt { json.field("requested_us", PostgresTimestamp.microseconds(requestedAt)) }
        // As JSON, not as a string of JSON: nothing to escape here or to unescape there (json keeps it byte for byte).
        json.key("response")
        json.raw(answer)
        switch fact.content {
        case .log(let activity, let amount, let localHour, let note):
            json.field("activity", activity)
            json.field("amount", amount)
            json.field("local_hour", localHour)
            json.field("note", ifPresent: note)
        case .lesson(let lesson):
            json.field("lesson", lesson.id)
            json.field("category", lesson.category)
        case .event(let name):
            json.field("event", name)
        case .reminder(let minutes, let answered):
            json.field("window_minutes", minutes)
            json.field("answered", answered)
        }
    }

    private static func write(_ template: AchievementTemplate, into json: inout JSONWriter) {
        json.beginObject()
        json.field("id", template.id)
        json.field("activity_id", template.activityID)
        json.field("name", template.name)
        json.field("type", template.type.rawValue)
        json.field("tiers", JSONValue.array(template.tiers.map { .object($0.json) }).serialized())
        json.field("active", template.active)
        json.field("inactive_reason", ifPresent: template.inactiveReason)
        json.field("created_us", PostgresTimestamp.microseconds(template.createdAt))
        json.field("updated_us", PostgresTimestamp.microseconds(template.updatedAt))
        json.field("listing_id", ifPresent: template.listingID)
        if !template.combo.isEmpty {
            json.field("combo", JSONValue.array(template.combo.map { ["activity_id": .string($0.activityID), "amount": .int($0.amount)] }).serialized())
        }
        json.endObject()
    }

    private static func write(_ figures: ProgressFigures, into json: inout JSONWriter) {
        json.field("has_figures", true)
        writeFields(of: figures, into: &json)
    }

    /// The figures' fields, named as `laurel.progress` names its columns, in the object being written.
    static func writeFields(of figures: ProgressFigures, into json: inout JSONWriter) {
        let streak = figures.shownStreak
        json.field("xp", figures.xp)
        json.field("level", figures.level)
        json.field("max_level", figures.highestLevel)
        json.field("current_streak", streak.current)
        json.field("longest_streak", streak.longest)
        json.field("streak_freezes", streak.freezes)
        json.field("streak_at_risk", streak.atRisk)
        json.field("last_active_day", ifPresent: streak.lastActiveDay)
        json.field("streak_holds_through", ifPresent: figures.streakHoldsThrough)
        json.field("challenge_xp", figures.challengeXP)
        json.field("unlocked", figures.unlocked)
        json.field("total_logs", figures.totalLogs)
        json.field("active_days", figures.activeDays)
        json.field("goal_met_week", ifPresent: figures.goalMetWeek?.monday)
    }

    private static func period(of choice: ChallengeChoice, into json: inout JSONWriter) {
        json.field("period", choice.period.rawValue)
        json.field("period_start", choice.periodStart)
        json.field("slot", choice.slot)
    }

    private static func strings(_ name: StaticString, _ values: [String], into json: inout JSONWriter) {
        guard !values.isEmpty else { return }
        json.key(name)
        json.beginArray()
        for value in values { json.string(value) }
        json.endArray()
    }
}
