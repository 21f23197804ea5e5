import Foundation
import LaurelCore
import LaurelJSON
import LaurelStore

/// What the engine keeps between evaluations in `laurel.progress.state`: the running accumulator (so a new log
/// costs one update, not a pass over the history) and the streak last shown (to tell what changed).
///
/// Stored as JSON through Codable, not LaurelJSON: the accumulator is a deep tree of structs whose encoding Codable
/// derives (a hand-written one would be hundreds of lines to keep in step), and it is read once per session and
/// written at checkpoints, never per request, so Foundation's encoder costs nothing that matters.
struct EngineState: Codable, Sendable {
    /// Bumped when the stored form changes, or what it counts (3: a repeated lesson makes its day active); an older
    /// form is rebuilt from the facts.
    static let currentVersion = 3

    var version = EngineState.currentVersion
    var accumulator: ProgressAccumulator
    var streak: StreakState
    /// The number (`laurel.logs.seq`) of the newest log the accumulator includes: the live logs after it are
    /// what a state of an older version lacks, when only LOGs came since (every other writer stores the state).
    var lastLogSeq: Int64 = 0

    init(accumulator: ProgressAccumulator, streak: StreakState, lastLogSeq: Int64) {
        self.accumulator = accumulator
        self.streak = streak
        self.lastLogSeq = lastLogSeq
    }

    static func decode(_ text: String?) -> EngineState? {
        guard let text, let state = try? JSONDecoder().decode(EngineState.self, from: Data(text.utf8)),
              state.version == currentVersion else { return nil }
        return state
    }

    func encoded() throws -> String {
        String(decoding: try JSONEncoder().encode(self), as: UTF8.self)
    }
}

/// What one evaluation found: the achievements unlocked now (in unlock order, as ACHIEVEMENT objects), the
/// figures after it, and the pushes it stored.
struct Evaluation: Sendable {
    var unlocked: [JSONObject]
    var xp: Int
    var level: Int
    var streak: StreakState
    var pushes: [StoredPush]
}
