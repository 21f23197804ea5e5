import LaurelJSON
import Testing

@Suite struct JSONSerializationTests {
    @Test func writesCompactlyInInsertionOrder() {
        var object: JSONObject = ["z": 1, "a": [true, false, nil]]
        object["m"] = "text"
        object["z"] = 2
        #expect(JSONValue.object(object).serialized() == #"{"z":2,"a":[true,false,null],"m":"text"}"#)
    }

    @Test func escapesStrings() {
        let value = JSONValue.string("quote\" back\\ nl\n cr\r tab\t bell\u{07} nul\u{00} del\u{7F} é 😀 /")
        #expect(value.serialized() == #""quote\" back\\ nl\n cr\r tab\t bell\u0007 nul\u0000 del\#u{7F} é 😀 /""#)
    }

    @Test(arguments: [
        (JSONValue.int(0), "0"), (.int(-7), "-7"), (.int(Int.max), "9223372036854775807"),
        (.int(Int.min), "-9223372036854775808"), (.double(1), "1.0"), (.double(0.1), "0.1"),
        (.double(-2.5e-8), "-2.5e-08"), (.double(1e300), "1e+300"), (.double(.infinity), "null"),
        (.double(.nan), "null"),
    ])
    func writesNumbers(value: JSONValue, text: String) {
        #expect(value.serialized() == text)
    }

    @Test(arguments: [0.1, 1.0 / 3.0, 123_456_789.123_456_78, 1.7976931348623157e308, -0.0, 1e21, 2e-7, .leastNonzeroMagnitude])
    func doublesRoundTrip(number: Double) throws {
        let parsed = try JSONParser.parse(JSONValue.double(number).serialized())
        #expect(parsed == .double(number))
    }

    @Test func documentsRoundTrip() throws {
        let original: JSONValue = [
            "name": "Ada \"the\" 😀\n", "n": -12, "x": 0.5, "ok": true, "nothing": nil,
            "list": [1, [2, [3, ["deep": "yes"]]]], "empty": [:], "control": "\u{01}\u{1F}",
        ]
        let text = original.serialized()
        #expect(try JSONParser.parse(text) == original)
        #expect(try JSONParser.parse(text).serialized() == text)
        var bytes: [UInt8] = Array("prefix ".utf8)
        original.write(into: &bytes)
        #expect(bytes == Array(("prefix " + text).utf8))
    }

    @Test func objectEqualityIgnoresOrder() {
        let first: JSONObject = ["a": 1, "b": 2]
        let second: JSONObject = ["b": 2, "a": 1]
        #expect(first == second)
        #expect(first.hashValue == second.hashValue)
        #expect(first != ["a": 1, "b": 3])
        #expect(first != ["a": 1])
        #expect(JSONValue.int(1) != JSONValue.double(1))
    }

    @Test func objectEditing() {
        var object = JSONObject()
        #expect(object.isEmpty)
        for index in 0..<30 {
            object["k\(index)"] = .int(index)
        }
        #expect(object.count == 30)
        object["k3"] = nil
        object["k20"] = nil
        object["missing"] = nil
        #expect(object.count == 28)
        #expect(object["k3"] == nil)
        #expect(object["k29"] == 29)
        #expect(object.keys.first == "k0")
        #expect(!object.keys.contains("k20"))
        object["k0"] = "changed"
        #expect(object.keys.first == "k0")
        #expect(object.map(\.key).count == 28)
        for index in 4..<29 where index != 20 {
            object["k\(index)"] = nil
        }
        #expect(object.keys == ["k0", "k1", "k2", "k29"])
        #expect(object["k29"] == 29)
    }

    @Test func convenienceAccessors() {
        let value: JSONValue = ["s": "x", "i": 3, "d": 2.5, "b": true, "a": [1], "o": ["k": nil]]
        #expect(value["s"]?.stringValue == "x")
        #expect(value["i"]?.intValue == 3)
        #expect(value["i"]?.doubleValue == 3)
        #expect(value["d"]?.intValue == nil)
        #expect(value["d"]?.doubleValue == 2.5)
        #expect(value["b"]?.boolValue == true)
        #expect(value["a"]?.arrayValue == [1])
        #expect(value["o"]?.objectValue?["k"]?.isNull == true)
        #expect(value["missing"] == nil)
        #expect(value.stringValue == nil)
    }
}
