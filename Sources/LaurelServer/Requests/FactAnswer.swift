import LaurelJSON
import LaurelProtocol

/// The answer LOG, LESSON.DONE and EVENT share: `{"log": FACT, "duplicate", "unlocked", "xp", "level",
/// "streak"}`. It is stored with the fact, so a retry with the same id gets the first answer back.
enum FactAnswer {
    static func json(fact: JSONValue, evaluation: Evaluation) -> JSONValue {
        [
            "log": fact, "duplicate": false, "unlocked": .array(evaluation.unlocked.map(JSONValue.object)),
            "xp": .int(evaluation.xp), "level": .int(evaluation.level), "streak": StreakRendering.json(evaluation.streak),
        ]
    }

    /// The first answer, marked as a duplicate.
    static func replay(_ stored: JSONValue?) throws -> JSONValue {
        guard case .object(var first)? = stored else { throw ProtocolError.internal("the first answer to this id was not kept") }
        first["duplicate"] = true
        return .object(first)
    }
}
