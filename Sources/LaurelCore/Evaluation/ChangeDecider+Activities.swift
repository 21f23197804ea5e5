/// ACTIVITY.CREATE, ACTIVITY.DELETE and ACTIVITY.RESTORE. Deleting a custom activity deactivates its templates
/// (their achievements hidden, its logs still counting); restoring it, or creating its name again, reactivates
/// exactly those and evaluates them at once.
extension ChangeDecider {
    mutating func createActivity(_ draft: ActivityDraft) throws(Undecided) -> ChangeOutcome {
        guard catalog.builtinActivity(named: draft.name) == nil else {
            throw .refused(.conflict("\"\(draft.name)\" is the name of a built-in activity"))
        }
        let key = draft.name.lowercased()
        if let existing = progress.customActivities.first(where: { $0.name.lowercased() == key }) {
            guard existing.deleted else { throw .refused(.conflict("an activity named \"\(existing.name)\" exists")) }
            // Creating the name of a deleted activity restores it: same id, its logs intact.
            return .activity(try restore(existing))
        }
        try requireRoomForActivity()
        let activity = Activity(id: evaluator.makeID(), name: draft.name, unit: draft.unit, icon: draft.icon, custom: true)
        progress.customActivities.append(activity)
        writes.activity = activity
        writes.reloadsSessions = true
        return .activity(activity)
    }

    mutating func setActivityDeleted(_ idOrName: String, deleted: Bool) throws(Undecided) -> ChangeOutcome {
        guard catalog.builtinActivity(named: idOrName) == nil else {
            throw .refused(.conflict("built-in activities cannot be deleted or restored"))
        }
        guard let activity = progress.customActivity(idOrName) else { throw .refused(.notFound(field: "id")) }
        guard activity.deleted != deleted else { return .activity(activity) }
        guard deleted else { return .activity(try restore(activity)) }
        for index in progress.templates.indices where progress.templates[index].activityIDs.contains(activity.id) && progress.templates[index].active {
            progress.templates[index].active = false
            progress.templates[index].inactiveReason = AchievementTemplate.activityDeleted
            changed(progress.templates[index])
        }
        let removed = setDeleted(activity, true)
        try remakeAchievements()
        return .activity(removed)
    }

    /// A restored activity counts against the limit of live custom activities like a new one.
    private mutating func restore(_ activity: Activity) throws(Undecided) -> Activity {
        try requireRoomForActivity()
        for index in progress.templates.indices
        where progress.templates[index].activityIDs.contains(activity.id) && !progress.templates[index].active
            && progress.templates[index].inactiveReason == AchievementTemplate.activityDeleted
            // A combo comes back when all its activities are live again.
            && progress.templates[index].activityIDs.allSatisfy({ $0 == activity.id || progress.liveActivity($0, catalog: catalog) != nil }) {
            progress.templates[index].active = true
            progress.templates[index].inactiveReason = nil
            changed(progress.templates[index])
        }
        let restored = setDeleted(activity, false)
        try remakeAchievements()
        settle(removesFacts: false)
        return restored
    }

    private mutating func setDeleted(_ activity: Activity, _ deleted: Bool) -> Activity {
        var changed = activity
        changed.deleted = deleted
        if let index = progress.customActivities.firstIndex(where: { $0.id == activity.id }) { progress.customActivities[index] = changed }
        writes.activity = changed
        writes.reloadsSessions = true
        return changed
    }

    private mutating func requireRoomForActivity() throws(Undecided) {
        let limit = rules.limits.customActivities
        if progress.customActivities.count(where: { !$0.deleted }) >= limit { throw .refused(.tooLarge(limit: limit, message: "at most \(limit) custom activities")) }
    }

    /// Records a template as changed now, for the commit.
    mutating func changed(_ template: AchievementTemplate) {
        guard let index = progress.templates.firstIndex(where: { $0.id == template.id }) else { return }
        progress.templates[index].updatedAt = now
        writes.templates.removeAll { $0.id == template.id }
        writes.templates.append(progress.templates[index])
        writes.reloadsSessions = true
    }
}
