#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import NIOCore

/// Splits the inbound byte stream into LF-terminated lines with a hard length limit.
///
/// - A CR directly before the LF is dropped; other CRs are content. The limit counts content bytes only,
///   so a line of exactly `maxLineBytes` passes, with or without CR.
/// - As soon as the buffered bytes of an unfinished line exceed the limit they are thrown away and
///   ``InboundFrame/lineTooLong`` is emitted once; everything up to the next LF is then discarded as it
///   arrives. The decoder therefore never holds more than `maxLineBytes + 1` bytes between calls,
///   whatever the peer sends.
/// - At end of input, an unfinished line within the limit is delivered as a line (a trailing CR dropped).
///
/// Channels use it through ``LineFrameHandler``; it also works as `ByteToMessageHandler(LineFrameDecoder(...))`.
public struct LineFrameDecoder: NIOSingleStepByteToMessageDecoder {
    public typealias InboundOut = InboundFrame

    /// The longest line accepted, in bytes, without the line ending.
    public let maxLineBytes: Int

    /// Whether the rest of an over-long line is being skipped.
    private var isDiscarding = false
    /// How many readable bytes are already known to hold no LF, so a line arriving in many small
    /// pieces is scanned once rather than once per piece.
    private var scannedBytes = 0

    public init(maxLineBytes: Int) {
        precondition(maxLineBytes > 0, "maxLineBytes must be positive")
        self.maxLineBytes = maxLineBytes
    }

    public mutating func decode(buffer: inout ByteBuffer) throws -> InboundFrame? {
        while true {
            guard let newline = findNewline(in: buffer) else {
                return handleUnfinishedLine(in: &buffer)
            }
            scannedBytes = 0
            if isDiscarding {
                buffer.moveReaderIndex(forwardBy: newline + 1)
                isDiscarding = false
                continue
            }
            var length = newline
            if length > 0, buffer.getInteger(at: buffer.readerIndex + length - 1, as: UInt8.self) == UInt8(ascii: "\r") {
                length -= 1
            }
            if length > maxLineBytes {
                buffer.moveReaderIndex(forwardBy: newline + 1)
                return .lineTooLong
            }
            let line = buffer.readSlice(length: length)!
            buffer.moveReaderIndex(forwardBy: newline + 1 - length)
            return .line(line)
        }
    }

    public mutating func decodeLast(buffer: inout ByteBuffer, seenEOF: Bool) throws -> InboundFrame? {
        if let frame = try decode(buffer: &buffer) {
            return frame
        }
        defer {
            buffer.moveReaderIndex(to: buffer.writerIndex)
            scannedBytes = 0
        }
        guard !isDiscarding, buffer.readableBytes > 0 else {
            return nil
        }
        var line = buffer.readSlice(length: buffer.readableBytes)!
        if line.getInteger(at: line.writerIndex - 1, as: UInt8.self) == UInt8(ascii: "\r") {
            line.moveWriterIndex(to: line.writerIndex - 1)
        }
        return line.readableBytes > 0 ? .line(line) : nil
    }

    /// The offset of the first LF among the readable bytes, scanning only bytes not seen before.
    private mutating func findNewline(in buffer: ByteBuffer) -> Int? {
        let start = scannedBytes
        let found = buffer.withUnsafeReadableBytes { bytes -> Int? in
            guard start < bytes.count, let base = bytes.baseAddress else { return nil }
            // The C library's scan: the collection's `firstIndex(of:)` looked at a byte at a time, some 1,000
            // instructions for a LOG's line, on the event loop.
            guard let newline = memchr(base + start, Int32(UInt8(ascii: "\n")), bytes.count - start) else { return nil }
            return base.distance(to: UnsafeRawPointer(newline))
        }
        if found == nil {
            scannedBytes = buffer.readableBytes
        }
        return found
    }

    /// Enforces the limit on bytes that have no LF yet. A final CR may still be the start of a CRLF,
    /// so it does not count until the next byte shows it is content.
    private mutating func handleUnfinishedLine(in buffer: inout ByteBuffer) -> InboundFrame? {
        if isDiscarding {
            buffer.moveReaderIndex(to: buffer.writerIndex)
            scannedBytes = 0
            return nil
        }
        var contentBytes = buffer.readableBytes
        if contentBytes > 0, buffer.getInteger(at: buffer.writerIndex - 1, as: UInt8.self) == UInt8(ascii: "\r") {
            contentBytes -= 1
        }
        guard contentBytes > maxLineBytes else {
            return nil
        }
        buffer.moveReaderIndex(to: buffer.writerIndex)
        scannedBytes = 0
        isDiscarding = true
        return .lineTooLong
    }
}
