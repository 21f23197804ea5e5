import LaurelJSON
import Testing

@Suite struct JSONParserTests {
    @Test func parsesScalars() throws {
        #expect(try JSONParser.parse("null") == .null)
        #expect(try JSONParser.parse("true") == .bool(true))
        #expect(try JSONParser.parse("false") == .bool(false))
        #expect(try JSONParser.parse("\"hi\"") == .string("hi"))
        #expect(try JSONParser.parse(" \t\r\n 42 \n") == .int(42))
    }

    @Test func parsesContainersInOrder() throws {
        let value = try JSONParser.parse(#"{"b":[1,2,{"c":null}],"a":{},"e":[]}"#)
        let object = try #require(value.objectValue)
        #expect(object.keys == ["b", "a", "e"])
        #expect(object["b"] == [1, 2, ["c": nil]])
        #expect(object["a"] == .object([:]))
        #expect(object["e"] == .array([]))
    }

    @Test(arguments: [
        ("0", JSONValue.int(0)),
        ("-0", .int(0)),
        ("123", .int(123)),
        ("-123", .int(-123)),
        ("9223372036854775807", .int(Int.max)),
        ("-9223372036854775808", .int(Int.min)),
        ("9223372036854775808", .double(9_223_372_036_854_775_808)),
        ("-9223372036854775809", .double(-9_223_372_036_854_775_808.0)),
        ("1.0", .double(1)),
        ("1e2", .double(100)),
        ("1E+2", .double(100)),
        ("-2.5e-3", .double(-0.0025)),
        ("0.1", .double(0.1)),
        ("1e-400", .double(0)),
    ])
    func parsesNumbers(text: String, expected: JSONValue) throws {
        #expect(try JSONParser.parse(text) == expected)
    }

    @Test(arguments: [
        "", " ", "01", "-", "+1", ".5", "1.", "1.e3", "1e", "1e+", "0x10", "NaN", "Infinity", "-Infinity",
        "1e400", "-1e400", "[1,]", "[,1]", "{\"a\":1,}", "{,}", "[1 2]", "{\"a\" 1}", "{\"a\":}", "{a:1}",
        "{'a':1}", "'a'", "[1]]", "[[1]", "{\"a\":1}}", "tru", "nul", "truex", "True", "// c\n1", "/* c */ 1",
        "1 2", "[1] x", "\"abc", "\"a\u{01}b\"", "\"tab\there\"", "\"\\x\"", "\"\\u12\"", "\"\\u12g4\"", "\"\\\"",
    ])
    func rejectsInvalidDocuments(text: String) {
        #expect(throws: JSONParseError.self) { try JSONParser.parse(text) }
    }

    @Test func decodesEscapes() throws {
        let value = try JSONParser.parse(#""\"\\\/\b\f\n\r\t\u0041\u00e9\u20AC\ud83d\ude00""#)
        #expect(value == .string("\"\\/\u{08}\u{0C}\n\r\tAé€😀"))
    }

    @Test func keepsUnescapedMultiByteText() throws {
        #expect(try JSONParser.parse("\"Grüße 😀 日本\"") == .string("Grüße 😀 日本"))
    }

    @Test(arguments: [#""\ud83d""#, #""\ud83dx""#, #""\ud83d\u0041""#, #""\ude00""#, #""\ude00\ud83d""#])
    func rejectsLoneSurrogates(text: String) {
        #expect(throws: JSONParseError.self) { try JSONParser.parse(text) }
    }

    @Test(arguments: [
        [0x22, 0xFF, 0x22],  // never valid
        [0x22, 0xC0, 0xAF, 0x22],  // overlong "/"
        [0x22, 0xE0, 0x80, 0xAF, 0x22],  // overlong three-byte form
        [0x22, 0xED, 0xA0, 0x80, 0x22],  // UTF-8 encoded surrogate U+D800
        [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22],  // above U+10FFFF
        [0x22, 0xE2, 0x82, 0x22],  // truncated sequence
        [0x22, 0x80, 0x22],  // stray continuation byte
        [0xEF, 0xBB, 0xBF, 0x31],  // byte order mark before the value
    ] as [[UInt8]])
    func rejectsInvalidUTF8(bytes: [UInt8]) {
        #expect(throws: JSONParseError.self) { try JSONParser.parse(bytes) }
    }

    @Test func acceptsValidUTF8Bytes() throws {
        let bytes: [UInt8] = [0x22, 0xC3, 0xA9, 0xE2, 0x82, 0xAC, 0xF0, 0x9F, 0x98, 0x80, 0xF4, 0x8F, 0xBF, 0xBF, 0x22]
        #expect(try JSONParser.parse(bytes) == .string("é€😀\u{10FFFF}"))
    }

    @Test func rejectsDuplicateKeys() throws {
        #expect(throws: JSONParseError.self) { try JSONParser.parse(#"{"a":1,"a":2}"#) }
        #expect(throws: JSONParseError.self) { try JSONParser.parse(#"{"a":1,"\u0061":2}"#) }
        let many = (0..<20).map { "\"k\($0)\":\($0)" }.joined(separator: ",")
        #expect(throws: JSONParseError.self) { try JSONParser.parse("{\(many),\"k7\":0}") }
        #expect(try JSONParser.parse("{\(many)}").objectValue?.count == 20)
    }

    @Test func limitsNestingDepth() throws {
        let deepest = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        #expect(try JSONParser.parse(deepest).arrayValue != nil)
        let tooDeep = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
        #expect(throws: JSONParseError.self) { try JSONParser.parse(tooDeep) }
        let objects = String(repeating: "{\"a\":", count: 65) + "1" + String(repeating: "}", count: 65)
        #expect(throws: JSONParseError.self) { try JSONParser.parse(objects) }
        let hostile = String(repeating: "[", count: 100_000)
        #expect(throws: JSONParseError.self) { try JSONParser.parse(hostile) }
    }

    @Test func reportsWhereTheProblemIs() {
        do {
            _ = try JSONParser.parse(#"{"a": tru}"#)
            Issue.record("expected an error")
        } catch {
            #expect(error.offset == 6)
            #expect(error.description.contains("byte 6"))
        }
    }

    @Test func parsesNonContiguousCollections() throws {
        let bytes = Array(#"{"a":[1,"x"]}"#.utf8)
        #expect(try JSONParser.parse(bytes.lazy.map { $0 }) == ["a": [1, "x"]])
    }
}
