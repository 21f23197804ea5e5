import Foundation
import LaurelCore
import LaurelJSON
import LaurelTestSupport
import Testing

/// Random histories, replayed deterministically from their seeds: feeding facts one by one to the
/// accumulator must always give what a full recomputation gives.
@Suite struct ProgressAccumulatorPropertyTests {
    static let zones = [
        "Europe/Berlin", "America/New_York", "Pacific/Kiritimati", "America/St_Johns", "Asia/Kathmandu",
        "Australia/Lord_Howe", "Pacific/Honolulu", "UTC",
    ].map(Fixture.zone)
    /// Starting points a few days before daylight-saving changes (and Kiritimati's skipped day).
    static let starts = [
        Fixture.instant("2024-03-07"), Fixture.instant("2024-03-28"), Fixture.instant("2024-10-24"),
        Fixture.instant("2024-10-31"), Fixture.instant("2024-04-03"), Fixture.instant("1994-12-27"),
        Fixture.instant("2023-12-28"),
    ]
    static let activities = ["squats", "pushups", "lunges", "plank"]
    static let lessons = [("basics-1", "basics"), ("basics-2", "basics"), ("basics-3", "basics"),
                          ("breath-1", "breath"), ("breath-2", "breath"), ("breath-3", "breath")]
    static let speedWindows: Set<SpeedWindow> = [
        SpeedWindow(activity: "squats", minutes: 10), SpeedWindow(activity: "squats", minutes: 1),
        SpeedWindow(activity: "pushups", minutes: 15), SpeedWindow(activity: "plank", minutes: 1440),
    ]
    static let largestWindowSeconds = 1440.0 * 60

    /// One simulated user: the stored facts, the stored accumulator and the clock.
    struct Simulation {
        var random: SeededRandom
        var now: Date
        var zone: TimeZone
        var settings = StreakSettingsHistory()
        var facts = ProgressFacts()
        var accumulator = ProgressAccumulator(speedWindows: ProgressAccumulatorPropertyTests.speedWindows)
        var nextID = 0
        var rebuilds = 0
        var backfills = 0

        init(seed: UInt64) {
            random = SeededRandom(seed: seed)
            now = ProgressAccumulatorPropertyTests.starts.randomElement(using: &random)!
            zone = ProgressAccumulatorPropertyTests.zones.randomElement(using: &random)!
        }

        var today: LocalDay { LocalDay(of: now, in: zone) }

        mutating func newID() -> String {
            nextID += 1
            return "log-\(nextID)"
        }

        mutating func rebuild() {
            accumulator = ProgressAccumulator(rebuildingFrom: facts, settings: settings, speedWindows: ProgressAccumulatorPropertyTests.speedWindows)
            rebuilds += 1
        }

        mutating func addLog(at: Date) {
            let log = LoggedFact(
                id: newID(), activity: ProgressAccumulatorPropertyTests.activities.randomElement(using: &random)!,
                amount: Int.random(in: 1...40, using: &random), at: at, zone: zone
            )
            let neighbours = facts.logs.filter {
                $0.activity == log.activity && abs($0.at.timeIntervalSince(log.at)) <= ProgressAccumulatorPropertyTests.largestWindowSeconds
            }
            facts.logs.append(log)
            accumulator.record(log, neighbours: neighbours, settings: settings)
        }

        /// A reminder shown now or a little earlier (up to a day, a device syncing), answered when a stored log lies in
        /// its window, as the evaluator decides it.
        mutating func addReminder() {
            let at = now.addingTimeInterval(-Double(Int.random(in: 0...86_400, using: &random)))
            var reminder = ReminderFact(id: newID(), at: at, day: LocalDay(of: at, in: zone), windowMinutes: Int.random(in: 5...240, using: &random))
            reminder.answered = facts.logs.contains { reminder.isAnswered(byLogAt: $0.at) }
            facts.reminders.append(reminder)
            accumulator.record(reminder, settings: settings)
        }

        mutating func step() {
            let choice = Int.random(in: 0..<100, using: &random)
            if Int.random(in: 0..<4, using: &random) == 0 { addReminder() }
            switch choice {
            case 0..<40:
                // A log now or a little earlier (an offline device syncing), sometimes several close together.
                let burst = Int.random(in: 1...3, using: &random)
                for _ in 0..<burst {
                    addLog(at: now.addingTimeInterval(-Double(Int.random(in: 0...5400, using: &random))))
                }
            case 40..<50:
                backfills += 1
                addLog(at: now.addingTimeInterval(-Double(Int.random(in: 3600...(30 * 86_400), using: &random))))
            case 50..<57:
                if !facts.logs.isEmpty {
                    facts.logs.remove(at: Int.random(in: 0..<facts.logs.count, using: &random))
                    rebuild()
                }
            case 57..<64:
                let (lesson, category) = ProgressAccumulatorPropertyTests.lessons.randomElement(using: &random)!
                let completion = LessonCompletion(lesson: lesson, category: category, day: today)
                facts.lessons.append(completion)
                accumulator.record(completion, settings: settings)
            case 64..<68:
                let event = ReportedEvent(name: ["share", "invite"].randomElement(using: &random)!, at: now)
                facts.events.append(event)
                accumulator.record(event)
            case 68..<75:
                switch Int.random(in: 0..<3, using: &random) {
                case 0: settings.setRestDay(Bool.random(using: &random) ? Weekday.allCases.randomElement(using: &random)! : nil, from: today)
                case 1: settings.setVacation(Bool.random(using: &random), from: today)
                default: settings.setWeeklyGoal(Int.random(in: 1...7, using: &random), from: today)
                }
                if !accumulator.acceptsSettingsChange(effective: today) { rebuild() }
                accumulator.walkRemindersAgain(settings: settings)
            case 75..<79:
                zone = ProgressAccumulatorPropertyTests.zones.randomElement(using: &random)!
            default:
                let steps: [Double] = [300, 3600, 4 * 3600, 9 * 3600, 20 * 3600, 26 * 3600, 50 * 3600, 4 * 86_400]
                now = now.addingTimeInterval(steps.randomElement(using: &random)!)
            }
        }

        func check(seed: UInt64, step: Int) {
            let recomputation = ProgressRecomputation(
                facts: facts, settings: settings, today: today, now: now, speedWindows: ProgressAccumulatorPropertyTests.speedWindows
            )
            #expect(accumulator.measures(today: today, now: now, settings: settings) == recomputation.measures, "seed \(seed), step \(step)")
            #expect(accumulator.streak(today: today, settings: settings) == recomputation.streak.state, "seed \(seed), step \(step)")
            #expect(accumulator.reminderStreak(now: now, settings: settings) == recomputation.reminderStreak, "seed \(seed), step \(step)")
        }
    }

    @Test(arguments: 0..<8)
    func incrementalAlwaysMatchesRecomputation(batch: Int) throws {
        var rebuilds = 0
        var backfills = 0
        for seed in UInt64(batch * 50)..<UInt64(batch * 50 + 50) {
            var simulation = Simulation(seed: seed)
            let steps = Int.random(in: 20...90, using: &simulation.random)
            for step in 0..<steps {
                simulation.step()
                simulation.check(seed: seed, step: step)
            }
            rebuilds += simulation.rebuilds
            backfills += simulation.backfills

            // The stored form round-trips.
            var json = JSONWriter()
            simulation.accumulator.writeSnapshot(into: &json)
            #expect(ProgressAccumulator(snapshot: try JSONParser.parse(json.bytes)) == simulation.accumulator, "seed \(seed)")
        }
        #expect(rebuilds > 0)
        #expect(backfills > 0)
    }

    @Test func longHistoriesAcrossManyDaysStayInAgreement() {
        // Fewer, longer histories: a log most days over months, so streaks earn and spend freezes.
        for seed in UInt64(1000)..<UInt64(1010) {
            var random = SeededRandom(seed: seed)
            let zone = ProgressAccumulatorPropertyTests.zones.randomElement(using: &random)!
            var settings = StreakSettingsHistory()
            var facts = ProgressFacts()
            var accumulator = ProgressAccumulator(speedWindows: ProgressAccumulatorPropertyTests.speedWindows)
            var now = Fixture.instant("2024-01-01", 8)
            for index in 0..<200 {
                now = now.addingTimeInterval(Double(Int.random(in: 20...30, using: &random)) * 3600)
                let today = LocalDay(of: now, in: zone)
                if Int.random(in: 0..<40, using: &random) == 0 {
                    settings.setVacation(Bool.random(using: &random), from: today)
                    #expect(accumulator.acceptsSettingsChange(effective: today))
                }
                // Now and then a backfill, some to days long settled (`DayTable`: more than 40 days before the last).
                let backfill = Int.random(in: 0..<8, using: &random) == 0
                if backfill || Int.random(in: 0..<5, using: &random) > 0 {
                    let at = backfill ? now.addingTimeInterval(-Double(Int.random(in: 1...80, using: &random)) * 86_400) : now
                    let log = LoggedFact(id: "l\(index)", activity: ProgressAccumulatorPropertyTests.activities.randomElement(using: &random)!,
                                         amount: 5, at: at, zone: zone)
                    let neighbours = facts.logs.filter { $0.activity == log.activity && abs($0.at.timeIntervalSince(log.at)) <= 86_400 }
                    facts.logs.append(log)
                    accumulator.record(log, neighbours: neighbours, settings: settings)
                }
                let recomputation = ProgressRecomputation(
                    facts: facts, settings: settings, today: today, now: now, speedWindows: ProgressAccumulatorPropertyTests.speedWindows)
                #expect(accumulator.measures(today: today, now: now, settings: settings) == recomputation.measures, "seed \(seed), day \(index)")
                #expect(accumulator.streak(today: today, settings: settings) == recomputation.streak.state, "seed \(seed), day \(index)")
            }
            #expect(accumulator.measures.longestStreak >= 7)
            // Counted log by log, backfills included, the state is the one rebuilt from every log (so a snapshot of
            // either is the same), and it comes back from its snapshot as it was.
            #expect(accumulator == ProgressAccumulator(rebuildingFrom: facts, settings: settings, speedWindows: ProgressAccumulatorPropertyTests.speedWindows), "seed \(seed)")
            var json = JSONWriter()
            accumulator.writeSnapshot(into: &json)
            #expect(ProgressAccumulator(snapshot: (try? JSONParser.parse(json.bytes)) ?? .null) == accumulator, "seed \(seed)")
        }
    }
}
