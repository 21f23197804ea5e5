import Foundation
import Testing

/// A copy of the shipped standfit catalog with changes of a test's own, written to a temporary file whose path the
/// server and `laurel catalog preview` take as `--catalog`.
enum CatalogVariant {
    /// Writes standfit named `name`, its activities and achievements passed through `edit`; returns the file's path.
    static func standfit(
        named name: String, edit: (_ activities: inout [[String: Any]], _ achievements: inout [[String: Any]]) -> Void
    ) throws -> String {
        let standfit = RepositoryRoot.url().appendingPathComponent("Sources/LaurelServer/Catalogs/standfit.json")
        var document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: standfit)) as? [String: Any])
        var activities = try #require(document["activities"] as? [[String: Any]])
        var achievements = try #require(document["achievements"] as? [[String: Any]])
        edit(&activities, &achievements)
        document["activities"] = activities
        document["achievements"] = achievements
        document["name"] = name
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("catalog-\(UUID().uuidString).json")
        try JSONSerialization.data(withJSONObject: document).write(to: path)
        return path.path
    }
}
