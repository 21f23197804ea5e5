import LaurelProtocol
import NIOCore
import Testing
@testable import LaurelServer

/// How lines leave on each transport: TCP ends each with LF, written into the line's own buffer; a WebSocket message
/// carries the line as it is.
@Suite struct LineFramingTests {
    @Test func tcpLinesEndWithALineFeedAndWebSocketMessagesDoNot() {
        let line = OutboundLine.ok(tag: "a1", json: Array(#"{"xp":10}"#.utf8))
        #expect(String(buffer: LineFraming.lineFeed.framed(line)) == "a1 OK {\"xp\":10}\n")
        #expect(String(buffer: LineFraming.message.framed(line)) == "a1 OK {\"xp\":10}")
    }

    @Test func anAnswerHasRoomForItsLineFeed() {
        // An answer's buffer is built with room for the LF, so that framing it writes in place instead of copying. The
        // answer fills 512 bytes, a size the buffer's storage would not round up from.
        let line = OutboundLine.ok(tag: "a1", json: Array(repeating: UInt8(ascii: "7"), count: 506))
        let before = line.withUnsafeReadableBytes { UInt(bitPattern: $0.baseAddress) }
        let framed = LineFraming.lineFeed.framed(consume line)
        #expect(framed.withUnsafeReadableBytes { UInt(bitPattern: $0.baseAddress) } == before)
        #expect(framed.readableBytes == 2 + 4 + 506 + 1)
    }
}
