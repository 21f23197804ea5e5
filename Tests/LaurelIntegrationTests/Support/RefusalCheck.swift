import LaurelCore
import LaurelJSON
import LaurelPostgres
import LaurelProtocol
import Testing

/// One request the server must refuse, with the code and `field` it must refuse it with.
struct Refusal: Sendable, CustomStringConvertible {
    let verb: String
    let argument: JSONObject?
    let code: String
    let field: String?
    let because: String

    var description: String { "\(verb) \(argument.map { JSONValue.object($0).serialized() } ?? "") (\(because))" }
}

extension LineClient {
    /// Sends each refusal's request and checks its answer, that the connection still answers a PING afterwards,
    /// and that `storedRows` (the rows the request would have added) did not change.
    func expectRefusals(
        _ refusals: [Refusal], storedRows: () async throws -> Int, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        for refusal in refusals {
            let before = try await storedRows()
            let answer = try await request(refusal.verb, refusal.argument)
            #expect(answer.errorCode == refusal.code, "\(refusal): \(answer)", sourceLocation: sourceLocation)
            #expect(answer.errorField == refusal.field, "\(refusal): \(answer)", sourceLocation: sourceLocation)
            #expect(try await pingSucceeds(), "the connection stopped answering after \(refusal)", sourceLocation: sourceLocation)
            #expect(try await storedRows() == before, "\(refusal) stored something", sourceLocation: sourceLocation)
        }
    }
}
