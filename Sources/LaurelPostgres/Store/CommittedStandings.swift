import LaurelCore
import LaurelStore

/// Where the users of a `committed` notification stand (user, version, last push seq), read straight from its bytes,
/// each commit's announcement skipped by its brackets rather than parsed: all that a notification of this process's
/// own commits tells it (what they announce was decided here, and their pushes are delivered here by the writes
/// themselves). nil for a payload of any other shape, which the general reading takes.
enum CommittedStandings {
    static func read(_ payload: String) -> [StoreEvent]? {
        var payload = payload
        return payload.withUTF8 { bytes in
            var scanner = Scanner(bytes: bytes)
            guard scanner.take(#"{"event":"committed","#) else { return nil }
            if scanner.take(#""at_us":"#) {
                guard scanner.integer() != nil, scanner.take(",") else { return nil }
            }
            guard scanner.take(#""users":["#) else { return nil }
            var events: [StoreEvent] = []
            repeat {
                guard scanner.take("["), let user = scanner.integer(), scanner.separator(), let version = scanner.integer(),
                      scanner.separator(), let lastSeq = scanner.integer() else { return nil }
                // [user, version, last_seq, fact_seq, announcement]: the last two skipped.
                if scanner.separator() {
                    guard scanner.skipValue(), scanner.separator(), scanner.skipValue() else { return nil }
                }
                guard scanner.take("]") else { return nil }
                events.append(.committed(UserID(user), version: version, lastSeq: lastSeq))
            } while scanner.separator()
            guard scanner.take("]}"), scanner.isAtEnd else { return nil }
            return events
        }
    }

    private struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        var isAtEnd: Bool { index == bytes.count }

        /// Takes `literal` if the bytes go on with it.
        mutating func take(_ literal: StaticString) -> Bool {
            let count = literal.utf8CodeUnitCount
            guard bytes.count - index >= count else { return false }
            let matches = literal.withUTF8Buffer { expected in
                expected.indices.allSatisfy { bytes[index + $0] == expected[$0] }
            }
            if matches { index += count }
            return matches
        }

        /// A comma, and the space PostgreSQL's own JSON puts after it.
        mutating func separator() -> Bool {
            guard take(",") else { return false }
            _ = take(" ")
            return true
        }

        /// A whole number (as the store writes ids, versions and seqs: no fraction, no exponent).
        mutating func integer() -> Int64? {
            let negative = take("-")
            var value: Int64 = 0
            let start = index
            while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9"), index - start < 18 {
                value = value * 10 + Int64(bytes[index] - UInt8(ascii: "0"))
                index += 1
            }
            guard index > start else { return nil }
            return negative ? -value : value
        }

        /// Passes over one JSON value (a scalar, or an object or array to its matching bracket, strings and their
        /// escapes included) without reading it. False if the bytes end first.
        mutating func skipValue() -> Bool {
            var depth = 0
            let start = index
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "\""):
                    index += 1
                    while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                        index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
                    }
                    guard index < bytes.count else { return false }
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    guard depth > 0 else { return index > start }
                    depth -= 1
                    if depth == 0 {
                        index += 1
                        return true
                    }
                case UInt8(ascii: ","):
                    if depth == 0 { return index > start }
                default:
                    break
                }
                index += 1
            }
            return false
        }
    }
}
