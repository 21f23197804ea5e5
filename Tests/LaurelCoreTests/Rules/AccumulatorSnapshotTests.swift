import Foundation
import LaurelCore
import LaurelJSON
import Testing

/// The running state's stored form (`ProgressAccumulator.writeSnapshot(into:)` and `init(snapshot:)`): a state read
/// back is the state written, whatever it holds, and a state that gains a stored property fails here until the
/// snapshot writes it too.
@Suite struct AccumulatorSnapshotTests {
    /// The stored properties the snapshot writes, for each type it is made of.
    static let written: [String: Set<String>] = [
        "ProgressAccumulator": [
            "totalLogs", "activeDays", "speedWindows", "activities", "days", "activeDaysByWeek", "perfectWeeks", "busiestDay", "dayVariety",
            "earliestLocalHour", "latestLocalHour", "completedLessons", "lessonsByCategory", "events", "speeds", "combos", "streak",
            "weeklyGoal", "reminders",
        ],
        "ActivityTally": ["total", "logs", "bestDay", "bestWeek", "daily", "weeklyAmounts", "monthlyAmounts", "streak"],
        "ActivityDay": ["amount", "logs"],
        "SettledTable<LocalDay, DayTally>": ["latest", "recent", "settled"],
        "SettledTable<LocalDay, ActivityDay>": ["latest", "recent", "settled"],
        "SettledTable<ISOWeek, Int>": ["latest", "recent", "settled"],
        "DayTally": ["logs", "amount", "activities", "earliestLocalHour", "lessons"],
        "StreakWalker": ["usesFreezes", "current", "longest", "freezes", "lastActiveDay"],
        "WeeklyGoalWalker": ["current", "longest", "openMonday"],
        "ReminderTally": ["reminders", "perDay", "settledCount", "settledCurrent", "settledLongest", "settledBy", "settledVacations", "latest"],
        "ReminderFact": ["id", "at", "day", "windowMinutes", "answered"],
    ]

    /// A state with something in every table: logs of three activities over three months, backfills (one to a
    /// settled day), lessons (one practised again), events, reminders answered and missed around a vacation, a combo
    /// and speed windows.
    static func fullState() -> (ProgressAccumulator, StreakSettingsHistory) {
        let zone = Fixture.zone("Europe/Berlin")
        var settings = StreakSettingsHistory()
        settings.setVacation(true, from: Fixture.day("2024-02-10"))
        settings.setVacation(false, from: Fixture.day("2024-02-13"))
        var accumulator = ProgressAccumulator(speedWindows: [SpeedWindow(activity: "squats", minutes: 10)])
        accumulator.track(combo: [ComboPart(activityID: "squats", amount: 10), ComboPart(activityID: "pushups", amount: 5)])
        var logs: [LoggedFact] = []
        // Two months apart at first, and a backfill after the last day: days settled and days not (`DayTable`).
        for (index, day) in ["2023-11-20", "2024-01-30", "2024-02-01", "2024-02-02", "2024-02-20", "2024-02-21", "2024-02-05", "2023-11-22"].enumerated() {
            for (offset, activity) in ["squats", "pushups", "plank"].enumerated() where (index + offset) % 3 != 2 {
                let at = Fixture.instant(day, 7 + offset, 15, 0.25)
                let log = LoggedFact(id: "log-\(index)-\(offset)", activity: activity, amount: 6 + index * 2, at: at, zone: zone)
                accumulator.record(log, neighbours: logs.filter { $0.activity == activity }, settings: settings)
                logs.append(log)
            }
        }
        accumulator.record(LessonCompletion(lesson: "basics-1", category: "basics", day: Fixture.day("2024-02-01")), settings: settings)
        accumulator.record(LessonCompletion(lesson: "basics-1", category: "basics", day: Fixture.day("2024-02-03")), settings: settings)
        accumulator.record(LessonCompletion(lesson: "breath-1", category: "breath", day: Fixture.day("2024-02-21")), settings: settings)
        accumulator.record(ReportedEvent(name: "share", at: Fixture.instant("2024-02-02")))
        accumulator.record(ReportedEvent(name: "share", at: Fixture.instant("2024-02-21")))
        for (index, day) in ["2024-02-01", "2024-02-11", "2024-02-19", "2024-02-21"].enumerated() {
            let at = Fixture.instant(day, 8, 0, 0.5)
            var reminder = ReminderFact(id: "reminder-\(index)", at: at, day: LocalDay(of: at, in: zone), windowMinutes: 60)
            reminder.answered = logs.contains { reminder.isAnswered(byLogAt: $0.at) }
            accumulator.record(reminder, settings: settings)
        }
        accumulator.walkRemindersAgain(settings: settings)
        return (accumulator, settings)
    }

    static func roundTrip(_ accumulator: ProgressAccumulator) throws -> ProgressAccumulator? {
        var json = JSONWriter()
        accumulator.writeSnapshot(into: &json)
        return ProgressAccumulator(snapshot: try JSONParser.parse(json.bytes))
    }

    @Test func aStateWithSomethingInEveryTableComesBackAsItWas() throws {
        let (accumulator, settings) = Self.fullState()
        #expect(accumulator.measures.comboDays.values.contains { $0 > 0 })
        #expect(accumulator.reminders.reminders.contains { $0.answered } && accumulator.reminders.reminders.contains { !$0.answered })
        let read = try #require(try Self.roundTrip(accumulator))
        #expect(read == accumulator)
        // And it goes on counting as the state it was read from would.
        var (continued, original) = (read, accumulator)
        let log = LoggedFact(id: "after", activity: "squats", amount: 12, at: Fixture.instant("2024-02-22", 9), zone: Fixture.zone("Europe/Berlin"))
        continued.record(log, neighbours: [], settings: settings)
        original.record(log, neighbours: [], settings: settings)
        #expect(continued == original)
        #expect(try Self.roundTrip(ProgressAccumulator()) == ProgressAccumulator())
    }

    @Test func everyStoredPropertyIsWritten() throws {
        let (accumulator, _) = Self.fullState()
        var seen: [String: Set<String>] = [:]
        func collect(_ value: Any) {
            let mirror = Mirror(reflecting: value)
            let typeName = String(describing: mirror.subjectType)
            if mirror.displayStyle == .struct, Self.written[typeName] != nil {
                seen[typeName, default: []].formUnion(mirror.children.compactMap(\.label))
            }
            for child in mirror.children { collect(child.value) }
        }
        collect(accumulator)
        #expect(Set(seen.keys) == Set(Self.written.keys), "the state is made of other types now")
        for (typeName, properties) in seen {
            #expect(properties == Self.written[typeName], "\(typeName)'s stored properties are not the ones the snapshot writes")
        }
    }

    @Test func whatIsNotASnapshotIsNotRead() throws {
        #expect(ProgressAccumulator(snapshot: .int(7)) == nil)
        #expect(ProgressAccumulator(snapshot: ["total_logs": 3]) == nil)
        var json = JSONWriter()
        Self.fullState().0.writeSnapshot(into: &json)
        guard case .object(var object) = try JSONParser.parse(json.bytes) else { Issue.record("not an object"); return }
        object["days"] = [1, 2, 3]
        #expect(ProgressAccumulator(snapshot: .object(object)) == nil)
    }
}
