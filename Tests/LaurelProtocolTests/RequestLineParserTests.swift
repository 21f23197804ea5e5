import LaurelJSON
import LaurelProtocol
import NIOCore
import Testing

@Suite struct RequestLineParserTests {
    private func parse(_ text: String) -> Result<RequestLine, TaggedProtocolError> {
        requestLineParser.parse(ByteBuffer(string: text))
    }

    private func failure(_ text: String) -> TaggedProtocolError? {
        if case .failure(let error) = parse(text) { return error }
        return nil
    }

    @Test func parsesTagVerbAndArgument() throws {
        let line = try parse(#"a-1.b_c:9 log {"activity":"pushups","amount":5}"#).get()
        #expect(line.tag == "a-1.b_c:9")
        #expect(line.verb == "LOG")
        // A LOG of the usual shape is read straight into its fields (LogArgumentScannerTests); other lines' arguments
        // are parsed objects.
        #expect(line.log == LogRequest(activity: "pushups", amount: 5) && line.argument == nil)
        #expect(try parse(#"a-1 log {"activity":"pushups","amount":5,"mood":1}"#).get().argument == ["activity": "pushups", "amount": 5, "mood": 1])
        #expect(try parse("x Activity.Create").get() == RequestLine(tag: "x", verb: "ACTIVITY.CREATE"))
        #expect(try parse("x PING {}").get().argument == [:])
        #expect(try parse("x PING {} ").get().argument == [:])
        #expect(try requestLineParser.parse(Array("t ping".utf8)).get().verb == "PING")
    }

    @Test func acceptsTagsOfOneToThirtyTwoCharacters() throws {
        #expect(try parse("1 PING").get().tag == "1")
        let longest = String(repeating: "t", count: 32)
        #expect(try parse("\(longest) PING").get().tag == longest)
    }

    @Test(arguments: [
        "", " PING", "PING", "  PING", "\(String(repeating: "t", count: 33)) PING", "a/b PING", "a* PING", "é PING",
        "* PING", "a\tb PING",
    ])
    func malformedTagIsAnsweredWithStar(line: String) throws {
        let error = try #require(failure(line))
        #expect(error.tag == "*")
        #expect(error.error.code == .badRequest)
    }

    @Test func tagOnlyLineIsBadRequestWithTheTag() throws {
        // A single word could be a tag without verb or a verb without tag; either way the tag is missing.
        let error = try #require(failure("PING"))
        #expect(error.tag == "*")
        let tagged = try #require(failure("a1 "))
        #expect(tagged.tag == "a1")
        #expect(tagged.error.code == .badRequest)
    }

    @Test(arguments: [
        "a1 LOG{}", "a1 LOG  {}", "a1 LOG []", "a1 LOG [1]", "a1 LOG \"x\"", "a1 LOG 1", "a1 LOG {} x",
        "a1 LOG {\"a\":1}{}", "a1 LOG {\"a\":1,}", "a1 LOG {\"a\":1", "a1 PING ", "a1 LOG\t{}", "a1 LO-G",
        "a1 LOG {\"a\":1,\"a\":2}", "a1 \(String(repeating: "X", count: 33))",
    ])
    func malformedRestIsBadRequestWithTheTag(line: String) throws {
        let error = try #require(failure(line))
        #expect(error.tag == "a1")
        #expect(error.error.code == .badRequest)
    }

    @Test func invalidUTF8IsBadRequest() throws {
        var bytes = Array(#"a1 LOG {"activity":"x"#.utf8)
        bytes += [0xC3, 0x28]
        bytes += Array(#""}"#.utf8)
        guard case .failure(let error) = requestLineParser.parse(bytes) else {
            Issue.record("expected a failure")
            return
        }
        #expect(error.tag == "a1")
        #expect(error.error.code == .badRequest)
        guard case .failure(let tagError) = requestLineParser.parse([0x61, 0xFF, 0x20] + Array("PING".utf8)) else {
            Issue.record("expected a failure")
            return
        }
        #expect(tagError.tag == "*")
    }

    @Test func unknownVerbCarriesTheVerb() throws {
        let error = try #require(failure(#"a1 Frobnicate {"x":1}"#))
        #expect(error.tag == "a1")
        #expect(error.error.code == .unknownVerb)
        #expect(error.error.details["verb"] == "Frobnicate")
        #expect(failure("a1 LOG.DELETED")?.error.code == .unknownVerb)
    }

    @Test func everyVerbIsRecognisedCaseInsensitively() throws {
        for verb in argumentTypes.keys {
            #expect(try parse("t \(verb.lowercased())").get().verb == verb)
            #expect(try parse("t \(verb)").get().verb == verb)
            // Every other letter in lower case.
            let mixed = String(verb.enumerated().map { $0.offset % 2 == 0 ? Character($0.element.lowercased()) : $0.element })
            #expect(try parse("t \(mixed)").get().verb == verb)
        }
    }

    @Test func aVerbOneLetterOffOrLongerIsUnknown() throws {
        for sent in ["LOF", "LO", "LOGG", "L0G", "LOG.", "lOG.DELETES", "PINGS", "ACCOUNT.DELETE2"] {
            #expect(failure("t \(sent)")?.error.code == .unknownVerb, "\(sent)")
            #expect(failure("t \(sent)")?.error.details["verb"] == .string(sent))
        }
    }

}
