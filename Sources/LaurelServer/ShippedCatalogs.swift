import Foundation
import LaurelCore

/// The catalogs that ship with the server, and loading an operator's own catalog file.
public enum ShippedCatalogs {
    public static let names = ["standfit", "mindful"]

    /// A shipped catalog by name, or a catalog file by path.
    public static func load(_ nameOrPath: String) throws -> Catalog {
        let url: URL
        if names.contains(nameOrPath) {
            guard let shipped = Bundle.module.url(forResource: nameOrPath, withExtension: "json", subdirectory: "Catalogs") else {
                throw CatalogFileError(field: "(file)", reason: "the shipped catalog \(nameOrPath) is missing from this build")
            }
            url = shipped
        } else {
            url = URL(fileURLWithPath: nameOrPath)
        }
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw CatalogFileError(field: "(file)", reason: "cannot read \(url.path); shipped catalogs are \(names.joined(separator: ", "))")
        }
        return try CatalogFile.decode([UInt8](data))
    }
}
