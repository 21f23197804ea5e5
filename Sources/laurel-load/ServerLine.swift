import LaurelJSON
import NIOCore

/// One line from the server, split into its tag, its kind (`OK`, `ERR`, or a push kind such as `UNLOCK`)
/// and the JSON after them, which is parsed only when someone asks for it.
struct ServerLine {
    let tag: Substring
    let kind: Substring
    let payload: Substring?

    init(_ buffer: ByteBuffer) {
        self.init(String(buffer: buffer))
    }

    init(_ text: String) {
        let parts = text.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        tag = parts.first ?? ""
        kind = parts.count > 1 ? parts[1] : ""
        payload = parts.count > 2 ? parts[2] : nil
    }

    /// An untagged line: a push, or an error that belongs to no request.
    var isUntagged: Bool { tag == "*" }

    var isOK: Bool { kind == "OK" }

    var json: JSONValue? {
        guard let payload else { return nil }
        return try? JSONParser.parse(Array(payload.utf8))
    }

    /// The error code of an `ERR` line.
    var errorCode: String {
        json?["code"]?.stringValue ?? "unreadable_error"
    }

    /// The sequence number of a LOG request's response, whose tag is `l` and the number.
    var logSequence: Int? {
        guard tag.first == "l" else { return nil }
        return Int(tag.dropFirst())
    }
}
