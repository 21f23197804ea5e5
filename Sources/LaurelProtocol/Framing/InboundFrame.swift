import NIOCore

/// What the line framer delivers: a complete line without its line ending, or the news that a line
/// went over the limit and is being discarded.
public enum InboundFrame: Sendable, Equatable {
    /// A line's bytes, without the LF and without a CR just before it.
    case line(ByteBuffer)
    /// A line exceeded `maxLineBytes`; it is dropped up to its LF. Sent once per over-long line.
    case lineTooLong
    /// A WebSocket text message held a LF: a message carries exactly one line, so it is not run.
    case lineBreakInMessage
}
