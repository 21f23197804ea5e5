import Foundation
import LaurelCore
import LaurelJSON

/// A user's running state as of one version, with the newest facts it counts: what a session stores when it ends
/// (and a write that recomputed the state stores with itself), so that the next session adds the facts stored
/// after it instead of reading every fact.
///
/// The state travels as compact JSON that the accumulator writes and reads field by field
/// (``ProgressAccumulator/writeSnapshot(into:)``): every session that starts reads one and every session that ends
/// writes one, so reconnecting users cost what reading it costs.
public struct ProgressSnapshot: Sendable {
    /// Bumped when the stored form changes, or what it counts; an older form is rebuilt from the facts.
    public static let formatVersion = 7

    public var version: Int64
    public var seqs: FactSeqs
    public var accumulator: ProgressAccumulator

    public init(version: Int64, seqs: FactSeqs, accumulator: ProgressAccumulator) {
        self.version = version
        self.seqs = seqs
        self.accumulator = accumulator
    }

    /// The state as stored (JSON text).
    public func encodedState() -> String {
        Self.encodedState(of: accumulator)
    }

    /// A running state as stored (JSON text): `{"format": N, "state": {...}}`.
    public static func encodedState(of accumulator: ProgressAccumulator) -> String {
        var json = JSONWriter(capacity: 4096)
        json.beginObject()
        json.field("format", formatVersion)
        json.key("state")
        accumulator.writeSnapshot(into: &json)
        json.endObject()
        return json.text
    }

    /// The accumulator of a stored state; nil when it is of another format (it is then rebuilt from the facts).
    public static func decodeState(_ text: String) -> ProgressAccumulator? {
        guard let stored = try? JSONParser.parse(text), stored["format"]?.intValue == formatVersion, let state = stored["state"] else { return nil }
        return ProgressAccumulator(snapshot: state)
    }
}
