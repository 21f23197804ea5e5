import Foundation
import Synchronization

/// Where the outbox keeps its entries between being recorded and being acknowledged. An app that must not lose
/// what the user logged offline across launches passes a ``FileOutboxStore``.
public protocol OutboxStore: Sendable {
    func load() throws -> [OutboxEntry]
    /// Keeps `entries`, oldest first, instead of what was kept before.
    func save(_ entries: [OutboxEntry]) throws
}

/// An outbox kept in memory: what the app logged offline survives reconnects, not a restart of the app.
public final class InMemoryOutboxStore: OutboxStore {
    private let entries = Mutex<[OutboxEntry]>([])

    public init() {}

    public func load() throws -> [OutboxEntry] { entries.withLock { $0 } }

    public func save(_ entries: [OutboxEntry]) throws { self.entries.withLock { $0 = entries } }
}

/// An outbox kept in a JSON file the app chooses, written whole and atomically on every change, so a crash leaves
/// either the old or the new entries, never half of them.
public struct FileOutboxStore: OutboxStore {
    public let url: URL

    public init(url: URL) {
        self.url = url
    }

    public func load() throws -> [OutboxEntry] {
        guard FileManager.default.fileExists(atPath: url.path) else { return [] }
        return try WireCoding.decoder().decode([OutboxEntry].self, from: Data(contentsOf: url))
    }

    public func save(_ entries: [OutboxEntry]) throws {
        try WireCoding.encoder().encode(entries).write(to: url, options: .atomic)
    }
}
