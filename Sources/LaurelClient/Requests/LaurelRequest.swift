import Foundation
import LaurelProtocol

/// A request of the protocol with its typed answer: `verb` and the request's own fields as the argument object.
/// Each verb of protocol.md has one (see the files beside this one).
public protocol LaurelRequest: Encodable, Sendable {
    associatedtype Answer: Decodable & Sendable
    static var verb: String { get }
}

/// The answer of a verb that answers `OK` with nothing to read.
public struct Done: Decodable, Sendable, Equatable {
    public init() {}
    public init(from decoder: any Decoder) throws {}
}

/// The JSON coding every request and answer goes through: RFC 3339 timestamps (UTC, to the millisecond, as the
/// server writes them). Field names are the models' own `CodingKeys` (snake_case on the wire): a key strategy would
/// also rename the keys of maps such as `by_activity`, whose keys are ids.
enum WireCoding {
    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(Timestamp.format(date))
        }
        return encoder
    }

    static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = Timestamp.parse(text) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "not an RFC 3339 timestamp: \(text)")
            }
            return date
        }
        return decoder
    }

    /// `TAG VERB {argument}`.
    static func line(tag: String, verb: String, argument: some Encodable) throws -> String {
        let json = String(decoding: try encoder().encode(argument), as: UTF8.self)
        return "\(tag) \(verb) \(json)"
    }
}
