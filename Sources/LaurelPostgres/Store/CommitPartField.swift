/// The fields of `laurel.commit_part` (sql/migrations/0013_commit_parts.sql and 0017), one part of a commit batch, in the
/// type's order and with their types: a batch travels as an array of such records in PostgreSQL's binary format,
/// where every field is sent, in order, with its type's OID (`UserCommitBatch`). `CommitPartFieldTests` compares
/// this list with the type in a migrated database.
enum CommitPartField: Int, CaseIterable {
    case n, userID, version, reloads, rebuilt, factKind, factID, activity, amount, lesson, category, event, atUs, day
    case localHour, note, requestedUs, response, deletedLog, settingsZone, settingsRest, settingsVacation, settingsGoal
    case settingsWindow, settingsLeaderboards, settingsDay, windowMinutes, answered, customActivity, templates
    case deletedTemplates, deletedUnlockPrefixes, installedListing, unlocks, decidedUs, completed, pushKinds
    case pushData, hasFigures, xp, level, maxLevel, currentStreak, longestStreak, streakFreezes, streakAtRisk
    case lastActiveDay, streakHoldsThrough, challengeXP, unlocked, totalLogs, activeDays, goalMetWeek, allowance
    case allowanceUs, snapshot, scores, latestScoreDay, latestScores, announce
    // The challenges chosen now, column by column (migration 0017 added them at the type's end).
    case chosenPeriod, chosenStart, chosenSlot, chosenKind, chosenTitle, chosenTarget, chosenXP, chosenActivity, chosenHour
    case chosenCompleted

    /// The field's name in the type.
    var name: String {
        switch self {
        case .userID: "user_id"
        case .factKind: "fact_kind"
        case .factID: "fact_id"
        case .atUs: "at_us"
        case .localHour: "local_hour"
        case .requestedUs: "requested_us"
        case .deletedLog: "deleted_log"
        case .settingsZone: "settings_zone"
        case .settingsRest: "settings_rest"
        case .settingsVacation: "settings_vacation"
        case .settingsGoal: "settings_goal"
        case .settingsWindow: "settings_window"
        case .settingsLeaderboards: "settings_leaderboards"
        case .settingsDay: "settings_day"
        case .windowMinutes: "window_minutes"
        case .customActivity: "custom_activity"
        case .deletedTemplates: "deleted_templates"
        case .deletedUnlockPrefixes: "deleted_unlock_prefixes"
        case .installedListing: "installed_listing"
        case .decidedUs: "decided_us"
        case .pushKinds: "push_kinds"
        case .pushData: "push_data"
        case .hasFigures: "has_figures"
        case .maxLevel: "max_level"
        case .currentStreak: "current_streak"
        case .longestStreak: "longest_streak"
        case .streakFreezes: "streak_freezes"
        case .streakAtRisk: "streak_at_risk"
        case .lastActiveDay: "last_active_day"
        case .streakHoldsThrough: "streak_holds_through"
        case .challengeXP: "challenge_xp"
        case .totalLogs: "total_logs"
        case .activeDays: "active_days"
        case .goalMetWeek: "goal_met_week"
        case .allowanceUs: "allowance_us"
        case .latestScoreDay: "latest_score_day"
        case .latestScores: "latest_scores"
        case .chosenPeriod: "chosen_period"
        case .chosenStart: "chosen_start"
        case .chosenSlot: "chosen_slot"
        case .chosenKind: "chosen_kind"
        case .chosenTitle: "chosen_title"
        case .chosenTarget: "chosen_target"
        case .chosenXP: "chosen_xp"
        case .chosenActivity: "chosen_activity"
        case .chosenHour: "chosen_hour"
        case .chosenCompleted: "chosen_completed"
        default: "\(self)"
        }
    }

    var type: PostgresBinaryArray.FieldType {
        switch self {
        case .n, .amount, .level, .maxLevel, .currentStreak, .longestStreak, .challengeXP, .unlocked, .totalLogs, .activeDays:
            .int4
        case .userID, .version, .atUs, .requestedUs, .decidedUs, .xp, .allowanceUs:
            .int8
        case .localHour, .settingsRest, .settingsGoal, .settingsWindow, .windowMinutes, .streakFreezes:
            .int2
        case .reloads, .rebuilt, .settingsVacation, .settingsLeaderboards, .answered, .hasFigures, .streakAtRisk:
            .bool
        // JSON that PostgreSQL only keeps or hands on is text there, not parsed on its way in (migration 0014).
        case .factKind, .factID, .activity, .lesson, .category, .event, .note, .deletedLog, .settingsZone, .snapshot, .response,
             .latestScores, .announce:
            .text
        case .customActivity, .templates, .completed, .scores:
            .json
        case .pushData: .jsonArray
        case .day, .settingsDay, .lastActiveDay, .streakHoldsThrough, .goalMetWeek, .latestScoreDay:
            .date
        case .deletedTemplates: .uuidArray
        case .deletedUnlockPrefixes, .unlocks, .pushKinds, .chosenPeriod, .chosenKind, .chosenTitle, .chosenActivity: .textArray
        case .chosenStart: .dateArray
        case .chosenSlot, .chosenHour: .int2Array
        case .chosenTarget, .chosenXP: .int4Array
        case .chosenCompleted: .boolArray
        case .installedListing: .uuid
        case .allowance: .float8
        }
    }
}
