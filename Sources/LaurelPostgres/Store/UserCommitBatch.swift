import Foundation
import LaurelCore
import LaurelJSON
import LaurelStore

/// A batch of commits as `laurel.commit_changes` takes it: an array of `laurel.commit_part` records
/// (sql/migrations/0013_commit_parts.sql; ``CommitPartField`` lists the fields) in PostgreSQL's binary format, one
/// record per commit with the rows the rules decided, written straight into bytes. The server reads each field with
/// its type's receive function: no text to parse, no field looked up by name (as JSON, a batch's parsing was some 40 %
/// of what PostgreSQL spent on it). The answer kept for retries and the pushes travel as the JSON text they are;
/// other JSON values (tiers, scores) are written here. All are stored as sent.
enum UserCommitBatch {
    /// The batch for the commits at `order`, each numbered by its place there (handed to libpq as it is);
    /// `partType` is `laurel.commit_part`'s OID in the database.
    static func bytes(_ commits: [UserCommit], in order: [Int], partType: UInt32) -> [UInt8] {
        // A LOG's record is about a kilobyte (61 fields' headers, its answer, figures and board scores); with room
        // for 1,024 bytes a record, 716 of 1,000 batches of one LOG grew their array, a copy of all written before.
        var parts = CommitPartWriter(array: PostgresBinaryArray(elementType: partType, capacity: 1536 * order.count))
        for (place, index) in order.enumerated() { write(commits[index], place: place, into: &parts) }
        return parts.array.finish()
    }

    /// Why `commit` cannot be written into a batch (a value its field's type cannot hold), or nil. A batch is one
    /// parameter, read by the server before anything runs: a part it cannot read would fail every part with it.
    static func unwritable(_ commit: UserCommit) -> String? {
        let writes = commit.writes
        if let id = writes.deletedTemplates.first(where: { UUID(uuidString: $0) == nil }) { return "'\(id)' is not a UUID" }
        if let id = writes.installedListing, UUID(uuidString: id) == nil { return "'\(id)' is not a UUID" }
        return nil
    }

    private static func write(_ commit: UserCommit, place: Int, into part: inout CommitPartWriter) {
        let writes = commit.writes
        part.begin()
        part.int(.n, place)
        part.int(.userID, Int(commit.user.rawValue))
        part.int(.version, Int(commit.expectedVersion))
        if writes.reloadsSessions { part.bool(.reloads, true) }
        if writes.rebuilt { part.bool(.rebuilt, true) }
        if let fact = writes.fact { write(fact, answer: commit.answer ?? Self.emptyAnswer, into: &part) }
        part.text(.deletedLog, ifPresent: writes.deletedLog)
        if let change = writes.settings {
            part.text(.settingsZone, change.0.timeZone)
            if let rest = change.0.restDay?.rawValue { part.int(.settingsRest, rest) }
            part.bool(.settingsVacation, change.0.vacation)
            part.int(.settingsGoal, change.0.weeklyGoal)
            part.int(.settingsWindow, change.0.reminderWindowMinutes)
            part.bool(.settingsLeaderboards, change.0.leaderboards)
            part.date(.settingsDay, change.effective)
        }
        if case .reminder(let minutes, let answered) = writes.fact?.content {
            part.int(.windowMinutes, minutes)
            part.bool(.answered, answered)
        }
        if let activity = writes.activity {
            part.json(.customActivity) { json in
                json.beginObject()
                json.field("id", activity.id)
                json.field("name", activity.name)
                json.field("unit", activity.unit.rawValue)
                json.field("icon", ifPresent: activity.icon)
                json.field("deleted", activity.deleted)
                json.endObject()
            }
        }
        if !writes.templates.isEmpty {
            part.json(.templates) { json in
                json.beginArray()
                for template in writes.templates { write(template, into: &json) }
                json.endArray()
            }
        }
        if !writes.deletedTemplates.isEmpty { part.uuids(.deletedTemplates, writes.deletedTemplates) }
        part.texts(.deletedUnlockPrefixes, writes.deletedUnlockPrefixes)
        if let listing = writes.installedListing { part.uuid(.installedListing, listing) }
        part.texts(.unlocks, writes.unlocks)
        part.int(.decidedUs, PostgresTimestamp.microseconds(commit.decidedAt))
        if !writes.challengesCompleted.isEmpty {
            part.json(.completed) { json in
                json.beginArray()
                for choice in writes.challengesCompleted {
                    json.beginObject()
                    period(of: choice, into: &json)
                    json.endObject()
                }
                json.endArray()
            }
        }
        if !commit.pushes.isEmpty {
            part.texts(.pushKinds, commit.pushes.lazy.map(\.kind.rawValue))
            part.jsonArray(.pushData, of: commit.pushes.lazy.map(\.data))
        }
        if let figures = writes.figures { write(figures, into: &part) }
        if let allowance = writes.allowance, let available = allowance.available, let at = allowance.spentAt {
            part.double(.allowance, available)
            part.int(.allowanceUs, PostgresTimestamp.microseconds(at))
        }
        part.text(.snapshot, ifPresent: commit.snapshot)
        if !commit.scoreRows.earlierDays.isEmpty {
            part.json(.scores) { json in write(commit.scoreRows.earlierDays, into: &json) }
        }
        if let latest = commit.scoreRows.latest, let day = latest.day {
            part.date(.latestScoreDay, day)
            // As JSON text, kept by the text column as sent; a reader parses it back (PostgresUserReader.latestScores).
            part.json(.latestScores) { json in write(latest.scores, into: &json) }
        }
        let announcedPushes = commit.announcesPushes ? commit.pushes : []
        if commit.announcement != nil || !announcedPushes.isEmpty {
            part.json(.announce) { json in AnnouncedChangeJSON.write(commit.announcement, pushes: announcedPushes, into: &json) }
        }
        if !writes.challengesChosen.isEmpty { write(chosen: writes.challengesChosen, into: &part) }
        part.end()
    }

    /// The challenges chosen now, column by column, one element a challenge (the type's last fields): PostgreSQL takes
    /// them apart with `unnest`, where a JSON list was parsed twice (migration 0017).
    private static func write(chosen: [StoredChallenge], into part: inout CommitPartWriter) {
        part.texts(.chosenPeriod, chosen.map(\.choice.period.rawValue))
        part.dates(.chosenStart, chosen.map(\.choice.periodStart))
        part.int2s(.chosenSlot, chosen.map { Optional($0.choice.slot) })
        part.texts(.chosenKind, chosen.map(\.choice.kind.rawValue))
        part.texts(.chosenTitle, chosen.map(\.choice.title))
        part.int4s(.chosenTarget, chosen.map(\.choice.target))
        part.int4s(.chosenXP, chosen.map(\.choice.xp))
        part.texts(.chosenActivity, optional: chosen.map(\.choice.activity))
        part.int2s(.chosenHour, chosen.map(\.choice.hour))
        part.bools(.chosenCompleted, chosen.map { $0.completedAt != nil })
    }

    /// What a new fact keeps when its commit came without an answer.
    private static let emptyAnswer = Array("{}".utf8)

    /// A new fact's fields up to its answer (a reminder's own two come after the settings).
    private static func write(_ fact: NewFact, answer: [UInt8], into part: inout CommitPartWriter) {
        part.text(.factKind, fact.kind.rawValue)
        part.text(.factID, fact.id)
        switch fact.content {
        case .log(let activity, let amount, _, _):
            part.text(.activity, activity)
            part.int(.amount, amount)
        case .lesson(let lesson):
            part.text(.lesson, lesson.id)
            part.text(.category, lesson.category)
        case .event(let name):
            part.text(.event, name)
        case .reminder:
            break
        }
        part.int(.atUs, PostgresTimestamp.microseconds(fact.at))
        part.date(.day, fact.day)
        if case .log(_, _, let localHour, let note) = fact.content {
            part.int(.localHour, localHour)
            part.text(.note, ifPresent: note)
        }
        if let requestedAt = fact.requestedAt { part.int(.requestedUs, PostgresTimestamp.microseconds(requestedAt)) }
        // As the JSON it is: nothing to escape here or to unescape there (json keeps it byte for byte).
        part.json(.response, utf8: answer)
    }

    private static func write(_ figures: ProgressFigures, into part: inout CommitPartWriter) {
        let streak = figures.shownStreak
        part.bool(.hasFigures, true)
        part.int(.xp, figures.xp)
        part.int(.level, figures.level)
        part.int(.maxLevel, figures.highestLevel)
        part.int(.currentStreak, streak.current)
        part.int(.longestStreak, streak.longest)
        part.int(.streakFreezes, streak.freezes)
        part.bool(.streakAtRisk, streak.atRisk)
        if let day = streak.lastActiveDay { part.date(.lastActiveDay, day) }
        if let day = figures.streakHoldsThrough { part.date(.streakHoldsThrough, day) }
        part.int(.challengeXP, figures.challengeXP)
        part.int(.unlocked, figures.unlocked)
        part.int(.totalLogs, figures.totalLogs)
        part.int(.activeDays, figures.activeDays)
        if let week = figures.goalMetWeek { part.date(.goalMetWeek, week.monday) }
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
            json.pair(score.score, PostgresTimestamp.microseconds(score.reachedAt))
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
        case .activity(let activity): json.key(runtime: activity, after: "activity:")
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
}
