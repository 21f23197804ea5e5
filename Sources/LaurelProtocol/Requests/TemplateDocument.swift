import LaurelCore
import LaurelJSON

/// The portable document `{"laurel_templates": 1, "templates": [...]}`.
public enum TemplateDocument {
    public static let formatVersion = 1
    /// The most templates one document may carry.
    public static let maximumTemplates = 1000

    /// Each entry of the document read on its own, so one bad entry does not spoil the others; an entry that
    /// cannot be used comes back as the error that says why. A document of the wrong shape is refused whole.
    public static func entries(of document: JSONObject) throws(ProtocolError) -> [(name: String, entry: Result<PortableTemplate, ProtocolError>)] {
        guard document["laurel_templates"]?.intValue == formatVersion else {
            throw .invalidArgument(field: "document.laurel_templates", message: "document.laurel_templates must be \(formatVersion)")
        }
        guard case .array(let list)? = document["templates"] else {
            throw .invalidArgument(field: "document.templates", message: "document.templates must be a list")
        }
        guard list.count <= maximumTemplates else { throw .tooLarge(limit: maximumTemplates, field: "document.templates") }
        return list.enumerated().map { offset, value in
            let name = value.objectValue?["name"]?.stringValue ?? "templates[\(offset)]"
            return (name, Result { () throws(ProtocolError) -> PortableTemplate in
                guard case .object(let object) = value else {
                    throw .invalidArgument(field: "templates[\(offset)]", message: "each template must be an object")
                }
                let reader = try ArgumentReader(
                    object, fields: ["name", "activity", "type", "tiers", "active", "combo"], path: "templates[\(offset)].")
                let type = try reader.required(reader.choice("type", TemplateType.self), "type")
                let combo = type == .combo ? try reader.combo("combo") : []
                let activity: String
                if let first = combo.first {
                    activity = first.activity
                } else {
                    activity = try reader.required(reader.string("activity", .activityReference), "activity")
                }
                return PortableTemplate(
                    name: try reader.required(reader.string("name", .name), "name"),
                    activity: activity,
                    type: type,
                    tiers: try reader.required(reader.tiers("tiers"), "tiers"),
                    active: try reader.bool("active") ?? true,
                    combo: combo)
            })
        }
    }

    public static func document(_ templates: [PortableTemplate]) -> JSONObject {
        [
            "laurel_templates": .int(formatVersion),
            "templates": .array(templates.map { template in
                var entry: JSONObject = [
                    "name": .string(template.name), "activity": .string(template.activity), "type": .string(template.type.rawValue),
                    "tiers": .array(template.tiers.map { .object($0.json) }), "active": .bool(template.active),
                ]
                if !template.combo.isEmpty {
                    entry["activity"] = nil
                    entry["combo"] = .array(template.combo.map { ["activity": .string($0.activity), "amount": .int($0.amount)] })
                }
                return .object(entry)
            }),
        ]
    }
}
