import Foundation
import LaurelJSON

/// A JSON value kept whole, as its text and parsed: the answer of ACCOUNT.EXPORT, whose shape is everything the
/// server stores about the user. As a request's answer it keeps the server's text exactly; nested in another
/// answer, its text is the value written again (same value, members maybe in another order).
public struct RawJSON: Decodable, Sendable, Equatable {
    /// The JSON text.
    public let text: String
    /// The value, with LaurelJSON's distinction of integers and other numbers.
    public let value: JSONValue

    /// Parses `text`; throws when it is not one JSON value.
    public init(text: String) throws {
        value = try JSONParser.parse(text)
        self.text = text
    }

    public init(from decoder: any Decoder) throws {
        value = try Node(from: decoder).value
        text = value.serialized()
    }

    /// Equal when the values are, whatever the spacing or order of members of their texts.
    public static func == (lhs: RawJSON, rhs: RawJSON) -> Bool { lhs.value == rhs.value }

    /// Any JSON value read through a `Decoder`.
    private struct Node: Decodable {
        var value: JSONValue

        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        init(from decoder: any Decoder) throws {
            if let container = try? decoder.container(keyedBy: Key.self) {
                var object = JSONObject()
                for key in container.allKeys { object[key.stringValue] = try container.decode(Node.self, forKey: key).value }
                value = .object(object)
            } else if var container = try? decoder.unkeyedContainer() {
                var array: [JSONValue] = []
                while !container.isAtEnd { array.append(try container.decode(Node.self).value) }
                value = .array(array)
            } else {
                let single = try decoder.singleValueContainer()
                if single.decodeNil() {
                    value = .null
                } else if let bool = try? single.decode(Bool.self) {
                    value = .bool(bool)
                } else if let int = try? single.decode(Int.self) {
                    value = .int(int)
                } else if let double = try? single.decode(Double.self) {
                    value = .double(double)
                } else {
                    value = .string(try single.decode(String.self))
                }
            }
        }
    }
}
