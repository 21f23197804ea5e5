import NIOCore

/// How a connection's transport tells its lines apart: on TCP each line ends with LF; a WebSocket message carries
/// one line and no LF.
///
/// The LF is written into the line's own buffer as it goes out, rather than by an encoder in the pipeline that copies
/// every line into a buffer of its own: lines are built with room for it.
enum LineFraming: Sendable {
    case lineFeed
    case message

    /// `line` (built without its ending) as the transport carries it. Taken, not borrowed: a buffer with a second
    /// owner would be copied to add the LF.
    func framed(_ line: consuming ByteBuffer) -> ByteBuffer {
        guard case .lineFeed = self else { return line }
        line.writeInteger(UInt8(ascii: "\n"))
        return line
    }

    /// Framed lines that leave together, as few buffers as the transport allows: on TCP the lines are one stream of
    /// bytes, and one buffer passes the channel's handlers once (some 4,500 instructions a write, TLS encrypting each
    /// write apart) where a user's first LOG of the day wrote its answer and 4-8 pushes one by one; a WebSocket
    /// message is one line each.
    func joined(_ lines: [ByteBuffer]) -> [ByteBuffer] {
        guard case .lineFeed = self, lines.count > 1 else { return lines }
        var joined = ByteBufferAllocator().buffer(capacity: lines.reduce(0) { $0 + $1.readableBytes })
        for line in lines { joined.writeImmutableBuffer(line) }
        return [joined]
    }
}
