import LaurelJSON

/// Reads one template preset of a catalog file: `{"id", "name", "type", "tiers", "description"}`, the object
/// PRESETS answers. The tiers follow the same rules as a template's (`TemplateTierRules`).
enum CatalogPresetEntry {
    static func decode(_ value: JSONValue, at path: String) throws(CatalogFileError) -> TemplatePreset {
        guard let object = value.objectValue else { throw CatalogFileError(field: path, reason: "must be an object") }
        let (id, name, description) = (
            try text(object, "id", at: path), try text(object, "name", at: path), try text(object, "description", at: path)
        )
        let typeName = try text(object, "type", at: path)
        guard let type = TemplateType(rawValue: typeName) else {
            throw CatalogFileError(
                field: "\(path).type", reason: "must be one of \(TemplateType.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        guard let list = object["tiers"]?.arrayValue else { throw CatalogFileError(field: "\(path).tiers", reason: "must be an array") }
        var tiers: [TemplateTier] = []
        for (index, element) in list.enumerated() {
            guard let tierObject = element.objectValue, let tier = TemplateTier(json: tierObject) else {
                throw CatalogFileError(field: "\(path).tiers[\(index)]", reason: "must be an object with a tier name and an integer target")
            }
            tiers.append(tier)
        }
        if let problem = TemplateTierRules.listProblem(type: type, tiers: tiers) {
            throw CatalogFileError(field: "\(path).\(problem.field)", reason: problem.message)
        }
        return TemplatePreset(id: id, name: name, type: type, tiers: tiers, description: description)
    }

    private static func text(_ object: JSONObject, _ key: String, at path: String) throws(CatalogFileError) -> String {
        guard let value = object[key]?.stringValue, !value.isEmpty else {
            throw CatalogFileError(field: "\(path).\(key)", reason: "must be a non-empty string")
        }
        return value
    }
}
