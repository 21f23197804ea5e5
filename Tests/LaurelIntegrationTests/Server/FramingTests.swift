import Foundation
import LaurelCore
import LaurelJSON
import LaurelPostgres
import LaurelProtocol
import LaurelServer
import Testing

/// Lines on the wire: pipelined requests answered in order, and over-long lines refused without ending the
/// connection.
@Suite struct FramingTests {
    @Test func aThousandPipelinedRequestsInOneWriteAreAnsweredInOrder() async throws {
        let user = try await LaurelTestDatabase.createUser("pipeline")
        let prefix = "pipe-\(UUID().uuidString.prefix(8))-"
        try await TestServer.run { port in
            let client = try await LineClient.authenticated(port: port, token: user.token)
            var batch = ""
            for tag in 1...1000 {
                if tag.isMultiple(of: 2) {
                    batch += "\(tag) LOG {\"activity\":\"pushups\",\"amount\":\(tag),\"id\":\"\(prefix)\(tag)\"}\n"
                } else {
                    batch += "\(tag) PING\n"
                }
            }
            try await client.sendRaw(batch)
            var tags: [String] = []
            var failures: [LineClient.Line] = []
            while tags.count < 1000 {
                let line = try await client.nextLine(timeout: .seconds(60))
                if line.isPush { continue }
                tags.append(line.tag)
                if line.kind != "OK" { failures.append(line) }
                if line.kind == "OK", let tag = Int(line.tag), tag.isMultiple(of: 2) {
                    #expect(line.object["log"]?.objectValue?["id"]?.stringValue == "\(prefix)\(tag)", "\(line)")
                }
                if line.kind == "OK", let tag = Int(line.tag), !tag.isMultiple(of: 2) {
                    #expect(line.object["time"]?.stringValue != nil, "\(line)")
                }
            }
            #expect(tags == (1...1000).map(String.init))
            #expect(failures.isEmpty, "\(failures.prefix(5))")
            #expect(try await client.pingSucceeds())
        }
        #expect(try await LaurelTestDatabase.logCount(of: user) == 500)
        #expect(try await LaurelTestDatabase.count(
            "SELECT sum(amount) FROM laurel.logs WHERE user_id = $1::bigint", [.text(user.id.description)])
            == stride(from: 2, through: 1000, by: 2).reduce(0, +))
    }

    @Test func aLineOverTheConfiguredLimitIsRefusedUntaggedAndTheConnectionGoesOn() async throws {
        let user = try await LaurelTestDatabase.createUser("line-limit")
        try await TestServer.run(configuration: ServerConfiguration(maxLineBytes: 1024)) { port in
            let client = try await LineClient.authenticated(port: port, token: user.token)
            let exactly = Self.logLine(tag: "fits", bytes: 1024)
            try await client.send(exactly)
            let fits = try await client.response(tagged: "fits").response
            #expect(fits.kind == "OK", "a line of exactly max_line bytes is accepted: \(fits)")
            try await client.sendRaw(Self.logLine(tag: "fitscr", bytes: 1024) + "\r\n")
            #expect(try await client.response(tagged: "fitscr").response.kind == "OK", "the CR before LF is not counted")

            try await client.send(Self.logLine(tag: "over", bytes: 1025))
            let refused = try await client.nextAnswer()
            #expect(refused.tag == "*")
            #expect(refused.errorCode == "line_too_long")
            #expect(refused.object["limit"]?.intValue == 1024)
            #expect(refused.object["message"]?.stringValue != nil)
            #expect(try await client.pingSucceeds())

            // Between two pipelined requests, in one write: answers stay in order around the refusal.
            try await client.sendRaw("p1 PING\n" + Self.logLine(tag: "huge", bytes: 50_000) + "\np2 PING\n")
            let lines = [try await client.nextAnswer(), try await client.nextAnswer(), try await client.nextAnswer()]
            #expect(lines.map(\.tag) == ["p1", "*", "p2"])
            #expect(lines[1].errorCode == "line_too_long")
            #expect(lines[0].kind == "OK" && lines[2].kind == "OK")
        }
        #expect(try await LaurelTestDatabase.logCount(of: user) == 2)
    }

    @Test func aLineOverTheDefaultLimitIsRefused() async throws {
        let user = try await LaurelTestDatabase.createUser("line-default")
        try await TestServer.run { port in
            let client = try await LineClient.authenticated(port: port, token: user.token)
            // Framing lets it through; the note is then too long for a LOG, which names the field.
            try await client.send(Self.logLine(tag: "big", bytes: 65_536))
            let big = try await client.response(tagged: "big").response
            #expect(big.errorCode == "invalid_argument" && big.errorField == "note", "65536 bytes is the default max_line: \(big)")

            // Sent in pieces, as a slow client would.
            let over = Self.logLine(tag: "over", bytes: 65_537) + "\n"
            var rest = Substring(over)
            while !rest.isEmpty {
                try await client.sendRaw(String(rest.prefix(10_000)))
                rest = rest.dropFirst(10_000)
            }
            let refused = try await client.nextAnswer()
            #expect(refused.raw.hasPrefix(#"* ERR {"code":"line_too_long""#), "\(refused)")
            #expect(refused.object["limit"]?.intValue == 65_536)

            try await client.send(String(repeating: "z", count: 1_000_000))
            #expect(try await client.nextAnswer().errorCode == "line_too_long")
            #expect(try await client.pingSucceeds())
            #expect(try await client.request("LOG", ["activity": "pushups"]).kind == "OK")
        }
        #expect(try await LaurelTestDatabase.logCount(of: user) == 1)
    }

    /// A LOG request line of exactly `bytes` bytes (without the LF), padded with its note.
    static func logLine(tag: String, bytes: Int) -> String {
        let head = "\(tag) LOG {\"activity\":\"pushups\",\"note\":\""
        let tail = "\"}"
        return head + String(repeating: "n", count: bytes - head.utf8.count - tail.utf8.count) + tail
    }
}
