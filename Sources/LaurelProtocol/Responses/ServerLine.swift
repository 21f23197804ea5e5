import LaurelJSON
import NIOCore

/// One line as a client reads it from the server: the tag (`*` for pushes and errors that belong to no request),
/// the kind (`OK`, `ERR`, or a push kind such as `UNLOCK`), and the JSON after them, parsed only when asked for.
/// The load client and the tests read the server with it; ``OutboundLine`` is the server's side of the same lines.
public struct ServerLine: Sendable, CustomStringConvertible {
    /// The line as received, without its line ending.
    public let raw: String
    public let tag: String
    public let kind: String
    /// The text after the kind, if any.
    public let payload: Substring?

    public init(_ buffer: ByteBuffer) {
        self.init(String(buffer: buffer))
    }

    public init(_ text: String) {
        raw = text
        // The two spaces are found among the UTF-8 bytes: splitting by `Character` would walk grapheme clusters,
        // which a client reading thousands of answers a second pays for on every byte.
        let bytes = text.utf8
        guard let firstSpace = bytes.firstIndex(of: UInt8(ascii: " ")) else {
            tag = text
            kind = ""
            payload = nil
            return
        }
        tag = String(text[..<firstSpace])
        let kindStart = bytes.index(after: firstSpace)
        guard let secondSpace = bytes[kindStart...].firstIndex(of: UInt8(ascii: " ")) else {
            kind = String(text[kindStart...])
            payload = nil
            return
        }
        kind = String(text[kindStart..<secondSpace])
        payload = text[bytes.index(after: secondSpace)...]
    }

    public var description: String { raw }

    /// An untagged line: a push, or an error that belongs to no request.
    public var isUntagged: Bool { tag == "*" }
    /// A push (`* KIND {...}`), not an untagged error.
    public var isPush: Bool { tag == "*" && kind != "ERR" }
    public var isOK: Bool { kind == "OK" }

    /// The JSON after the kind; nil when there is none or it does not parse.
    public var value: JSONValue? {
        guard let payload else { return nil }
        // Parsed where the line holds it: an array of the payload's bytes was copied a byte at a time.
        return try? JSONParser.parse(payload.utf8)
    }

    /// Runs `body` with the UTF-8 of the text after the kind, where the line holds it; nil when there is none.
    public func withPayloadUTF8<T>(_ body: (UnsafeBufferPointer<UInt8>) -> T) -> T? {
        guard let payload else { return nil }
        return payload.utf8.withContiguousStorageIfAvailable(body) ?? Array(payload.utf8).withUnsafeBufferPointer(body)
    }

    /// The value as an object (empty when it is none).
    public var object: JSONObject { value?.objectValue ?? [:] }

    /// The error code of an `ERR` line; nil for any other line.
    public var errorCode: String? { kind == "ERR" ? object["code"]?.stringValue : nil }
}
