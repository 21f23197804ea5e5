import Foundation
import LaurelCore
import LaurelJSON
import LaurelProtocol
import LaurelStore

/// TEMPLATE.EXPORT and TEMPLATE.IMPORT: moving templates between accounts. Activities travel by name (protocol.md),
/// built-ins and custom ones alike (a custom activity cannot take a built-in's name), so an import maps them onto
/// the importing user's own activities and says what it could not place.
enum TemplateTransferRequests {
    static func export(_ request: TemplateExportRequest, in context: RequestContext) async throws -> RequestOutcome {
        let progress = try await context.sessionProgress(now: context.now).progress
        var templates = progress.templates
        if let ids = request.ids {
            for (offset, id) in ids.enumerated() where !templates.contains(where: { $0.id == id }) {
                throw ProtocolError.notFound(field: "ids[\(offset)]")
            }
            templates = templates.filter { ids.contains($0.id) }
        }
        let catalog = context.catalog
        let named = { (id: String) -> String in
            catalog.activities.first { $0.id == id }?.name ?? progress.customActivities.first { $0.id == id }?.name ?? id
        }
        let portable = templates.map { template in
            PortableTemplate(
                name: template.name, activity: named(template.activityID), type: template.type, tiers: template.tiers, active: template.active,
                combo: template.combo.map { ComboDraftPart(activity: named($0.activityID), amount: $0.amount) })
        }
        return RequestOutcome(.object(TemplateDocument.document(portable)))
    }

    static func importDocument(_ request: TemplateImportRequest, in context: RequestContext) async throws -> RequestOutcome {
        let entries = try TemplateDocument.entries(of: request.document).map { name, entry in
            (name: name, entry: entry.mapError { ImportProblem($0.message) })
        }
        let performed = try await context.write(.importTemplates(entries), now: context.now)
        guard case .imported(let created, let skipped) = performed.decision.outcome else { throw ProtocolError.internal() }
        var json = JSONWriter()
        json.beginObject()
        json.key("created")
        json.raw(TemplateRendering.json(created, of: performed.decision.progress, at: context.now).bytes)
        json.key("skipped")
        json.beginArray()
        for (name, reason) in skipped {
            json.beginObject()
            json.field("name", name)
            json.field("reason", reason)
            json.endObject()
        }
        json.endArray()
        json.endObject()
        return RequestOutcome(json: json, pushes: performed.pushes)
    }
}
