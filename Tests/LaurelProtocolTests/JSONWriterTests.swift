import LaurelCore
import LaurelJSON
import LaurelTestSupport
import Testing

/// The writer the busiest answers and commits are written with must write what ``JSONValue/serialized()`` writes.
@Suite struct JSONWriterTests {
    @Test func writesMembersAndElementsWithTheirCommas() {
        var json = JSONWriter()
        json.beginObject()
        json.field("xp", 120)
        json.field("name", "a \"quoted\" name")
        json.field("secret", false)
        json.key("unlocked")
        json.beginArray()
        json.string("first")
        json.int(-3)
        json.null()
        json.beginObject()
        json.endObject()
        json.endArray()
        json.key(runtime: "tier\n2")
        json.double(0.5)
        json.endObject()
        #expect(json.text == #"{"xp":120,"name":"a \"quoted\" name","secret":false,"unlocked":["first",-3,null,{}],"tier\n2":0.5}"#)
        #expect(json.bytes == Array(json.text.utf8))
    }

    @Test func aByteToEscapeIsFoundWhereverItLies() {
        // Strings are looked at eight bytes at a time: each byte that is escaped, and bytes either side of those
        // ranges that are not, at every place of strings of 1 to 40 bytes (whole words, and a tail after them).
        let plain = Array("abcdefghijklmnopqrstuvwxyz0123456789ABCD")
        let bytes: [(String, String)] = [
            ("\"", #"\""#), ("\\", #"\\"#), ("\n", #"\n"#), ("\u{1F}", #"\u001f"#), ("\u{0}", #"\u0000"#), ("\u{1}", #"\u0001"#),
            (" ", " "), ("!", "!"), ("#", "#"), ("[", "["), ("]", "]"), ("\u{7F}", "\u{7F}"), ("é", "é"), ("ÿ", "ÿ"),
        ]
        for length in 1...plain.count {
            for place in 0..<length {
                for (byte, written) in bytes {
                    let before = String(plain[..<place]), after = String(plain[(place + 1)..<length])
                    var json = JSONWriter()
                    json.beginObject()
                    json.field("k", before + byte + after)
                    json.string(before + byte + after)
                    json.endObject()
                    let string = "\"" + before + written + after + "\""
                    #expect(json.text == "{\"k\":" + string + "," + string + "}", "\(byte.unicodeScalars.first!.value) at \(place) of \(length)")
                }
            }
        }
    }

    @Test func aWriterContinuingABufferWritesAfterItsBytesAndHandsItBack() {
        // Room after the bytes (zeros here) is written over; the bytes before are left as they are.
        var json = JSONWriter(continuing: Array("ab".utf8) + [0, 0, 0], count: 2)
        json.beginObject()
        json.key(runtime: "run\"s", after: "activity:")
        json.int(1_700_000_000_000_000)
        json.endObject()
        let (storage, count) = json.handBack()
        #expect(Array(storage.prefix(count)) == Array(#"ab{"activity:run\"s":1700000000000000}"#.utf8))
    }

    @Test func aCopyOfAWriterWritesOnItsOwn() {
        var first = JSONWriter(capacity: 1)
        first.beginArray()
        first.string("shared")
        var second = first
        first.int(1)
        second.int(2)
        second.string(String(repeating: "long ", count: 40))
        first.endArray()
        second.endArray()
        #expect(first.text == #"["shared",1]"#)
        #expect(second.text == #"["shared",2,""# + String(repeating: "long ", count: 40) + #""]"#)
    }

    @Test(arguments: [0, 9, 10, -1, -9, -10, 99, 100, 1_234_567_890, Int.max, Int.min, Int.min + 1])
    func writesIntegersAsTheTreeDoes(number: Int) {
        var json = JSONWriter(capacity: 1)
        json.int(number)
        #expect(json.text == JSONValue.int(number).serialized())
        #expect(json.text == String(number))
    }

    /// A number's length is worked out from its bit length before its digits are written in place: at every power of
    /// ten and either side of it, in an array (a comma before each but the first, written with it) and as a member.
    @Test func writesEveryLengthOfIntegerAroundEachPowerOfTen() {
        var numbers: [Int] = [Int.max, Int.min, Int.max - 1, Int.min + 1]
        var power = 1
        for _ in 0...18 {
            numbers += [power - 1, power, power + 1, -(power - 1), -power, -(power + 1)]
            power = power.multipliedReportingOverflow(by: 10).partialValue
        }
        var json = JSONWriter(capacity: 1)
        json.beginArray()
        for number in numbers { json.int(number) }
        json.endArray()
        #expect(json.text == "[" + numbers.map(String.init).joined(separator: ",") + "]")
        #expect(json.text == JSONValue.array(numbers.map(JSONValue.int)).serialized())
        var members = JSONWriter(capacity: 1)
        members.beginObject()
        for number in numbers { members.field("n", number) }
        members.endObject()
        #expect(members.text == "{" + numbers.map { "\"n\":\($0)" }.joined(separator: ",") + "}")
    }

    /// A pair of integers is an array of two, written as one, a comma before it where one goes.
    @Test func writesAPairAsAnArrayOfTwo() throws {
        var json = JSONWriter(capacity: 1)
        json.beginObject()
        json.key("a")
        json.pair(0, Int.min)
        json.key("b")
        json.pair(-7, 1_764_553_200_123_456)
        json.key("c")
        json.beginArray()
        json.pair(1, 2)
        json.pair(Int.max, 10)
        json.endArray()
        json.endObject()
        let expected: JSONValue = .object([
            "a": .array([.int(0), .int(Int.min)]), "b": .array([.int(-7), .int(1_764_553_200_123_456)]),
            "c": .array([.array([.int(1), .int(2)]), .array([.int(Int.max), .int(10)])]),
        ])
        #expect(json.text == #"{"a":[0,-9223372036854775808],"b":[-7,1764553200123456],"c":[[1,2],[9223372036854775807,10]]}"#)
        #expect(try JSONParser.parse(json.text) == expected)
    }

    /// Random trees, written member by member from a small capacity (so the bytes grow many times), against the tree's
    /// own text.
    @Test(arguments: 0..<40)
    func randomTreesReadTheSameAsTheirSerialization(seed: Int) {
        var random = SeededRandom(seed: UInt64(seed))
        let tree = Self.tree(&random, depth: 0)
        var json = JSONWriter(capacity: 1)
        Self.write(tree, into: &json)
        #expect(json.text == tree.serialized())
        var raw = JSONWriter(capacity: 1)
        raw.beginArray()
        raw.raw(tree.serialized())
        raw.raw(Array(tree.serialized().utf8))
        raw.value(tree)
        raw.endArray()
        #expect(raw.text == JSONValue.array([tree, tree, tree]).serialized())
    }

    /// Members whose name is in the source are written whole (comma, name and value at once): random objects of
    /// them read as their trees, values that need escaping and the widest numbers included.
    @Test(arguments: 0..<40)
    func membersWrittenWholeReadAsTheirTrees(seed: Int) {
        var random = SeededRandom(seed: UInt64(seed))
        var json = JSONWriter(capacity: 1)
        var object = JSONObject()
        json.beginArray()
        json.beginObject()
        for place in 0..<random.below(12) {
            let (name, text) = Self.names[place]
            switch random.below(3) {
            case 0:
                let number = [0, 7, 10, 99, 100, -1, -100, Int.max, Int.min, Int(bitPattern: UInt(random.next())) >> random.below(64)][random.below(10)]
                json.field(name, number)
                object[text] = .int(number)
            case 1:
                let string = (0..<random.below(4)).map { _ in Self.pieces[random.below(Self.pieces.count)] }.joined()
                json.field(name, string)
                object[text] = .string(string)
            default:
                json.key(name)
                json.raw(static: "\"fixed\"")
                object[text] = .string("fixed")
            }
        }
        json.endObject()
        json.int(1)
        json.endArray()
        let expected = JSONValue.array([.object(object), .int(1)]).serialized()
        #expect(json.text == expected)
        #expect(json.finish() == Array(expected.utf8))
    }

    /// A string that is JSON text itself (a push's data in an announcement: an escape every few bytes) reads back as
    /// itself, and as its tree writes it, however little room the writer started with.
    @Test(arguments: 0..<30)
    func textFullOfEscapesReadsBackAsItself(seed: Int) throws {
        var random = SeededRandom(seed: UInt64(seed))
        let pieces = ["{\"kind\":", "\"", "\\", "\n", "\r", "\t", "\u{08}", "\u{0C}", "\u{01}", "\u{1F}", "\u{7F}", "a", "é", "😀", "2026-11-29"]
        let text = (0..<random.below(300)).map { _ in pieces[random.below(pieces.count)] }.joined()
        var json = JSONWriter(capacity: 1)
        json.beginArray()
        json.string(text)
        json.int(random.below(100))
        json.string(text)
        json.endArray()
        let written = json.text
        let parsed = try JSONParser.parse(written)
        #expect(parsed.arrayValue?.first == .string(text))
        #expect(parsed.arrayValue?.last == .string(text))
        #expect(written == parsed.serialized())
    }

    /// Days are written in place as their description, years outside four digits included.
    @Test(arguments: [-719_528, -1, 0, 1, 20_419, 2_932_896, 2_932_897, -800_000, 5_000_000])
    func daysAreWrittenAsTheirDescription(dayNumber: Int) {
        let day = LocalDay(daysSince1970: dayNumber)
        var json = JSONWriter(capacity: 1)
        json.beginObject()
        json.field("day", day)
        json.field("none", ifPresent: nil as LocalDay?)
        json.key("days")
        json.beginArray()
        json.day(day)
        json.day(day)
        json.endArray()
        // A member after others (its comma written with it), and a literal one.
        json.field("again", day)
        json.field("on", true)
        json.endObject()
        let text = JSONValue.string(day.description).serialized()
        #expect(json.text == #"{"day":"# + text + #","days":["# + text + "," + text + #"],"again":"# + text + #","on":true}"#)
    }

    private static let names: [(StaticString, String)] = [
        ("xp", "xp"), ("level", "level"), ("day", "day"), ("a", "a"), ("user_id", "user_id"), ("current_streak", "current_streak"),
        ("b", "b"), ("c", "c"), ("note", "note"), ("at_us", "at_us"), ("unlocked", "unlocked"), ("total_logs", "total_logs"),
    ]

    private static func write(_ value: JSONValue, into json: inout JSONWriter) {
        switch value {
        case .null: json.null()
        case .bool(let flag): json.bool(flag)
        case .int(let number): json.int(number)
        case .double(let number): json.double(number)
        case .string(let text): json.string(text)
        case .array(let elements):
            json.beginArray()
            for element in elements { write(element, into: &json) }
            json.endArray()
        case .object(let object):
            json.beginObject()
            for (key, member) in object {
                json.key(runtime: key)
                write(member, into: &json)
            }
            json.endObject()
        }
    }

    private static let pieces = ["", "a", "pushups", "quote\"", "back\\slash", "line\nbreak", "tab\t", "\u{01}", "é", "😀", "2026-11-27"]

    private static func tree(_ random: inout SeededRandom, depth: Int) -> JSONValue {
        switch random.below(depth < 4 ? 8 : 6) {
        case 0: return .null
        case 1: return .bool(random.below(2) == 0)
        case 2: return .int(Int(bitPattern: UInt(random.next())) >> random.below(64))
        case 3: return .double(Double(random.below(1_000_000)) / 64)
        case 4, 5: return .string((0..<random.below(4)).map { _ in pieces[random.below(pieces.count)] }.joined())
        case 6: return .array((0..<random.below(5)).map { _ in tree(&random, depth: depth + 1) })
        default:
            var object = JSONObject()
            for index in 0..<random.below(5) { object[pieces[random.below(pieces.count)] + String(index)] = tree(&random, depth: depth + 1) }
            return .object(object)
        }
    }
}
