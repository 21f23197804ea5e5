/// TEMPLATE.CREATE, TEMPLATE.UPDATE, TEMPLATE.DELETE and TEMPLATE.IMPORT (premium). A change is evaluated at
/// once, so a new or reactivated template can unlock in the same request.
extension ChangeDecider {
    mutating func createTemplates(_ draft: TemplateDraft) throws(Undecided) -> ChangeOutcome {
        try requirePremium()
        if draft.type == .combo { return try createCombo(draft) }
        let activities: [Activity]
        if let named = draft.activity {
            guard let activity = progress.liveActivity(named, catalog: catalog) else { throw .refused(.notFound(field: "activity")) }
            activities = [activity]
        } else {
            activities = progress.liveActivities(catalog: catalog)
        }
        try requireRoom(for: activities.count, installing: draft.listingID)
        let created = activities.map { activity in
            let type = draft.type.rawValue
            let name = draft.name ?? "\(activity.name) \(type.prefix(1).uppercased())\(type.dropFirst())"
            return add(name: name, activityID: activity.id, type: draft.type, tiers: draft.tiers, active: true, listingID: draft.listingID)
        }
        writes.installedListing = draft.listingID
        try remakeAchievements()
        settle(removesFacts: false)
        return .templates(created)
    }

    /// New templates fit the user's limit, and an install is not of a listing the user holds a copy of.
    private mutating func requireRoom(for count: Int, installing listing: String?) throws(Undecided) {
        if let listing, progress.templates.contains(where: { $0.listingID == listing }) {
            throw .refused(.conflict("you hold a copy of this listing already"))
        }
        let limit = rules.limits.templates
        if progress.templates.count + count > limit {
            throw .refused(.tooLarge(limit: limit, message: "at most \(limit) templates"))
        }
    }

    /// A combo template: 2 to 5 distinct live activities, each with its daily amount.
    private mutating func createCombo(_ draft: TemplateDraft) throws(Undecided) -> ChangeOutcome {
        var parts: [ComboPart] = []
        for part in draft.combo {
            guard let activity = progress.liveActivity(part.activity, catalog: catalog) else { throw .refused(.notFound(field: "combo")) }
            parts.append(ComboPart(activityID: activity.id, amount: part.amount))
        }
        guard ComboPart.activities.contains(parts.count), Set(parts.map(\.activityID)).count == parts.count,
              parts.allSatisfy({ ComboPart.amounts.contains($0.amount) }) else {
            throw .refused(.invalidArgument(field: "combo", message: "a combo names 2 to 5 different activities, each with an amount of 1 to 100000"))
        }
        try requireRoom(for: 1, installing: draft.listingID)
        let names = parts.map { progress.liveActivity($0.activityID, catalog: catalog)?.name ?? $0.activityID }
        let template = add(
            name: draft.name ?? names.joined(separator: " + "), activityID: parts[0].activityID, type: .combo, tiers: draft.tiers, active: true,
            listingID: draft.listingID, combo: parts)
        writes.installedListing = draft.listingID
        try remakeAchievements()
        settle(removesFacts: false)
        return .templates([template])
    }

    mutating func updateTemplate(_ change: TemplateChange) throws(Undecided) -> ChangeOutcome {
        guard var template = progress.templates.first(where: { $0.id == change.id }) else { throw .refused(.notFound(field: "id")) }
        try requirePremium()
        if let name = change.name { template.name = name }
        if let tiers = change.tiers {
            if let problem = TemplateTierRules.problem(type: template.type, tiers: tiers) {
                throw .refused(.invalidArgument(field: problem.field, message: problem.message))
            }
            template.tiers = tiers
        }
        switch change.active {
        case true?:
            if template.inactiveReason == AchievementTemplate.activityDeleted,
               template.activityIDs.contains(where: { progress.liveActivity($0, catalog: catalog) == nil }) {
                throw .refused(.conflict("the template's activity is deleted; restore the activity first"))
            }
            (template.active, template.inactiveReason) = (true, nil)
        case false?:
            if template.active { (template.active, template.inactiveReason) = (false, AchievementTemplate.deactivated) }
        case nil:
            break
        }
        if let index = progress.templates.firstIndex(where: { $0.id == template.id }) { progress.templates[index] = template }
        changed(template)
        try remakeAchievements()
        settle(removesFacts: false)
        return .templates(progress.templates.filter { $0.id == template.id })
    }

    /// Deleting a template removes it and its achievements, earned ones included (rules.md).
    mutating func deleteTemplate(_ id: String) throws(Undecided) -> ChangeOutcome {
        guard let template = progress.templates.first(where: { $0.id == id }) else { throw .refused(.notFound(field: "id")) }
        try requirePremium()
        let prefix = AchievementTemplate.achievementIDPrefix(template: template.id)
        progress.unlocks = progress.unlocks.filter { !$0.key.hasPrefix(prefix) }
        progress.templates.removeAll { $0.id == id }
        writes.deletedTemplates.append(id)
        writes.deletedUnlockPrefixes.append(prefix)
        writes.reloadsSessions = true
        try remakeAchievements()
        settle(removesFacts: false)
        return .templateDeleted(id: id, removedAchievements: template.tiers.count)
    }

    /// Each entry on its own: one that cannot be placed (no such activity, tiers that do not fit the type, the
    /// limit reached) is skipped with the reason, the others are created.
    mutating func importTemplates(_ entries: [(name: String, entry: Result<PortableTemplate, ImportProblem>)]) throws(Undecided) -> ChangeOutcome {
        try requirePremium()
        let limit = rules.limits.templates
        var created: [AchievementTemplate] = []
        var skipped: [(name: String, reason: String)] = []
        for (name, entry) in entries {
            let template: PortableTemplate
            switch entry {
            case .success(let read): template = read
            case .failure(let problem):
                skipped.append((name, problem.message))
                continue
            }
            guard let activity = progress.liveActivity(template.activity, catalog: catalog) else {
                skipped.append((name, "no activity named \"\(template.activity)\""))
                continue
            }
            var combo: [ComboPart] = []
            for part in template.combo {
                guard let matched = progress.liveActivity(part.activity, catalog: catalog) else { break }
                combo.append(ComboPart(activityID: matched.id, amount: part.amount))
            }
            if combo.count != template.combo.count || Set(combo.map(\.activityID)).count != combo.count {
                skipped.append((name, "the combo's activities are not all this account's, or not all different"))
                continue
            }
            if let problem = TemplateTierRules.problem(type: template.type, tiers: template.tiers) {
                skipped.append((name, problem.message))
                continue
            }
            guard progress.templates.count < limit else {
                skipped.append((name, "the limit of \(limit) templates is reached"))
                continue
            }
            created.append(add(
                name: template.name, activityID: activity.id, type: template.type, tiers: template.tiers, active: template.active, combo: combo))
        }
        try remakeAchievements()
        settle(removesFacts: false)
        return .imported(created: created, skipped: skipped)
    }

    private mutating func add(
        name: String, activityID: String, type: TemplateType, tiers: [TemplateTier], active: Bool, listingID: String? = nil,
        combo: [ComboPart] = []
    ) -> AchievementTemplate {
        let template = AchievementTemplate(
            id: evaluator.makeID(), name: name, activityID: activityID, type: type, tiers: tiers, active: active,
            inactiveReason: active ? nil : AchievementTemplate.deactivated, createdAt: now, updatedAt: now, listingID: listingID, combo: combo)
        progress.templates.append(template)
        writes.templates.append(template)
        writes.reloadsSessions = true
        return template
    }
}
