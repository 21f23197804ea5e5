import Foundation
import LaurelCore
import LaurelJSON
import LaurelStore

/// An announcement as the instances that hear it read it: member by member from the notification's bytes, the
/// change's fields straight into the change (no tree of the whole announcement is built, read once and freed). The
/// challenge rows (rare) are read as trees, by the reader the store's own reads use; the latest day's scores by the
/// one that reads them from the store.
extension AnnouncedChangeJSON {
    /// What an announcement carries: the change (nil when it announces pushes alone, or when it cannot be read: the
    /// session then catches up by reading instead) and its pushes, the last of them at `lastSeq` and all stored at
    /// `at` (none when it carries none or they cannot be read, or without `at`: the instance then reads them back).
    /// Throws only for text that is not JSON.
    static func read(
        from reader: inout JSONReader, factSeq: Int64?, lastSeq: Int64, at: Date?
    ) throws(JSONParseError) -> (change: AnnouncedChange?, pushes: [StoredPush]) {
        var fact: AnnouncedChange.Fact?
        var unlocked: [String: Date]? = [:]
        var challengeRows: [JSONValue] = []
        var figures: ProgressFigures?
        var hasFigures = false
        var allowance: LogAllowance? = LogAllowance()
        var scoreDay: LocalDay?
        var scores: [LatestDayScores.Score]? = []
        var pushes: [(kind: PushKind, data: String)]? = []
        var readable = true
        guard try reader.beginObjectIfPresent() else { return (nil, []) }
        while let key = try reader.nextMember() {
            switch key {
            case "log", "lesson", "event":
                fact = try Self.fact(key == "log" ? .log : key == "lesson" ? .lesson : .event, from: &reader)
                readable = readable && fact != nil
            case "unlocked": unlocked = try Self.unlocked(from: &reader)
            case "challenges":
                guard try reader.beginArrayIfPresent() else { readable = false; continue }
                while try reader.nextElement() { challengeRows.append(try reader.value()) }
            case "figures":
                hasFigures = true
                figures = try Self.figures(from: &reader)
            case "allowance": allowance = try Self.allowance(from: &reader)
            case "latest_score_day": scoreDay = try reader.string().flatMap(LocalDay.init)
            case "latest_scores": scores = try PostgresUserReader.scores(from: &reader)
            case "pushes": pushes = try Self.pushes(from: &reader)
            default: try reader.skipValue()
            }
        }
        var change: AnnouncedChange?
        if hasFigures, readable, let figures, let unlocked, let allowance, let scores,
           let challenges = try? PostgresStore.challenges(challengeRows, of: []) {
            let latestScores = scoreDay.map { LatestDayScores(day: $0, scores: scores) } ?? LatestDayScores()
            // Only the periods the rows name: each row names its own.
            change = AnnouncedChange(
                fact: fact, factSeq: factSeq, unlocked: unlocked, challenges: challenges, figures: figures, allowance: allowance,
                latestScores: latestScores)
        }
        guard let at, let pushes else { return (change, []) }
        let first = lastSeq - Int64(pushes.count) + 1
        return (change, pushes.enumerated().map { StoredPush(seq: first + Int64($0.offset), kind: $0.element.kind, at: at, data: $0.element.data) })
    }

    private enum FactKind { case log, lesson, event }

    /// The write's fact, as ``write(_:pushes:into:)`` writes it; nil when it cannot be read.
    private static func fact(_ kind: FactKind, from reader: inout JSONReader) throws(JSONParseError) -> AnnouncedChange.Fact? {
        guard try reader.beginObjectIfPresent() else { return nil }
        var (id, activity, lesson, category, name, day): (String?, String?, String?, String?, String?, String?)
        var (amount, atMicros, hour): (Int?, Int?, Int?)
        while let key = try reader.nextMember() {
            switch key {
            case "id": id = try reader.string()
            case "activity": activity = try reader.string()
            case "lesson": lesson = try reader.string()
            case "category": category = try reader.string()
            case "name": name = try reader.string()
            case "amount": amount = try reader.int()
            case "at_us": atMicros = try reader.int()
            case "day": day = try reader.string()
            case "hour": hour = try reader.int()
            default: try reader.skipValue()
            }
        }
        let localDay = day.flatMap(LocalDay.init)
        switch kind {
        case .log:
            guard let id, let activity, let amount, let atMicros, let localDay, let hour else { return nil }
            return .log(LoggedFact(
                id: id, activity: activity, amount: amount, at: PostgresTimestamp.date(microseconds: atMicros), day: localDay, localHour: hour))
        case .lesson:
            guard let lesson, let category, let localDay else { return nil }
            return .lesson(LessonCompletion(lesson: lesson, category: category, day: localDay))
        case .event:
            guard let name, let atMicros else { return nil }
            return .event(ReportedEvent(name: name, at: PostgresTimestamp.date(microseconds: atMicros)))
        }
    }

    /// Achievement id to unlock time; nil when a time cannot be read.
    private static func unlocked(from reader: inout JSONReader) throws(JSONParseError) -> [String: Date]? {
        guard try reader.beginObjectIfPresent() else { return nil }
        var unlocked: [String: Date]? = [:]
        while let id = try reader.nextKey() {
            let micros = try reader.int()
            unlocked?[id] = micros.map(PostgresTimestamp.date(microseconds:))
            if micros == nil { unlocked = nil }
        }
        return unlocked
    }

    /// The figures `UserCommitBatch.writeFields(of:into:)` writes; nil when one that every change has is missing.
    private static func figures(from reader: inout JSONReader) throws(JSONParseError) -> ProgressFigures? {
        guard try reader.beginObjectIfPresent() else { return nil }
        var figures = ProgressFigures()
        var streak = StreakState()
        // One bit for each of the ten whole-number figures every change has, set when read.
        var read: UInt16 = 0
        func whole(_ bit: UInt16) throws(JSONParseError) -> Int {
            guard let value = try reader.int() else { return 0 }
            read |= 1 << bit
            return value
        }
        while let key = try reader.nextMember() {
            switch key {
            case "xp": figures.xp = try whole(0)
            case "level": figures.level = try whole(1)
            case "max_level": figures.highestLevel = try whole(2)
            case "current_streak": streak.current = try whole(3)
            case "longest_streak": streak.longest = try whole(4)
            case "streak_freezes": streak.freezes = try whole(5)
            case "challenge_xp": figures.challengeXP = try whole(6)
            case "unlocked": figures.unlocked = try whole(7)
            case "total_logs": figures.totalLogs = try whole(8)
            case "active_days": figures.activeDays = try whole(9)
            case "streak_at_risk": streak.atRisk = try reader.bool() ?? false
            case "last_active_day": streak.lastActiveDay = try reader.string().flatMap(LocalDay.init)
            case "streak_holds_through": figures.streakHoldsThrough = try reader.string().flatMap(LocalDay.init)
            case "goal_met_week": figures.goalMetWeek = try reader.string().flatMap(LocalDay.init).map(\.isoWeek)
            default: try reader.skipValue()
            }
        }
        guard read == 0b11_1111_1111 else { return nil }
        figures.shownStreak = streak
        return figures
    }

    /// `[available, spent_at_us]`; nil when it cannot be read.
    private static func allowance(from reader: inout JSONReader) throws(JSONParseError) -> LogAllowance? {
        guard try reader.beginArrayIfPresent() else { return nil }
        var values: [Double?] = []
        while try reader.nextElement() { values.append(try reader.double()) }
        guard values.count == 2, let available = values[0], let micros = values[1].flatMap({ Int(exactly: $0) }) else { return nil }
        return LogAllowance(available: available, at: PostgresTimestamp.date(microseconds: micros))
    }

    /// `[[kind, data], ...]`; nil when one cannot be read.
    private static func pushes(from reader: inout JSONReader) throws(JSONParseError) -> [(kind: PushKind, data: String)]? {
        guard try reader.beginArrayIfPresent() else { return nil }
        var pushes: [(kind: PushKind, data: String)]? = []
        while try reader.nextElement() {
            guard try reader.beginArrayIfPresent() else { pushes = nil; continue }
            var pair: [String?] = []
            while try reader.nextElement() { pair.append(try reader.string()) }
            guard pair.count == 2, let kind = pair[0].flatMap(PushKind.init(rawValue:)), let data = pair[1] else { pushes = nil; continue }
            pushes?.append((kind, data))
        }
        return pushes
    }
}
