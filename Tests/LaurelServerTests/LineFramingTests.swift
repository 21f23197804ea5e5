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

    @Test func linesLeavingTogetherAreOneBufferOnTCPAndOneMessageEachOnWebSockets() {
        let lines = ["a1 OK {}", "* UNLOCK {\"seq\":1}", "* LEVEL {\"seq\":2}"].map { ByteBuffer(string: $0) }
        let tcp = LineFraming.lineFeed.joined(lines.map { LineFraming.lineFeed.framed($0) })
        #expect(tcp.map { String(buffer: $0) } == ["a1 OK {}\n* UNLOCK {\"seq\":1}\n* LEVEL {\"seq\":2}\n"])
        let messages = LineFraming.message.joined(lines.map { LineFraming.message.framed($0) })
        #expect(messages.map { String(buffer: $0) } == ["a1 OK {}", "* UNLOCK {\"seq\":1}", "* LEVEL {\"seq\":2}"])
        #expect(LineFraming.lineFeed.joined([ByteBuffer(string: "a1 OK {}\n")]).map { String(buffer: $0) } == ["a1 OK {}\n"])
    }
}
