import LaurelJSON
import LaurelProtocol

extension LineClient.Line {
    /// The `field` detail of an error answer (`invalid_argument`, `not_found`).
    var errorField: String? { kind == "ERR" ? object["field"]?.stringValue : nil }

    /// The `OK` value as an object, or an empty one.
    var okObject: JSONObject { kind == "OK" ? object : [:] }

    /// The `OK` value as an array, or an empty one.
    var okArray: [JSONValue] { kind == "OK" ? value?.arrayValue ?? [] : [] }

    /// A push the server stores and numbers (`UNLOCK`, `LEVEL`, `STREAK`, ...): any LOG may be followed by some,
    /// so tests about other lines look past them.
    var isStoredPush: Bool { isPush && object["seq"] != nil }
}

extension [LineClient.Line] {
    var withoutStoredPushes: [LineClient.Line] { filter { !$0.isStoredPush } }
}

extension LineClient {
    /// Sends PING and reports whether it was answered `OK`: the connection still works.
    func pingSucceeds() async throws -> Bool {
        try await request("PING").kind == "OK"
    }

    /// The next line that is not a stored push: a response, an untagged `ERR`, or a `BYE`.
    func nextAnswer(timeout: Duration = .seconds(10)) async throws -> Line {
        while true {
            let line = try await nextLine(timeout: timeout)
            if !line.isStoredPush { return line }
        }
    }
}
