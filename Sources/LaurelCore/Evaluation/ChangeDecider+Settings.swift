import Foundation

/// SETTINGS and LOG.DELETE: the two changes that can reach into days already walked, so that the running state is
/// recomputed from every live fact.
extension ChangeDecider {
    /// New settings are in force from today in the zone they name; the streak of earlier days never changes.
    mutating func changeSettings(_ change: SettingsChange) throws(Undecided) -> ChangeOutcome {
        var next = progress.settings
        if let zone = change.timeZone { next.timeZone = zone }
        if let restDay = change.restDay { next.restDay = restDay }
        if let vacation = change.vacation { next.vacation = vacation }
        if let goal = change.weeklyGoal { next.weeklyGoal = goal }
        if let window = change.reminderWindowMinutes { next.reminderWindowMinutes = window }
        if let listed = change.leaderboards { next.leaderboards = listed }
        guard next != progress.settings else { return .settings(next) }
        let zone = TimeZone(identifier: next.timeZone) ?? .gmt
        progress.settings = next
        changeZone(to: zone)
        let effective = today
        progress.settingsHistory.setRestDay(next.restDay, from: effective)
        progress.settingsHistory.setVacation(next.vacation, from: effective)
        progress.settingsHistory.setWeeklyGoal(next.weeklyGoal, from: effective)
        progress.settingsHistory.setReminderWindow(next.reminderWindowMinutes, from: effective)
        if change.timeZone != nil { progress.settingsHistory.setZone(next.timeZone, from: now) }
        if !progress.accumulator.acceptsSettingsChange(effective: effective) { try rebuild() }
        // A vacation from today skips today's reminders, walked already or not.
        progress.accumulator.walkRemindersAgain(settings: progress.settingsHistory)
        try trackSpeedWindows()
        writes.settings = (next, effective)
        writes.reloadsSessions = true
        settle(removesFacts: false)
        return .settings(next)
    }

    /// A deleted log stops counting (unlocks stay); the figures follow, and a shorter streak pushes nothing.
    mutating func deleteLog(_ id: String) throws(Undecided) -> ChangeOutcome {
        guard let loaded = pieces.logs[id] else { throw .needs([.log(id: id)]) }
        guard let log = loaded, !log.deleted else { throw .refused(.notFound(field: "id")) }
        baseline.noteDeletedLog(log, in: progress.accumulator)
        try rebuild(leavingOut: id)
        writes.deletedLog = id
        writes.reloadsSessions = true
        settle(removesFacts: true)
        return .logDeleted(log)
    }
}
