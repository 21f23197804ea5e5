import Foundation
import LaurelCore
import LaurelJSON
import LaurelStore
import Testing

@testable import LaurelPostgres

/// A write's announced change as it travels from the instance that commits it to the others: what is read back is
/// what was written, in the store's microseconds, with the seq the store gave the new fact.
@Suite struct AnnouncedChangeJSONTests {
    static func at(_ micros: Int) -> Date { PostgresTimestamp.date(microseconds: 1_795_000_000_000_000 + micros) }

    static let change: AnnouncedChange = {
        let day = LocalDay("2026-11-27")!
        let daily = ChallengeBook.Period(.daily, start: day)
        let choice = { (slot: Int, activity: String?) in
            ChallengeChoice(
                slot: slot, kind: .amountToday, period: .daily, periodStart: day, target: 20, xp: 15, title: "Do 20", activity: activity,
                hour: slot == 1 ? 9 : nil)
        }
        var figures = ProgressFigures()
        figures.xp = 240
        figures.level = 3
        figures.highestLevel = 4
        figures.shownStreak = StreakState(current: 5, longest: 9, freezes: 1, atRisk: true, lastActiveDay: day)
        figures.streakHoldsThrough = LocalDay("2026-11-28")
        figures.challengeXP = 30
        figures.unlocked = 6
        figures.totalLogs = 41
        figures.activeDays = 12
        figures.goalMetWeek = day.isoWeek
        return AnnouncedChange(
            fact: .log(LoggedFact(id: "log-1", activity: "pushups", amount: 12, at: at(123_456), day: day, localHour: 13)),
            unlocked: ["first_exercise": at(7), "tpl_abc_gold": at(8)],
            challenges: [daily: [StoredChallenge(choice: choice(0, "pushups"), completedAt: at(99)), StoredChallenge(choice: choice(1, nil), completedAt: nil)]],
            figures: figures, allowance: LogAllowance(available: 998.5, at: at(5)),
            latestScores: LatestDayScores(day: day, scores: [
                .init(board: .xp, score: 40, reachedAt: at(1)),
                .init(board: .activity("pushups"), score: 12, reachedAt: at(2)),
            ]))
    }()

    static func roundTrip(_ change: AnnouncedChange, factSeq: Int64?) throws -> AnnouncedChange {
        var json = JSONWriter()
        AnnouncedChangeJSON.write(change, into: &json)
        return try Self.read(json.text, factSeq: factSeq)
    }

    static func read(_ announcement: String, factSeq: Int64?) throws -> AnnouncedChange {
        let read = try JSONReader.read(announcement) { reader throws(JSONParseError) in
            try AnnouncedChangeJSON.read(from: &reader, factSeq: factSeq, lastSeq: 0, at: nil)
        }
        return try #require(read.change)
    }

    @Test func aChangeIsReadAsItWasWrittenWithTheFactsSeq() throws {
        #expect(try Self.roundTrip(Self.change, factSeq: 42) == Self.change.with(factSeq: 42))
    }

    @Test func lessonsEventsAndChangesWithoutAFactTravelToo() throws {
        let day = LocalDay("2026-11-27")!
        for fact in [AnnouncedChange.Fact.lesson(LessonCompletion(lesson: "breathing-1", category: "breathing", day: day)),
                     .event(ReportedEvent(name: "share", at: Self.at(3)))] {
            let change = AnnouncedChange(
                fact: fact, factSeq: 7, unlocked: Self.change.unlocked, challenges: Self.change.challenges, figures: Self.change.figures,
                allowance: Self.change.allowance, latestScores: Self.change.latestScores)
            #expect(try Self.roundTrip(change, factSeq: 7) == change)
        }
        for unlocked in [[:], ["night_owl": Self.at(4)]] {
            let bare = AnnouncedChange(
                fact: nil, unlocked: unlocked, challenges: [:], figures: ProgressFigures(), allowance: LogAllowance(), latestScores: LatestDayScores())
            #expect(try Self.roundTrip(bare, factSeq: nil) == bare)
        }
    }

    @Test func aNotificationCarriesAnnouncedChangesBesideBareCommits() throws {
        var json = JSONWriter()
        AnnouncedChangeJSON.write(Self.change, into: &json)
        let payload = #"{"event":"committed","users":[[1, 7, 3], [2, 5, 0, 42, "# + json.text + "]]}"
        #expect(PostgresStoreEvents.events(from: payload) == [
            .committed(UserID(1), version: 7, lastSeq: 3), .committed(UserID(2), version: 5, lastSeq: 0, change: Self.change.with(factSeq: 42)),
        ])
    }

    /// The pushes a write stored travel beside its change, or alone: each with its seq (the last at the commit's
    /// last_seq), its data as stored and the transaction's time the notification names.
    @Test func announcedPushesComeWithTheirSeqsDataAndTime() throws {
        let pushes = [
            PushDraft(kind: .unlock, data: #"{"id":"first_exercise","title":"a \"first\" one"}"#),
            PushDraft(kind: .level, data: #"{"level":2,"xp":100}"#),
        ]
        let at = PostgresTimestamp.date(microseconds: 1_795_000_000_123_456)
        let stored = [
            StoredPush(seq: 11, kind: .unlock, at: at, data: pushes[0].data), StoredPush(seq: 12, kind: .level, at: at, data: pushes[1].data),
        ]
        var both = JSONWriter()
        AnnouncedChangeJSON.write(Self.change, pushes: pushes, into: &both)
        var alone = JSONWriter()
        AnnouncedChangeJSON.write(nil, pushes: pushes, into: &alone)
        let users = "[[2, 5, 12, 42, " + both.text + "], [3, 8, 12, null, " + alone.text + "]]"
        #expect(PostgresStoreEvents.events(from: #"{"event":"committed","at_us":1795000000123456,"users":"# + users + "}") == [
            .committed(UserID(2), version: 5, lastSeq: 12, change: Self.change.with(factSeq: 42), pushes: stored),
            .committed(UserID(3), version: 8, lastSeq: 12, pushes: stored),
        ])
        // Without the transaction's time the pushes are left to be read back (the rows a read gives hold it).
        #expect(PostgresStoreEvents.events(from: #"{"event":"committed","users":"# + users + "}") == [
            .committed(UserID(2), version: 5, lastSeq: 12, change: Self.change.with(factSeq: 42)), .committed(UserID(3), version: 8, lastSeq: 12),
        ])
        // Pushes that cannot be read are left out, the commit kept.
        #expect(PostgresStoreEvents.events(from: #"{"event":"committed","at_us":1,"users":[[3, 8, 12, null, {"pushes":[["NOPE","{}"]]}]]}"#) == [
            .committed(UserID(3), version: 8, lastSeq: 12),
        ])
    }

    /// The announcement is read member by member: members in another order, spaces between them and members this
    /// server does not know change nothing.
    @Test func anAnnouncementIsReadWhateverTheOrderOfItsMembers() throws {
        var json = JSONWriter()
        AnnouncedChangeJSON.write(Self.change, into: &json)
        guard case .object(let written) = try JSONParser.parse(json.text) else { Issue.record("not an object"); return }
        var reordered = JSONObject()
        reordered["from_a_later_version"] = ["nested": [1, "]}", ["x": nil]]]
        for (key, value) in written.reversed() {
            // The latest day's scores keep their order: they are a list.
            if case .object(let members) = value, key != "latest_scores" {
                var inner = JSONObject()
                for (name, member) in members.reversed() { inner[name] = member }
                reordered[key] = .object(inner)
            } else {
                reordered[key] = value
            }
        }
        let spaced = JSONValue.object(reordered).serialized()
            .replacingOccurrences(of: ",\"", with: ", \"").replacingOccurrences(of: "\":", with: "\" : ")
        #expect(try Self.read(spaced, factSeq: 42) == Self.change.with(factSeq: 42))
    }

    /// A figure of the wrong kind, or one missing, makes the change unreadable, not the notification: the commit and
    /// the other users' changes are kept.
    @Test func aFigureOfTheWrongKindLeavesOutTheChangeOnly() throws {
        var json = JSONWriter()
        AnnouncedChangeJSON.write(Self.change, into: &json)
        for broken in [json.text.replacingOccurrences(of: #""xp":240"#, with: #""xp":"240""#),
                       json.text.replacingOccurrences(of: #""total_logs":41,"#, with: "")] {
            let payload = #"{"event":"committed","users":[[1, 5, 0, 42, "# + broken + "], [2, 5, 0, 42, " + json.text + "]]}"
            #expect(PostgresStoreEvents.events(from: payload) == [
                .committed(UserID(1), version: 5, lastSeq: 0), .committed(UserID(2), version: 5, lastSeq: 0, change: Self.change.with(factSeq: 42)),
            ])
        }
    }

    /// A change this server cannot read still tells of the commit: the session there catches up by reading.
    @Test func anUnreadableChangeLeavesTheCommit() {
        let events = PostgresStoreEvents.events(from: #"{"event":"committed","users":[[2, 5, 0, 42, {"log": {"id": 1}}]]}"#)
        #expect(events == [.committed(UserID(2), version: 5, lastSeq: 0)])
    }
}
