import Foundation
import LaurelCore
import LaurelJSON
import LaurelProtocol
import LaurelStore

/// PRESETS, TEMPLATES, TEMPLATE.CREATE, TEMPLATE.UPDATE and TEMPLATE.DELETE. Changing templates needs premium
/// (see `PremiumGate`); a refusal changes nothing. A change is evaluated at once, so a new or reactivated
/// template can unlock in the same request.
enum TemplateRequests {
    static func presets(in context: RequestContext) async throws -> RequestOutcome {
        RequestOutcome(.array(context.catalog.presets.map { .object($0.json) }))
    }

    static func list(_ filter: TemplatesRequest, in context: RequestContext) async throws -> RequestOutcome {
        let activity = filter.activity
        let (catalog, engine) = (context.catalog, context.engine)
        let value = try await context.read { records -> JSONValue in
            var activityID: String?
            if let activity {
                guard let found = try catalog.builtinActivity(named: activity) ?? ActivityLookup.custom(activity, in: records) else {
                    throw ProtocolError.notFound(field: "activity")
                }
                activityID = found.id
            }
            let snapshot = try engine.snapshot(in: records, now: Date())
            let templates = try records.templates().filter { activityID == nil || $0.activityID == activityID }
            return .array(templates.map { TemplateRendering.json($0, snapshot: snapshot) })
        }
        return RequestOutcome(value)
    }

    static func create(_ request: TemplateCreateRequest, in context: RequestContext) async throws -> RequestOutcome {
        let (type, tiers) = try typeAndTiers(request, catalog: context.catalog)
        let (catalog, engine) = (context.catalog, context.engine)
        let limit = context.services.configuration.limits.templates
        let (value, pushes) = try await context.transaction { records -> (JSONValue, [StoredPush]) in
            try PremiumGate.requireTemplates(records)
            let activities: [Activity]
            switch request.activity {
            case .allActivities:
                activities = catalog.activities + (try records.customActivities(includeDeleted: false))
            case .activity(let named):
                guard let activity = try ActivityLookup.live(named, catalog: catalog, in: records) else {
                    throw ProtocolError.notFound(field: "activity")
                }
                activities = [activity]
            }
            if try records.templates().count + activities.count > limit {
                throw ProtocolError.tooLarge(limit: limit, message: "at most \(limit) templates")
            }
            let created = try activities.map { activity in
                let name = request.name ?? "\(activity.name) \(type.rawValue.prefix(1).uppercased())\(type.rawValue.dropFirst())"
                return try records.insertTemplate(name: name, activityID: activity.id, type: type, tiers: tiers)
            }
            let now = Date()
            let evaluation = try engine.evaluate(.catchUp, in: records, now: now)
            let snapshot = try engine.snapshot(in: records, now: now)
            let rendered = created.map { TemplateRendering.json($0, snapshot: snapshot) }
            if case .allActivities = request.activity { return (.array(rendered), evaluation.pushes) }
            return (rendered[0], evaluation.pushes)
        }
        return RequestOutcome(value, pushes: pushes)
    }

    static func update(_ request: TemplateUpdateRequest, in context: RequestContext) async throws -> RequestOutcome {
        let (catalog, engine) = (context.catalog, context.engine)
        let (value, pushes) = try await context.transaction { records -> (JSONValue, [StoredPush]) in
            guard var template = try records.template(id: request.id) else { throw ProtocolError.notFound(field: "id") }
            try PremiumGate.requireTemplates(records)
            if let name = request.name { template.name = name }
            if let tiers = request.tiers {
                if let problem = TemplateTierRules.problem(type: template.type, tiers: tiers) {
                    throw ProtocolError.invalidArgument(field: problem.field, message: problem.message)
                }
                template.tiers = tiers
            }
            switch request.active {
            case true?:
                if template.inactiveReason == AchievementTemplate.activityDeleted,
                   try ActivityLookup.live(template.activityID, catalog: catalog, in: records) == nil {
                    throw ProtocolError.conflict("the template's activity is deleted; restore the activity first")
                }
                (template.active, template.inactiveReason) = (true, nil)
            case false?:
                if template.active { (template.active, template.inactiveReason) = (false, AchievementTemplate.deactivated) }
            case nil:
                break
            }
            let saved = try records.updateTemplate(template)
            let now = Date()
            let evaluation = try engine.evaluate(.catchUp, in: records, now: now)
            return (TemplateRendering.json(saved, snapshot: try engine.snapshot(in: records, now: now)), evaluation.pushes)
        }
        return RequestOutcome(value, pushes: pushes)
    }

    static func delete(_ request: IDRequest, in context: RequestContext) async throws -> RequestOutcome {
        let id = request.id
        let engine = context.engine
        let (value, pushes) = try await context.transaction { records -> (JSONValue, [StoredPush]) in
            guard let template = try records.template(id: id) else { throw ProtocolError.notFound(field: "id") }
            try PremiumGate.requireTemplates(records)
            // Deleting a template removes its achievements, earned ones included (rules.md).
            _ = try records.deleteUnlocks(withPrefix: AchievementTemplate.achievementIDPrefix(template: template.id))
            try records.deleteTemplate(id: template.id)
            let evaluation = try engine.evaluate(.catchUp, in: records, now: Date())
            return (["id": .string(template.id), "removed_achievements": .int(template.tiers.count)], evaluation.pushes)
        }
        return RequestOutcome(value, pushes: pushes)
    }

    /// The type and tiers a TEMPLATE.CREATE asks for: given, from one of the catalog's presets, or the type's defaults.
    static func typeAndTiers(_ request: TemplateCreateRequest, catalog: Catalog) throws -> (TemplateType, [TemplateTier]) {
        var preset: TemplatePreset?
        if let id = request.preset {
            guard let found = catalog.preset(id) else { throw ProtocolError.notFound(field: "preset") }
            preset = found
        }
        guard let type = request.type ?? preset?.type else {
            throw ProtocolError.invalidArgument(field: "type", message: "type is required unless a preset is given")
        }
        if let preset, type != preset.type {
            throw ProtocolError.invalidArgument(field: "type", message: "the preset \(preset.id) is of type \(preset.type.rawValue)")
        }
        let tiers = request.tiers ?? preset?.tiers ?? TemplateDefaults.tiers(for: type)
        if let problem = TemplateTierRules.problem(type: type, tiers: tiers) {
            throw ProtocolError.invalidArgument(field: problem.field, message: problem.message)
        }
        return (type, tiers)
    }
}
