import Foundation
import LaurelCore

/// A user's running state as of one version, with the newest facts it counts: what a session stores when it ends
/// (and a write that recomputed the state stores with itself), so that the next session adds the facts stored
/// after it instead of reading every fact.
///
/// The state travels as JSON through Codable: the accumulator is a deep tree of structs whose encoding Codable
/// derives, and it is written when a session ends or a write recomputes it, never per LOG.
public struct ProgressSnapshot: Sendable {
    /// Bumped when the stored form changes, or what it counts; an older form is rebuilt from the facts.
    public static let formatVersion = 6

    public var version: Int64
    public var seqs: FactSeqs
    public var accumulator: ProgressAccumulator

    public init(version: Int64, seqs: FactSeqs, accumulator: ProgressAccumulator) {
        self.version = version
        self.seqs = seqs
        self.accumulator = accumulator
    }

    private struct Stored: Codable {
        var format: Int
        var accumulator: ProgressAccumulator
    }

    /// The state as stored (JSON text).
    public func encodedState() throws -> String {
        try Self.encodedState(of: accumulator)
    }

    /// A running state as stored (JSON text).
    public static func encodedState(of accumulator: ProgressAccumulator) throws -> String {
        String(decoding: try JSONEncoder().encode(Stored(format: formatVersion, accumulator: accumulator)), as: UTF8.self)
    }

    /// The accumulator of a stored state; nil when it is of another format (it is then rebuilt from the facts).
    public static func decodeState(_ text: String) -> ProgressAccumulator? {
        guard let stored = try? JSONDecoder().decode(Stored.self, from: Data(text.utf8)), stored.format == formatVersion else { return nil }
        return stored.accumulator
    }
}
