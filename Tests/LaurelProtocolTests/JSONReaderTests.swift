import LaurelJSON
import Testing

/// The reader that walks a document value by value: what it reads is what the parser's tree holds, it is as strict
/// about the text, and a value of another kind than the one asked for is read as nil and passed over.
@Suite struct JSONReaderTests {
    /// Reads any document back into a tree by walking it: what a reader of a known shape does, member by member.
    static func walk(_ reader: inout JSONReader, _ sample: JSONValue) throws(JSONParseError) -> JSONValue {
        switch sample {
        case .object(let members):
            #expect(try reader.beginObjectIfPresent())
            var object = JSONObject()
            while let key = try reader.nextKey() {
                object[key] = try walk(&reader, members[key] ?? .null)
            }
            return .object(object)
        case .array(let elements):
            #expect(try reader.beginArrayIfPresent())
            var array: [JSONValue] = []
            while try reader.nextElement() { array.append(try walk(&reader, elements[array.count])) }
            return .array(array)
        case .string: return try reader.string().map(JSONValue.string) ?? .null
        case .int: return try reader.int().map(JSONValue.int) ?? .null
        case .double: return try reader.double().map(JSONValue.double) ?? .null
        case .bool: return try reader.bool().map(JSONValue.bool) ?? .null
        case .null:
            #expect(try reader.takeNull())
            return .null
        }
    }

    @Test(arguments: [
        #"{"b":[1,2,{"c":null}],"a":{},"e":[],"s":"x\"y\u00e9","d":-2.5e3,"t":true,"f":false}"#,
        " [ 1 , [ ] , { } , \"a\" , { \"k\" : [ null ] } ] ",
        #""just a string""#, "7", "[[[[]]]]",
    ])
    func whatItReadsIsWhatTheParserReads(_ text: String) throws {
        let tree = try JSONParser.parse(text)
        #expect(try JSONReader.read(text) { reader throws(JSONParseError) in try Self.walk(&reader, tree) } == tree)
        #expect(try JSONReader.read(text) { reader throws(JSONParseError) in try reader.value() } == tree)
    }

    @Test(arguments: [
        "[1 2]", "[,1]", "[1,]", #"{"a":1,}"#, #"{,"a":1}"#, #"{"a":1 "b":2}"#, #"{"a" 1}"#, "[1", #"{"a":1"#, "[1] x", "[01]", "[\"\u{01}\"]",
    ])
    func textThatIsNotJSONThrowsAsTheParserDoes(_ text: String) {
        #expect(throws: JSONParseError.self) { try JSONParser.parse(text) }
        #expect(throws: JSONParseError.self) {
            try JSONReader.read(text) { reader throws(JSONParseError) in
                // Walks whatever comes: containers entered, everything else passed over.
                func skipAll(_ reader: inout JSONReader) throws(JSONParseError) {
                    if try reader.beginArrayIfPresent() {
                        while try reader.nextElement() { try skipAll(&reader) }
                    } else if try reader.beginObjectIfPresent() {
                        while try reader.nextKey() != nil { try skipAll(&reader) }
                    }
                }
                try skipAll(&reader)
            }
        }
    }

    /// A value of another kind than the one asked for is nil and passed over whole: the reader goes on after it.
    @Test func aValueOfAnotherKindIsNilAndPassedOver() throws {
        let read = try JSONReader.read(#"[{"n":[1,"]"]}, "7", 2.5, 8, null, [true]]"#) { reader throws(JSONParseError) in
            var read: [String] = []
            #expect(try reader.beginArrayIfPresent())
            #expect(try reader.nextElement())
            read.append("\(String(describing: try reader.int()))")
            #expect(try reader.nextElement())
            read.append("\(String(describing: try reader.int()))")
            #expect(try reader.nextElement())
            read.append("\(String(describing: try reader.int()))")
            #expect(try reader.nextElement())
            read.append("\(String(describing: try reader.string()))")
            #expect(try reader.nextElement())
            read.append("\(try reader.beginObjectIfPresent())")
            #expect(try reader.nextElement())
            read.append("\(String(describing: try reader.bool()))")
            #expect(try !reader.nextElement())
            return read
        }
        #expect(read == ["nil", "nil", "nil", "nil", "false", "nil"])
    }

    @Test func aDocumentIsReadToItsEnd() {
        #expect(throws: JSONParseError.self) { try JSONReader.read("[1] [2]") { reader throws(JSONParseError) in try reader.skipValue() } }
        #expect(throws: JSONParseError.self) {
            try JSONReader.read("[1,2]") { reader throws(JSONParseError) in
                _ = try reader.beginArrayIfPresent()
                _ = try reader.nextElement()
                _ = try reader.int()
            }
        }
        let deep = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
        let error = #expect(throws: JSONParseError.self) {
            try JSONReader.read(deep) { reader throws(JSONParseError) in
                while try reader.beginArrayIfPresent() {}
            }
        }
        #expect(error?.reason.contains("nesting") == true)
    }

    /// A string passed over is checked as the parser checks one: escapes, control characters, UTF-8 and its end.
    @Test func aSkippedStringIsCheckedAsAParsedOneIs() throws {
        let read = try JSONReader.read(#"["plain","é🎉","a\"b\u00e9",{"k":"\\"},"last"]"#) { reader throws(JSONParseError) in
            var last: String?
            try reader.beginArray()
            for _ in 0..<4 {
                #expect(try reader.nextElement())
                try reader.skipValue()
            }
            #expect(try reader.nextElement())
            last = try reader.string()
            #expect(try !reader.nextElement())
            return last
        }
        #expect(read == "last")
        for bad in [#"["abc]"#, "[\"a\u{01}b\"]", #"["bad \x"]"#, #"["\ud800"]"#] {
            #expect(throws: JSONParseError.self, "\(bad)") {
                try JSONReader.read(bad) { reader throws(JSONParseError) in
                    try reader.beginArray()
                    while try reader.nextElement() { try reader.skipValue() }
                }
            }
        }
        let invalidUTF8: [UInt8] = Array(#"[""#.utf8) + [0xC3, 0x28] + Array(#""]"#.utf8)
        #expect(throws: JSONParseError.self) {
            try invalidUTF8.withUnsafeBufferPointer { bytes throws(JSONParseError) in
                try JSONReader.read(utf8: bytes) { reader throws(JSONParseError) in try reader.skipValue() }
            }
        }
    }

    /// A key is matched with the keys a reader knows as it stands in the text, escaped or not.
    @Test func keysMatchTheLiteralsTheyStandFor() throws {
        let matched = try JSONReader.read(#"{"xp":1,"x\u0070":2,"level":3,"lével":4,"xpx":5}"#) { reader throws(JSONParseError) in
            var matched: [String] = []
            try reader.beginObject()
            while let key = try reader.nextMember() {
                switch key {
                case "xp": matched.append("xp")
                case "level": matched.append("level")
                default: matched.append("other " + key.string)
                }
                try reader.skipValue()
            }
            return matched
        }
        #expect(matched == ["xp", "xp", "level", "other lével", "other xpx"])
    }
}
