import Foundation
import Testing

/// The deployment files of the repository these tests were built from, found from this source file's path.
enum RepositoryFiles {
    static let root: URL = {
        var directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while directory.path != "/" {
            if FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path) { return directory }
            directory.deleteLastPathComponent()
        }
        return directory
    }()

    static func url(_ relativePath: String) -> URL {
        root.appendingPathComponent(relativePath)
    }

    static func exists(_ relativePath: String) -> Bool {
        FileManager.default.fileExists(atPath: url(relativePath).path)
    }

    /// The file's text; records a failure (and throws) when it is missing.
    static func text(_ relativePath: String) throws -> String {
        let data = try #require(FileManager.default.contents(atPath: url(relativePath).path), "\(relativePath) is missing from \(root.path)")
        return try #require(String(data: data, encoding: .utf8), "\(relativePath) is not UTF-8")
    }
}
