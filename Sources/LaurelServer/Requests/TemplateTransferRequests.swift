import Foundation
import LaurelCore
import LaurelJSON
import LaurelProtocol
import LaurelStore

/// TEMPLATE.EXPORT and TEMPLATE.IMPORT: moving templates between accounts. Activities travel by name (built-ins
/// by id), so an import maps them onto the importing user's own activities and says what it could not place.
enum TemplateTransferRequests {
    static func export(_ request: TemplateExportRequest, in context: RequestContext) async throws -> RequestOutcome {
        let ids = request.ids
        let catalog = context.catalog
        let value = try await context.read { records -> JSONValue in
            var templates = try records.templates()
            if let ids {
                for (offset, id) in ids.enumerated() where !templates.contains(where: { $0.id == id }) {
                    throw ProtocolError.notFound(field: "ids[\(offset)]")
                }
                templates = templates.filter { ids.contains($0.id) }
            }
            let custom = Dictionary(try records.customActivities(includeDeleted: true).map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a })
            let portable = templates.map { template in
                let activity = catalog.activities.contains { $0.id == template.activityID } ? template.activityID : custom[template.activityID] ?? template.activityID
                return PortableTemplate(name: template.name, activity: activity, type: template.type, tiers: template.tiers, active: template.active)
            }
            return .object(TemplateDocument.document(portable))
        }
        return RequestOutcome(value)
    }

    static func importDocument(_ request: TemplateImportRequest, in context: RequestContext) async throws -> RequestOutcome {
        let document = request.document
        let entries = try TemplateDocument.entries(of: document)
        let (catalog, engine) = (context.catalog, context.engine)
        let limit = context.services.configuration.limits.templates
        let (value, pushes) = try await context.transaction { records -> (JSONValue, [StoredPush]) in
            try PremiumGate.requireTemplates(records)
            var count = try records.templates().count
            var created: [AchievementTemplate] = []
            var skipped: [JSONValue] = []
            for (name, entry) in entries {
                func skip(_ reason: String) { skipped.append(["name": .string(name), "reason": .string(reason)]) }
                let template: PortableTemplate
                switch entry {
                case .success(let read): template = read
                case .failure(let error):
                    skip(error.message)
                    continue
                }
                guard let activity = try ActivityLookup.live(template.activity, catalog: catalog, in: records) else {
                    skip("no activity named \"\(template.activity)\"")
                    continue
                }
                if let problem = TemplateTierRules.problem(type: template.type, tiers: template.tiers) {
                    skip(problem.message)
                    continue
                }
                guard count < limit else {
                    skip("the limit of \(limit) templates is reached")
                    continue
                }
                var inserted = try records.insertTemplate(name: template.name, activityID: activity.id, type: template.type, tiers: template.tiers)
                if !template.active {
                    (inserted.active, inserted.inactiveReason) = (false, AchievementTemplate.deactivated)
                    inserted = try records.updateTemplate(inserted)
                }
                created.append(inserted)
                count += 1
            }
            let now = Date()
            let evaluation = try engine.evaluate(.catchUp, in: records, now: now)
            let snapshot = try engine.snapshot(in: records, now: now)
            let value: JSONValue = [
                "created": .array(created.map { TemplateRendering.json($0, snapshot: snapshot) }), "skipped": .array(skipped),
            ]
            return (value, evaluation.pushes)
        }
        return RequestOutcome(value, pushes: pushes)
    }
}
