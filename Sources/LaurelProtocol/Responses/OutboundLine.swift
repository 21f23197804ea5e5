import LaurelJSON
import NIOCore

/// Builds the lines the server sends: responses and pushes, as `ByteBuffer`s WITHOUT the final LF, which the
/// transport adds (on TCP; a WebSocket message carries a line without it). An `OK` answer (every LOG's) leaves room
/// for the LF, so that adding it copies nothing.
///
/// - `TAG OK` or `TAG OK <json>`
/// - `TAG ERR <error object>`
/// - `* KIND <json object>`
public enum OutboundLine {
    /// A successful answer, with or without a value.
    public static func ok(tag: String, _ value: JSONValue? = nil) -> ByteBuffer {
        var bytes: [UInt8] = []
        bytes.append(contentsOf: tag.utf8)
        bytes.append(contentsOf: " OK".utf8)
        if let value {
            bytes.append(UInt8(ascii: " "))
            value.write(into: &bytes)
        }
        return ByteBuffer(bytes: bytes)
    }

    /// A successful answer whose value is already JSON text (written straight into bytes), or none.
    public static func ok(tag: String, json: [UInt8]?) -> ByteBuffer {
        // Made at its size by an allocator: `ByteBuffer()` starts from the one empty storage every buffer shares, which
        // each answer retained and released on whichever thread made it (and then reserved room in a storage of its own).
        var buffer = ByteBufferAllocator().buffer(capacity: tag.utf8.count + 4 + (json?.count ?? 0) + 1)
        buffer.writeString(tag)
        buffer.writeString(" OK")
        if let json {
            buffer.writeInteger(UInt8(ascii: " "))
            buffer.writeBytes(json)
        }
        return buffer
    }

    /// An error answer to the request tagged `tag` (`*` when the request had no usable tag).
    public static func err(tag: String, _ error: ProtocolError) -> ByteBuffer {
        line(prefix: tag, word: "ERR", JSONValue.object(error.json))
    }

    /// A push, `* KIND {...}`, such as `* UNLOCK {...}` or `* BYE {"reason":"idle"}`.
    public static func push(kind: String, _ object: JSONObject) -> ByteBuffer {
        line(prefix: "*", word: kind, .object(object))
    }

    private static func line(prefix: String, word: String, _ value: JSONValue) -> ByteBuffer {
        var bytes: [UInt8] = []
        bytes.append(contentsOf: prefix.utf8)
        bytes.append(UInt8(ascii: " "))
        bytes.append(contentsOf: word.utf8)
        bytes.append(UInt8(ascii: " "))
        value.write(into: &bytes)
        return ByteBuffer(bytes: bytes)
    }
}
