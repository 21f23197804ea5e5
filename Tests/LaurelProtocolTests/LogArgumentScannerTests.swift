import LaurelJSON
import LaurelTestSupport
import Testing

@testable import LaurelProtocol

/// A LOG read straight from its bytes must be exactly the LOG the JSON parser and `LogRequest(argument:)` read, and
/// anything the quick reading is not sure of must be left to them (so that their errors are the ones reported).
@Suite struct LogArgumentScannerTests {
    /// The general way: the JSON parser, then the fields checked from the tree.
    static func generalReading(_ argument: String) -> Result<LogRequest, ProtocolError>? {
        guard case .object(let object)? = try? JSONParser.parse(Array(argument.utf8)) else { return nil }
        do throws(ProtocolError) {
            return .success(try LogRequest(argument: object))
        } catch {
            return .failure(error)
        }
    }

    static func scan(_ argument: String) -> LogRequest? {
        Array(argument.utf8).withUnsafeBufferPointer { LogArgumentScanner.scan($0) }
    }

    @Test(arguments: [
        #"{"activity":"pushups","amount":10,"id":"run-1-42"}"#,
        #"{"activity":"pushups"}"#,
        #"{ "activity" : "  Push Ups ", "amount": 100000, "at": "2026-11-20T08:15:00+01:00", "note": "after work" } "#,
        #"{"id":"x","note":"","activity":"squats","amount":1}"#,
    ])
    func theUsualShapeIsReadQuicklyAndAsTheGeneralWayReadsIt(argument: String) throws {
        let quick = try #require(Self.scan(argument))
        #expect(Self.generalReading(argument) == .success(quick))
    }

    @Test(arguments: [
        #"{"activity":"push\u0075ps"}"#,  // an escape
        #"{"activity":"Liegestütze"}"#,  // not ASCII
        #"{"activity":"pushups","amount":10.0}"#,
        #"{"activity":"pushups","amount":1e2}"#,
        #"{"activity":"pushups","amount":0}"#,
        #"{"activity":"pushups","amount":-3}"#,
        #"{"activity":"pushups","amount":100001}"#,
        #"{"activity":"pushups","amount":12345678901234567890}"#,
        #"{"activity":"pushups","amount":"10"}"#,
        #"{"activity":"pushups","activity":"squats"}"#,
        #"{"activity":"pushups","mood":"fine"}"#,
        #"{"activity":"pushups","note":null}"#,
        #"{"activity":"pushups","at":"yesterday"}"#,
        #"{"activity":"   "}"#,
        #"{"amount":3}"#,
        #"{"activity":"pushups"} x"#,
        #"{"activity":"pushups",}"#,
        #"{"activity":"pushups""#,
    ])
    func anythingElseIsLeftToTheGeneralWay(argument: String) {
        #expect(Self.scan(argument) == nil)
    }

    /// Arguments made of LOG's fields and others, with values of every kind and whitespace here and there: whatever
    /// the quick reading returns, the general way returns too.
    @Test(arguments: 0..<20)
    func whatTheQuickReadingReturnsIsWhatTheGeneralWayReturns(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        let keys = ["activity", "amount", "at", "id", "note", "mood", "Activity"]
        let values = [
            #""pushups""#, #"" squats ""#, #""""#, #""a\"b""#, #""tab\there""#, #""é""#, "\"\(String(repeating: "x", count: 129))\"",
            #""2026-11-20T08:15:00Z""#, #""2026-11-20""#, "1", "7", "100000", "100001", "0", "-1", "2.5", "3e1", "007",
            "true", "null", "{}", "[1]", #""line1\nline2""#,
        ]
        let spaces = ["", " ", "  ", "\t", "\r"]
        var quickReadings = 0
        for _ in 0..<300 {
            var argument = "{" + spaces[random.below(spaces.count)]
            let count = random.below(5)
            for index in 0..<count {
                if index > 0 { argument += "," + spaces[random.below(spaces.count)] }
                // Half the arguments start with a plain activity, so that many are LOGs the quick reading takes.
                let (key, value) = index == 0 && random.below(2) == 0
                    ? ("activity", #""pushups""#) : (keys[random.below(keys.count)], values[random.below(values.count)])
                argument += "\"\(key)\"" + spaces[random.below(spaces.count)] + ":"
                argument += spaces[random.below(spaces.count)] + value + spaces[random.below(spaces.count)]
            }
            argument += "}" + spaces[random.below(spaces.count)]
            guard let quick = Self.scan(argument) else { continue }
            quickReadings += 1
            #expect(Self.generalReading(argument) == .success(quick), "\(argument)")
        }
        #expect(quickReadings > 0)
    }

    @Test func theParserHandsALogReadQuicklyToTheVerbsArguments() throws {
        let parser = RequestLineParser(knownVerbs: ["LOG", "PING"])
        let line = try parser.parse(Array(#"t7 log {"activity":"pushups","amount":12}"#.utf8)).get()
        #expect(line.verb == "LOG" && line.argument == nil)
        #expect(try LogRequest(line: line) == LogRequest(activity: "pushups", amount: 12))
        // A LOG the quick reading leaves alone is parsed as before, and refused by LogRequest as before.
        let unusual = try parser.parse(Array(#"t8 LOG {"activity":"pushups","mood":"fine"}"#.utf8)).get()
        #expect(unusual.log == nil && unusual.argument != nil)
        #expect(throws: ProtocolError.self) { try LogRequest(line: unusual) }
    }
}
