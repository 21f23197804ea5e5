import LaurelJSON
import NIOCore

/// Parses the grammar of a request line (protocol.md, "Requests, responses, pushes").
///
/// A line whose tag is missing or malformed fails with tag `*` and `bad_request`; so does a line of a
/// single word, which could be a verb without a tag as much as a tag without a verb. With a good tag, a
/// malformed verb, a separator other than one space, an argument that is not a single JSON object
/// (an array, trailing bytes, invalid JSON or invalid UTF-8) are `bad_request` under that tag, and a
/// well-formed verb the parser is not told of is `unknown_verb` with the verb as sent in `details.verb`.
/// The argument must start right after the single space; whitespace after the object is allowed, as in JSON.
///
/// The parser knows the grammar, not the verbs: the server's verb table tells it which verbs exist.
public struct RequestLineParser: Sendable {
    /// The longest tag accepted, in characters.
    public static let maximumTagLength = 32
    /// The longest verb that is still answered `unknown_verb` (and echoed); longer ones are `bad_request`.
    /// The longest real verb has 16 characters.
    static let maximumVerbLength = 32

    /// The verbs answered, in upper case.
    public let knownVerbs: Set<String>
    /// The same verbs by their length in bytes, as their bytes and their name: a verb sent (ASCII letters, digits and
    /// dots, ``verbEnd(in:afterTagEndingAt:)``) is found by comparing bytes, without a string made of it, upper-cased
    /// and hashed first.
    private let verbsByLength: [[(bytes: [UInt8], name: String)]]

    public init(knownVerbs: Set<String>) {
        self.knownVerbs = knownVerbs
        var byLength = [[(bytes: [UInt8], name: String)]](repeating: [], count: Self.maximumVerbLength + 1)
        for verb in knownVerbs.sorted() where verb.utf8.count <= Self.maximumVerbLength {
            byLength[verb.utf8.count].append((Array(verb.utf8), verb))
        }
        verbsByLength = byLength
    }

    /// Splits a line (without its line ending) into tag, verb and argument.
    public func parse(_ line: ByteBuffer) -> Result<RequestLine, TaggedProtocolError> {
        Result { () throws(TaggedProtocolError) in try requestLine(line) }
    }

    /// Splits a line (without its line ending) into tag, verb and argument.
    public func parse(_ line: [UInt8]) -> Result<RequestLine, TaggedProtocolError> {
        line.withUnsafeBufferPointer { bytes in Result { () throws(TaggedProtocolError) in try parse(bytes) } }
    }

    /// The same as ``parse(_:)-(ByteBuffer)``, the line returned and the refusal thrown: the server's reading of every
    /// request. (A `Result` of the two, left to its caller, was destroyed through the run-time type of its
    /// generic enum, some 400 instructions a request.)
    public func requestLine(_ line: ByteBuffer) throws(TaggedProtocolError) -> RequestLine {
        var refusal: TaggedProtocolError?
        let parsed: RequestLine? = line.withUnsafeReadableBytes { bytes in
            do throws(TaggedProtocolError) {
                return try parse(UnsafeBufferPointer(start: bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), count: bytes.count))
            } catch {
                refusal = error
                return nil
            }
        }
        guard let parsed else { throw refusal! }
        return parsed
    }

    private func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(TaggedProtocolError) -> RequestLine {
        guard let tagEnd = Self.tagEnd(in: bytes) else {
            throw TaggedProtocolError(tag: "*", error: .badRequest("missing or malformed tag"))
        }
        let tag = String(decoding: UnsafeBufferPointer(rebasing: bytes[..<tagEnd]), as: UTF8.self)
        func failure(_ error: ProtocolError) -> TaggedProtocolError {
            TaggedProtocolError(tag: tag, error: error)
        }

        guard let verbEnd = Self.verbEnd(in: bytes, afterTagEndingAt: tagEnd) else {
            throw failure(.badRequest("missing or malformed verb"))
        }
        let verbBytes = UnsafeBufferPointer(rebasing: bytes[(tagEnd + 1)..<verbEnd])
        guard let verb = knownVerb(sentAs: verbBytes) else {
            throw failure(.unknownVerb(String(decoding: verbBytes, as: UTF8.self)))
        }

        guard verbEnd < bytes.count else {
            return RequestLine(tag: tag, verb: verb)
        }
        let argumentBytes = UnsafeBufferPointer(rebasing: bytes[(verbEnd + 1)...])
        guard argumentBytes.first == UInt8(ascii: "{") else {
            throw failure(.badRequest("the argument must be a JSON object after a single space"))
        }
        if verb == "LOG", let log = LogArgumentScanner.scan(argumentBytes) {
            return RequestLine(tag: tag, verb: verb, log: log)
        }
        let argument: JSONValue
        do throws(JSONParseError) {
            argument = try JSONParser.parse(argumentBytes)
        } catch {
            throw failure(.badRequest("the argument is not valid JSON: \(error.reason) at byte \(verbEnd + 1 + error.offset)"))
        }
        guard case .object(let object) = argument else {
            throw failure(.badRequest("the argument must be a JSON object"))
        }
        return RequestLine(tag: tag, verb: verb, argument: object)
    }

    /// The known verb `sent` spells, letters in either case.
    private func knownVerb(sentAs sent: UnsafeBufferPointer<UInt8>) -> String? {
        guard sent.count < verbsByLength.count else { return nil }
        candidates: for candidate in verbsByLength[sent.count] {
            for index in sent.indices {
                let byte = sent[index]
                let upper = byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") ? byte - 32 : byte
                guard upper == candidate.bytes[index] else { continue candidates }
            }
            return candidate.name
        }
        return nil
    }

    /// The verb of `line`, in upper case, when its tag and verb are well formed (the argument unread): a look at a
    /// request before it is parsed whole, as ``parse(_:)`` would name it.
    public static func verb(of line: ByteBuffer) -> String? {
        line.withUnsafeReadableBytes { raw in
            let bytes = UnsafeBufferPointer(start: raw.baseAddress?.assumingMemoryBound(to: UInt8.self), count: raw.count)
            guard let tagEnd = tagEnd(in: bytes), let verbEnd = verbEnd(in: bytes, afterTagEndingAt: tagEnd) else { return nil }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[(tagEnd + 1)..<verbEnd]), as: UTF8.self).uppercased()
        }
    }

    /// Where a well-formed tag ends (the space after it). A line of one word has no tag: the word may as well be a
    /// verb typed without one.
    private static func tagEnd(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let tagEnd = bytes.firstIndex(of: UInt8(ascii: " ")),
            (1...maximumTagLength).contains(tagEnd), bytes[..<tagEnd].allSatisfy(isTagByte)
        else { return nil }
        return tagEnd
    }

    /// Where a well-formed verb after the tag ends (the space after it, or the line's end).
    private static func verbEnd(in bytes: UnsafeBufferPointer<UInt8>, afterTagEndingAt tagEnd: Int) -> Int? {
        let verbStart = tagEnd + 1
        let verbEnd = bytes[verbStart...].firstIndex(of: UInt8(ascii: " ")) ?? bytes.count
        let verbBytes = bytes[verbStart..<verbEnd]
        guard (1...maximumVerbLength).contains(verbBytes.count), verbBytes.allSatisfy(isVerbByte) else { return nil }
        return verbEnd
    }

    private static func isTagByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: ":"), UInt8(ascii: "-"):
            true
        default:
            false
        }
    }

    private static func isVerbByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."):
            true
        default:
            false
        }
    }
}
