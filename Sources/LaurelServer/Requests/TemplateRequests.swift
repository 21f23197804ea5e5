import Foundation
import LaurelCore
import LaurelJSON
import LaurelProtocol
import LaurelStore

/// PRESETS, TEMPLATES, TEMPLATE.CREATE, TEMPLATE.UPDATE and TEMPLATE.DELETE. Changing templates needs premium;
/// a refusal changes nothing. A change is evaluated at once, so a new or reactivated template can unlock in the same
/// request.
enum TemplateRequests {
    static func presets(in context: RequestContext) async throws -> RequestOutcome {
        RequestOutcome(.array(context.catalog.presets.map { .object($0.json) }))
    }

    static func list(_ filter: TemplatesRequest, in context: RequestContext) async throws -> RequestOutcome {
        let progress = try await context.sessionProgress(now: context.now).progress
        var templates = progress.templates
        if let activity = filter.activity {
            guard let found = context.catalog.builtinActivity(named: activity) ?? progress.customActivity(activity) else {
                throw ProtocolError.notFound(field: "activity")
            }
            templates = templates.filter { $0.activityID == found.id }
        }
        return RequestOutcome(json: TemplateRendering.json(templates, of: progress, at: context.now))
    }

    static func create(_ request: TemplateCreateRequest, in context: RequestContext) async throws -> RequestOutcome {
        let (type, tiers) = try typeAndTiers(request, catalog: context.catalog)
        let draft: TemplateDraft = switch request.activity {
        case .allActivities: TemplateDraft(activity: nil, type: type, tiers: tiers, name: request.name)
        case .activity(let named): TemplateDraft(activity: named, type: type, tiers: tiers, name: request.name)
        case .combo(let parts): TemplateDraft(activity: nil, type: type, tiers: tiers, name: request.name, combo: parts)
        }
        let performed = try await context.write(.createTemplates(draft), now: context.now)
        guard case .templates(let created) = performed.decision.outcome else { throw ProtocolError.internal() }
        let single = request.activity != .allActivities
        return RequestOutcome(json: TemplateRendering.json(created, of: performed.decision.progress, at: context.now, single: single), pushes: performed.pushes)
    }

    static func update(_ request: TemplateUpdateRequest, in context: RequestContext) async throws -> RequestOutcome {
        let change = TemplateChange(id: request.id, name: request.name, tiers: request.tiers, active: request.active)
        let performed = try await context.write(.updateTemplate(change), now: context.now)
        guard case .templates(let updated) = performed.decision.outcome else { throw ProtocolError.internal() }
        return RequestOutcome(json: TemplateRendering.json(updated, of: performed.decision.progress, at: context.now, single: true), pushes: performed.pushes)
    }

    static func delete(_ request: IDRequest, in context: RequestContext) async throws -> RequestOutcome {
        let performed = try await context.write(.deleteTemplate(id: request.id), now: context.now)
        guard case .templateDeleted(let id, let removed) = performed.decision.outcome else { throw ProtocolError.internal() }
        return RequestOutcome(["id": .string(id), "removed_achievements": .int(removed)], pushes: performed.pushes)
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
