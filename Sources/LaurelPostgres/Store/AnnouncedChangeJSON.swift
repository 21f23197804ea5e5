import Foundation
import LaurelCore
import LaurelJSON
import LaurelStore

/// A write's ``AnnouncedChange`` as it travels: written by the instance that commits it into its part of the batch
/// (`announce`), handed on untouched by `laurel.commit_changes` in the `committed` notification, and read by every
/// instance that hears it. Times are whole microseconds and rows have the shapes the store's own reads give them, so
/// that the change added is the one a catch-up would read.
///
/// The same object carries the pushes the write stored (`"pushes": [[kind, data], ...]`, each push's data as the
/// JSON text stored, in seq order), whether or not it announces a change: the instances that hear it deliver them
/// without reading them back. An object without `figures` announces pushes alone.
enum AnnouncedChangeJSON {
    /// The announcement of a write: its change, when there is one to announce, and the pushes it stores.
    static func write(_ change: AnnouncedChange?, pushes: [PushDraft] = [], into json: inout JSONWriter) {
        json.beginObject()
        if let change { writeMembers(of: change, into: &json) }
        if !pushes.isEmpty {
            json.key("pushes")
            json.beginArray()
            for push in pushes {
                json.beginArray()
                json.string(push.kind.rawValue)
                json.string(push.data)
                json.endArray()
            }
            json.endArray()
        }
        json.endObject()
    }

    private static func writeMembers(of change: AnnouncedChange, into json: inout JSONWriter) {
        switch change.fact {
        case .log(let log):
            json.key("log")
            json.beginObject()
            json.field("id", log.id)
            json.field("activity", log.activity)
            json.field("amount", log.amount)
            json.field("at_us", PostgresTimestamp.microseconds(log.at))
            json.field("day", log.day)
            json.field("hour", log.localHour)
            json.endObject()
        case .lesson(let lesson):
            json.key("lesson")
            json.beginObject()
            json.field("lesson", lesson.lesson)
            json.field("category", lesson.category)
            json.field("day", lesson.day)
            json.endObject()
        case .event(let event):
            json.key("event")
            json.beginObject()
            json.field("name", event.name)
            json.field("at_us", PostgresTimestamp.microseconds(event.at))
            json.endObject()
        case nil:
            break
        }
        json.key("unlocked")
        json.beginObject()
        for (id, at) in change.unlocked {
            json.key(runtime: id)
            json.int(PostgresTimestamp.microseconds(at))
        }
        json.endObject()
        json.key("challenges")
        json.beginArray()
        for (period, stored) in change.challenges {
            for challenge in stored { write(challenge, of: period, into: &json) }
        }
        json.endArray()
        json.key("figures")
        json.beginObject()
        UserCommitBatch.writeFields(of: change.figures, into: &json)
        json.endObject()
        if let available = change.allowance.available, let at = change.allowance.spentAt {
            json.key("allowance")
            json.beginArray()
            json.double(available)
            json.int(PostgresTimestamp.microseconds(at))
            json.endArray()
        }
        if let day = change.latestScores.day {
            json.field("latest_score_day", day)
            json.key("latest_scores")
            UserCommitBatch.write(change.latestScores.scores, into: &json)
        }
    }

    /// Whether an announcement holds a change (and not pushes alone).
    static func announcesChange(_ value: JSONValue) -> Bool {
        value.objectValue?["figures"] != nil
    }

    /// The pushes an announcement carries, the last of them at `lastSeq`, all stored at `at`; none when it carries
    /// none, nil when they cannot be read (the instance then reads them back).
    static func pushes(_ value: JSONValue, lastSeq: Int64, at: Date) -> [StoredPush]? {
        guard let list = value.objectValue?["pushes"] else { return [] }
        guard let items = list.arrayValue else { return nil }
        let first = lastSeq - Int64(items.count) + 1
        var pushes: [StoredPush] = []
        pushes.reserveCapacity(items.count)
        for (offset, item) in items.enumerated() {
            guard let pair = item.arrayValue, pair.count == 2, let kind = pair[0].stringValue.flatMap(PushKind.init(rawValue:)),
                  let data = pair[1].stringValue else { return nil }
            pushes.append(StoredPush(seq: first + Int64(offset), kind: kind, at: at, data: data))
        }
        return pushes
    }

    /// The change written by ``write(_:pushes:into:)``; the fact's seq is the one the store gave it.
    static func read(_ value: JSONValue, factSeq: Int64?) throws -> AnnouncedChange {
        guard let object = value.objectValue else { throw StoreError.failed("an announced change is not an object") }
        var fact: AnnouncedChange.Fact?
        if let log = object["log"]?.objectValue {
            guard let id = log["id"]?.stringValue, let activity = log["activity"]?.stringValue, let amount = log["amount"]?.intValue,
                  let at = log["at_us"]?.intValue, let day = log["day"]?.stringValue.flatMap(LocalDay.init), let hour = log["hour"]?.intValue else {
                throw StoreError.failed("an announced log is malformed")
            }
            fact = .log(LoggedFact(id: id, activity: activity, amount: amount, at: PostgresTimestamp.date(microseconds: at), day: day, localHour: hour))
        } else if let lesson = object["lesson"]?.objectValue {
            guard let id = lesson["lesson"]?.stringValue, let category = lesson["category"]?.stringValue,
                  let day = lesson["day"]?.stringValue.flatMap(LocalDay.init) else { throw StoreError.failed("an announced lesson is malformed") }
            fact = .lesson(LessonCompletion(lesson: id, category: category, day: day))
        } else if let event = object["event"]?.objectValue {
            guard let name = event["name"]?.stringValue, let at = event["at_us"]?.intValue else {
                throw StoreError.failed("an announced event is malformed")
            }
            fact = .event(ReportedEvent(name: name, at: PostgresTimestamp.date(microseconds: at)))
        }
        var unlocked: [String: Date] = [:]
        for (id, at) in object["unlocked"]?.objectValue ?? [:] {
            guard let micros = at.intValue else { throw StoreError.failed("an announced unlock is malformed") }
            unlocked[id] = PostgresTimestamp.date(microseconds: micros)
        }
        guard let figures = object["figures"]?.objectValue else { throw StoreError.failed("an announced change has no figures") }
        var allowance = LogAllowance()
        if let pair = object["allowance"]?.arrayValue {
            guard pair.count == 2, let available = pair[0].doubleValue, let at = pair[1].intValue else {
                throw StoreError.failed("an announced allowance is malformed")
            }
            allowance = LogAllowance(available: available, at: PostgresTimestamp.date(microseconds: at))
        }
        return AnnouncedChange(
            fact: fact, factSeq: factSeq, unlocked: unlocked,
            // Only the periods the rows name: each row names its own.
            challenges: try PostgresStore.challenges(object["challenges"]?.arrayValue ?? [], of: []), figures: try Self.figures(figures), allowance: allowance,
            latestScores: try PostgresUserReader.latestScores(
                day: object["latest_score_day"]?.stringValue, scores: object["latest_scores"]))
    }

    /// A stored challenge as `laurel.changes_since` makes a row of it.
    private static func write(_ challenge: StoredChallenge, of period: ChallengeBook.Period, into json: inout JSONWriter) {
        let choice = challenge.choice
        json.beginObject()
        json.field("period", period.kind.rawValue)
        json.field("start", period.start)
        json.field("slot", choice.slot)
        json.field("kind", choice.kind.rawValue)
        json.field("title", choice.title)
        json.field("target", choice.target)
        json.field("xp", choice.xp)
        json.field("activity_id", ifPresent: choice.activity)
        json.field("hour", ifPresent: choice.hour)
        json.field("completed_us", ifPresent: challenge.completedAt.map(PostgresTimestamp.microseconds))
        json.endObject()
    }

    private static func figures(_ object: JSONObject) throws -> ProgressFigures {
        func int(_ name: String) throws -> Int {
            guard let value = object[name]?.intValue else { throw StoreError.failed("an announced figure is malformed: \(name)") }
            return value
        }
        func day(_ name: String) -> LocalDay? { object[name]?.stringValue.flatMap(LocalDay.init) }
        var figures = ProgressFigures()
        figures.xp = try int("xp")
        figures.level = try int("level")
        figures.highestLevel = try int("max_level")
        figures.shownStreak = StreakState(
            current: try int("current_streak"), longest: try int("longest_streak"), freezes: try int("streak_freezes"),
            atRisk: object["streak_at_risk"]?.boolValue ?? false, lastActiveDay: day("last_active_day"))
        figures.streakHoldsThrough = day("streak_holds_through")
        figures.challengeXP = try int("challenge_xp")
        figures.unlocked = try int("unlocked")
        figures.totalLogs = try int("total_logs")
        figures.activeDays = try int("active_days")
        figures.goalMetWeek = day("goal_met_week").map(\.isoWeek)
        return figures
    }
}
