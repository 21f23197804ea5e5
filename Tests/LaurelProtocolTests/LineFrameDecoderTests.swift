import LaurelProtocol
import NIOCore
import NIOEmbedded
import Testing

@Suite struct LineFrameDecoderTests {
    /// Feeds `chunks` through a channel with ``LineFrameHandler`` (as servers and clients use the decoder), then
    /// closes the input; returns every frame. It fails if the handler ever keeps more than a line's worth, and checks
    /// that NIO's `ByteToMessageHandler` driving the same decoder makes the same frames.
    private func frames(maxLineBytes: Int, chunks: [[UInt8]]) throws -> [Frame] {
        let handler = LineFrameHandler(maxLineBytes: maxLineBytes)
        let result = try frames(through: EmbeddedChannel(handler: handler), chunks: chunks) {
            #expect(handler.bufferedBytes <= maxLineBytes + 1)
        }
        let generic = ByteToMessageHandler(LineFrameDecoder(maxLineBytes: maxLineBytes), maximumBufferSize: maxLineBytes + 1)
        #expect(try frames(through: EmbeddedChannel(handler: generic), chunks: chunks) {} == result)
        return result
    }

    private func frames(through channel: EmbeddedChannel, chunks: [[UInt8]], afterEachChunk: () -> Void) throws -> [Frame] {
        var result: [Frame] = []
        func drain() throws {
            while let frame = try channel.readInbound(as: InboundFrame.self) {
                result.append(Frame(frame))
            }
        }
        for chunk in chunks {
            try channel.writeInbound(ByteBuffer(bytes: chunk))
            afterEachChunk()
            try drain()
        }
        _ = try channel.finish()
        try drain()
        return result
    }

    /// A frame with its bytes as a string, for readable comparisons.
    private enum Frame: Equatable, CustomStringConvertible {
        case line(String)
        case tooLong
        /// Never made by the line decoder (only WebSocket messages hold line breaks).
        case lineBreak

        init(_ frame: InboundFrame) {
            switch frame {
            case .line(let buffer): self = .line(String(buffer: buffer))
            case .lineTooLong: self = .tooLong
            case .lineBreakInMessage: self = .lineBreak
            }
        }

        var description: String {
            switch self {
            case .line(let text): "line(\(text.debugDescription))"
            case .tooLong: "tooLong"
            case .lineBreak: "lineBreak"
            }
        }
    }

    private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test func splitsOnLFAndStripsOneCR() throws {
        let result = try frames(maxLineBytes: 100, chunks: [bytes("a1 PING\nb2 PING\r\n\nc\r\r\nd\re\n")])
        #expect(result == [.line("a1 PING"), .line("b2 PING"), .line(""), .line("c\r"), .line("d\re")])
    }

    @Test func lineOfExactlyTheLimitPasses() throws {
        let exact = String(repeating: "x", count: 10)
        let result = try frames(maxLineBytes: 10, chunks: [bytes(exact + "\n" + exact + "\r\n" + exact + "y\n")])
        #expect(result == [.line(exact), .line(exact), .tooLong])
    }

    @Test func exactLineWithCRArrivingSeparately() throws {
        let exact = String(repeating: "x", count: 10)
        let result = try frames(maxLineBytes: 10, chunks: [bytes(exact), bytes("\r"), bytes("\n"), bytes("ok\n")])
        #expect(result == [.line(exact), .line("ok")])
    }

    @Test func overLongLineIsReportedOnceAndSkipped() throws {
        let long = String(repeating: "y", count: 25)
        let chunks = [bytes("a1 PING\n" + long.prefix(12)), bytes(String(long.dropFirst(12))), bytes("zz\r\nb2 PING\n")]
        let result = try frames(maxLineBytes: 10, chunks: chunks)
        #expect(result == [.line("a1 PING"), .tooLong, .line("b2 PING")])
    }

    @Test func trailingPartialLineIsDeliveredAtEOF() throws {
        #expect(try frames(maxLineBytes: 10, chunks: [bytes("a\nlast")]) == [.line("a"), .line("last")])
        #expect(try frames(maxLineBytes: 10, chunks: [bytes("a\nlast\r")]) == [.line("a"), .line("last")])
        #expect(try frames(maxLineBytes: 4, chunks: [bytes("a\nlonger")]) == [.line("a"), .tooLong])
        #expect(try frames(maxLineBytes: 10, chunks: [bytes("a\n")]) == [.line("a")])
    }

    /// A client that closes its sending side (TCP half-close) has its unfinished line delivered then, once.
    @Test func anUnfinishedLineIsDeliveredWhenTheInputCloses() throws {
        let channel = EmbeddedChannel(handler: LineFrameHandler(maxLineBytes: 64))
        try channel.writeInbound(ByteBuffer(string: "a1 PING\na2 PI"))
        channel.pipeline.fireUserInboundEventTriggered(ChannelEvent.inputClosed)
        var lines: [String] = []
        while case .line(let line)? = try channel.readInbound(as: InboundFrame.self) { lines.append(String(buffer: line)) }
        #expect(lines == ["a1 PING", "a2 PI"])
        _ = try channel.finish()
        #expect(try channel.readInbound(as: InboundFrame.self) == nil)
    }

    @Test func memoryStaysBoundedWhileDiscarding() throws {
        var decoder = LineFrameDecoder(maxLineBytes: 1000)
        var buffer = ByteBuffer()
        var emitted: [InboundFrame] = []
        let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: 4096)
        var largestBuffered = 0
        for _ in 0..<256 {  // 1 MiB without a line feed
            buffer.writeBytes(chunk)
            while let frame = try decoder.decode(buffer: &buffer) {
                emitted.append(frame)
            }
            largestBuffered = max(largestBuffered, buffer.readableBytes)
            buffer.discardReadBytes()
            #expect(buffer.readableBytes <= 1001)
        }
        #expect(largestBuffered <= 1001)
        #expect(emitted == [.lineTooLong])
        buffer.writeString("tail\nnext\n")
        while let frame = try decoder.decode(buffer: &buffer) {
            emitted.append(frame)
        }
        #expect(emitted == [.lineTooLong, .line(ByteBuffer(string: "next"))])
    }

    @Test func channelSurvivesAMegabyteWithoutLineFeed() throws {
        let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: 65_536)
        let chunks = [bytes("a1 PING\n")] + Array(repeating: chunk, count: 16) + [bytes("\na2 PING\n")]
        // The helper fails if the handler ever buffers more than a line.
        #expect(try frames(maxLineBytes: 65_536, chunks: chunks) == [.line("a1 PING"), .tooLong, .line("a2 PING")])
    }

    /// The same frames come out however the stream is cut into pieces.
    @Test func framingDoesNotDependOnChunkBoundaries() throws {
        let long = String(repeating: "Ü", count: 40)  // 80 bytes, over the limit of 64
        let text = "a1 PING\r\n"
            + "a2 LOG {\"activity\":\"pushups\",\"note\":\"Grüße 😀\"}\n"
            + "\r\n"
            + "a3 ACTIVITIES\n"
            + "a4 LOG {\"note\":\"\(long)\"}\r\n"
            + "a5 PROFILE {}\n"
            + "a6 PING\r\r\n"
            + "a7 EVENT {\"name\":\"日本\"}\n"
            + "tail without newline"
        let stream = bytes(text)
        let expected = try frames(maxLineBytes: 64, chunks: [stream])
        #expect(expected == [
            .line("a1 PING"),
            .line("a2 LOG {\"activity\":\"pushups\",\"note\":\"Grüße 😀\"}"),
            .line(""),
            .line("a3 ACTIVITIES"),
            .tooLong,
            .line("a5 PROFILE {}"),
            .line("a6 PING\r"),
            .line("a7 EVENT {\"name\":\"日本\"}"),
            .line("tail without newline"),
        ])
        for cut in 0...stream.count {
            let pieces = [Array(stream[..<cut]), Array(stream[cut...])]
            let result = try frames(maxLineBytes: 64, chunks: pieces)
            #expect(result == expected, "cut at byte \(cut)")
        }
        let oneByteAtATime = try frames(maxLineBytes: 64, chunks: stream.map { [$0] })
        #expect(oneByteAtATime == expected)
    }

    @Test func encoderAppendsLineFeed() throws {
        let channel = EmbeddedChannel(handler: MessageToByteHandler(LineFrameEncoder()))
        try channel.writeOutbound(ByteBuffer(string: "a1 OK"))
        let written = try #require(try channel.readOutbound(as: ByteBuffer.self))
        #expect(String(buffer: written) == "a1 OK\n")
        _ = try channel.finish()
    }
}
