import Foundation
import LaurelCore
import Testing

/// The catalog files the server ships, read straight from the repository (the core tests have no access to the
/// server's bundle), so that what is tested is exactly what is deployed.
enum ShippedCatalogFiles {
    /// The repository root: this file lives in `Tests/LaurelCoreTests/Catalog/`.
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func url(_ name: String) -> URL {
        repositoryRoot.appendingPathComponent("Sources/LaurelServer/Catalogs/\(name).json")
    }

    static func load(_ name: String) throws -> Catalog {
        let data = try #require(FileManager.default.contents(atPath: url(name).path), "cannot read \(url(name).path)")
        return try CatalogFile.decode([UInt8](data))
    }

    static func standfit() throws -> Catalog { try load("standfit") }
    static func mindful() throws -> Catalog { try load("mindful") }
}
