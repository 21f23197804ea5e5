import Foundation
import LaurelCore
import LaurelJSON
import LaurelStore

/// A notification of commits (`committed` for the functions' commits, `written` for users' writes, both made by
/// `laurel.announce_commits`) read member by member from its bytes: for each user, the version and last push seq the
/// commit left, and, for a write that announced them, its change and pushes (``AnnouncedChangeJSON``). Of this
/// process's own commits only where the users stand is read: what they announce was decided here, and their pushes
/// are delivered here by the writes themselves.
enum CommitNotification {
    /// The events of `payload` when it is a notification of commits; nil when it is another event (the notification
    /// names its event first, as `laurel.announce_commits` writes it). Throws for text that is not JSON.
    static func events(_ payload: String, ownCommits: Bool) throws(JSONParseError) -> [StoreEvent]? {
        try JSONReader.read(payload) { reader throws(JSONParseError) -> [StoreEvent]? in
            try reader.beginObject()
            guard let first = try reader.nextMember() else { return nil }
            let namesEvent = first == "event"
            let name = namesEvent ? try reader.string() : nil
            guard name == "committed" || name == "written" else {
                if !namesEvent { try reader.skipValue() }
                while try reader.nextMember() != nil { try reader.skipValue() }
                return nil
            }
            // Written and not this process's own: another instance's sessions decided these writes.
            var events: [StoreEvent] = name == "written" && !ownCommits ? [.instanceElsewhere(greeting: false)] : []
            // The transaction's time, which its pushes were stored with: without it, announced pushes are read back.
            var at: Date?
            var users = false
            while let key = try reader.nextMember() {
                switch key {
                case "at_us":
                    at = try reader.int().map(PostgresTimestamp.date(microseconds:))
                case "users":
                    guard try reader.beginArrayIfPresent() else { continue }
                    users = true
                    while try reader.nextElement() {
                        if let commit = try Self.commit(from: &reader, at: at, ownCommits: ownCommits) { events.append(commit) }
                    }
                default:
                    try reader.skipValue()
                }
            }
            guard users else { throw JSONParseError(offset: 0, reason: "a notification of commits without its users") }
            return events
        }
    }

    /// One user's commit: `[user_id, version, last_seq]`, or `[user_id, version, last_seq, fact_seq, announcement]`
    /// for a write that announced its change or its pushes; nil (left out) in any other shape.
    private static func commit(from reader: inout JSONReader, at: Date?, ownCommits: Bool) throws(JSONParseError) -> StoreEvent? {
        guard try reader.beginArrayIfPresent() else { return nil }
        var (user, version, lastSeq, factSeq): (Int?, Int?, Int?, Int?)
        var announced: (change: AnnouncedChange?, pushes: [StoredPush])?
        var count = 0
        while try reader.nextElement() {
            count += 1
            switch count {
            case 1: user = try reader.int()
            case 2: version = try reader.int()
            case 3: lastSeq = try reader.int()
            case 4: factSeq = try reader.int()
            case 5 where !ownCommits && lastSeq != nil:
                announced = try AnnouncedChangeJSON.read(
                    from: &reader, factSeq: factSeq.map(Int64.init), lastSeq: Int64(lastSeq ?? 0), at: at)
            default: try reader.skipValue()
            }
        }
        guard count == 3 || count == 5, let user, let version, let lastSeq else { return nil }
        guard let announced else { return .committed(UserID(Int64(user)), version: Int64(version), lastSeq: Int64(lastSeq)) }
        return .committed(
            UserID(Int64(user)), version: Int64(version), lastSeq: Int64(lastSeq), change: announced.change, pushes: announced.pushes)
    }
}
