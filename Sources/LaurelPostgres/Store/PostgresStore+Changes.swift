import Foundation
import LaurelCore
import LaurelJSON
import LaurelStore

/// A session catching up with writes committed elsewhere: one statement outside a transaction (a single statement
/// sees one snapshot), `laurel.changes_since` (sql/functions), a function so that its plan is made once per
/// connection.
extension PostgresStore {
    static func changes(
        of user: UserID, since position: StoredPosition, periods: [ChallengeBook.Period], on connection: PostgresConnection
    ) throws -> ProgressChanges? {
        var held = JSONWriter()
        held.beginArray()
        for period in periods {
            held.beginObject()
            held.field("period", period.kind.rawValue)
            held.field("start", period.start.description)
            held.endObject()
        }
        held.endArray()
        let rows = try connection.query(
            "SELECT * FROM laurel.changes_since($1::bigint, $2::bigint, $3::bigint, $4::bigint, $5::bigint, $6::jsonb)",
            [.int(Int(user.rawValue)), .int(Int(position.version)), .int(Int(position.seqs.log)), .int(Int(position.seqs.lesson)),
             .int(Int(position.seqs.event)), .text(held.text)])
        guard let first = rows.first else { throw StoreError.unknownUser }
        guard try first.bool("addable") else { return nil }
        var logs: [LoggedFact] = []
        var lessons: [LessonCompletion] = []
        var events: [ReportedEvent] = []
        var seqs = position.seqs
        for row in rows {
            guard let kind = row["kind"] else { continue }
            let seq = Int64(try row.int("seq"))
            switch kind {
            case "log":
                logs.append(try PostgresUserReader.fact(row))
                seqs.log = max(seqs.log, seq)
            case "lesson":
                lessons.append(LessonCompletion(lesson: try row.string("lesson_id"), category: try row.string("category"), day: try row.localDay("day")))
                seqs.lesson = max(seqs.lesson, seq)
            default:
                events.append(ReportedEvent(name: try row.string("lesson_id"), at: PostgresTimestamp.date(microseconds: try row.int("at_us"))))
                seqs.event = max(seqs.event, seq)
            }
        }
        return ProgressChanges(
            version: Int64(try first.int("version")), lastSeq: Int64(try first.int("last_seq")), logs: logs, lessons: lessons, events: events,
            seqs: seqs, unlocks: try moments(first.string("unlocks")), challenges: try challenges(JSONParser.parse(first.string("challenges")).arrayValue ?? [], of: periods),
            figures: try PostgresUserReader.figures(first), allowance: try PostgresUserReader.allowance(first),
            latestScores: try PostgresUserReader.latestScores(first))
    }

    /// Stored challenges from the JSON the statement makes of their rows, by period: every period asked about (empty
    /// when nothing is stored for it) and every period a row names.
    static func challenges(_ rows: [JSONValue], of periods: [ChallengeBook.Period]) throws -> [ChallengeBook.Period: [StoredChallenge]] {
        var byPeriod = Dictionary(uniqueKeysWithValues: periods.map { ($0, [StoredChallenge]()) })
        for value in rows {
            let row = value.objectValue ?? [:]
            guard let kindOfPeriod = row["period"]?.stringValue.flatMap(ChallengePeriod.init(rawValue:)),
                  let kind = row["kind"]?.stringValue.flatMap(ChallengeKind.init(rawValue:)),
                  let start = row["start"]?.stringValue.flatMap({ LocalDay($0) }),
                  let slot = row["slot"]?.intValue, let title = row["title"]?.stringValue, let target = row["target"]?.intValue,
                  let xp = row["xp"]?.intValue else { throw StoreError.failed("a stored challenge could not be read") }
            let choice = ChallengeChoice(
                slot: slot, kind: kind, period: kindOfPeriod, periodStart: start, target: target, xp: xp, title: title,
                activity: row["activity_id"]?.stringValue, hour: row["hour"]?.intValue)
            let completed = row["completed_us"]?.intValue.map(PostgresTimestamp.date(microseconds:))
            byPeriod[ChallengeBook.Period(kindOfPeriod, start: start), default: []].append(StoredChallenge(choice: choice, completedAt: completed))
        }
        return byPeriod.mapValues { $0.sorted { $0.choice.slot < $1.choice.slot } }
    }

    /// A JSON object of microsecond timestamps by name, as `json_object_agg` makes it.
    private static func moments(_ text: String) throws -> [String: Date] {
        var moments: [String: Date] = [:]
        for (name, micros) in try JSONParser.parse(text).objectValue ?? [:] {
            guard let micros = micros.intValue else { throw StoreError.failed("an unlock time could not be read") }
            moments[name] = PostgresTimestamp.date(microseconds: micros)
        }
        return moments
    }
}
