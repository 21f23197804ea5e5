import LaurelCore
import LaurelJSON
import LaurelStore

/// Where the users of a `committed` notification stand (user, version, last push seq), read straight from its bytes,
/// each commit's announcement skipped by its brackets rather than parsed: all that a notification of this process's
/// own commits tells it (what they announce was decided here, and their pushes are delivered here by the writes
/// themselves). nil for a payload of any other shape, which the general reading takes.
enum CommittedStandings {
    static func read(_ payload: String) -> [StoreEvent]? {
        var payload = payload
        return payload.withUTF8 { bytes in
            var scanner = JSONByteCursor(bytes: bytes)
            guard scanner.take(#"{"event":"committed","#) else { return nil }
            if scanner.take(#""at_us":"#) {
                guard scanner.integer() != nil, scanner.take(UInt8(ascii: ",")) else { return nil }
            }
            guard scanner.take(#""users":["#) else { return nil }
            var events: [StoreEvent] = []
            repeat {
                guard scanner.take(UInt8(ascii: "[")), let user = scanner.integer(), scanner.separator(), let version = scanner.integer(),
                      scanner.separator(), let lastSeq = scanner.integer() else { return nil }
                // [user, version, last_seq, fact_seq, announcement]: the last two skipped.
                if scanner.separator() {
                    guard scanner.skipValue(), scanner.separator(), scanner.skipValue() else { return nil }
                }
                guard scanner.take(UInt8(ascii: "]")) else { return nil }
                events.append(.committed(UserID(user), version: version, lastSeq: lastSeq))
            } while scanner.separator()
            guard scanner.take("]}"), scanner.atEnd else { return nil }
            return events
        }
    }
}

/// What a notification's standings are read with, beyond the cursor's own.
extension JSONByteCursor {
    /// A comma, and the space PostgreSQL's own JSON puts after it.
    fileprivate mutating func separator() -> Bool {
        guard take(UInt8(ascii: ",")) else { return false }
        _ = take(UInt8(ascii: " "))
        return true
    }

    /// A whole number (as the store writes ids, versions and seqs: no fraction, no exponent).
    fileprivate mutating func integer() -> Int64? {
        let negative = take(UInt8(ascii: "-"))
        guard let value = digits(atMost: 18) else { return nil }
        return negative ? -value : value
    }
}
