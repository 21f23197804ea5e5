import Foundation
import LaurelCore
import Testing

/// Every shipped achievement unlocks exactly at its target: facts that bring its measure to target - 1 leave it
/// locked, facts that bring it to the target unlock it. The measures come from the full recomputation and the
/// incremental accumulator, which must agree.
@Suite struct CatalogThresholdTests {
    static func catalogs() throws -> [Catalog] {
        [try ShippedCatalogFiles.standfit(), try ShippedCatalogFiles.mindful()]
    }

    @Test func eachAchievementUnlocksExactlyAtItsTarget() throws {
        for catalog in try Self.catalogs() {
            // A comparative goal's measure comes from the ended weeks' rankings, not the facts (TopPercentRuleTests).
            for definition in catalog.achievements where definition.rule.kind != .topPercent {
                for value in [definition.target - 1, definition.target] {
                    let scenario = MeasureScenario(definition: definition, value: value, catalog: catalog)
                    let recomputed = ProgressRecomputation(
                        facts: scenario.facts, settings: StreakSettingsHistory(), today: scenario.today, speedWindows: [])
                    let outcome = AchievementEvaluator.evaluate(
                        definitions: [definition], measures: recomputed.measures, alreadyUnlocked: [])
                    let label = "\(catalog.name).\(definition.id) at \(value)"
                    #expect(recomputed.measures.measure(of: definition.rule, level: outcome.highestLevel) == value, "\(label)")
                    let incremental = Fixture.accumulate(scenario.facts).measures(today: scenario.today, now: .distantFuture, settings: StreakSettingsHistory())
                    #expect(incremental.measure(of: definition.rule, level: outcome.highestLevel) == value, "\(label) (incremental)")
                    let unlocked = outcome.newlyUnlocked.map(\.id) == [definition.id]
                    #expect(unlocked == (value >= definition.target), "\(label)")
                    #expect(definition.displayedProgress(for: value) == value, "\(label)")
                }
                // Beyond the target the progress shown stays at the target.
                #expect(definition.displayedProgress(for: definition.target + 5) == definition.target)
            }
        }
    }

    /// In the whole catalog, XP from other unlocks counts towards `level_10`: 733 logs of one day give
    /// 7330 + 5 + 3 * 50 (first_exercise, total_100, marathon) = 7485 XP, level 9; one more log gives 7495, level
    /// 10, which unlocks `level_10` (+50).
    @Test func levelTenInTheWholeStandfitCatalog() throws {
        let catalog = try ShippedCatalogFiles.standfit()
        func outcome(logs count: Int) -> AchievementEvaluator.Outcome {
            let logs = (0..<count).map { Fixture.log("log-\($0)", "squats", 1, "2024-01-01", 12, 0, Double($0) / 100) }
            let measures = ProgressRecomputation(
                facts: ProgressFacts(logs: logs), settings: StreakSettingsHistory(), today: Fixture.day("2024-01-01"), speedWindows: []
            ).measures
            return AchievementEvaluator.evaluate(definitions: catalog.achievements, measures: measures, alreadyUnlocked: [])
        }
        let below = outcome(logs: 733)
        #expect(below.newlyUnlocked.map(\.id) == ["first_exercise", "total_100", "marathon"])
        #expect(below.xp == 7485)
        #expect(below.level == 9 && below.highestLevel == 9)

        let reached = outcome(logs: 734)
        #expect(reached.newlyUnlocked.map(\.id) == ["first_exercise", "total_100", "marathon", "level_10"])
        #expect(reached.xp == 7545)
        #expect(reached.level == 10 && reached.reachedNewLevel)
    }
}

/// Facts that bring one achievement's measure to exactly `value`, built for its rule kind, and the day they are
/// judged on. Each rule also gets facts that must not count (other categories, other events, a repeated lesson,
/// a log right at an hour boundary) so that the threshold is the rule's and not an accident of the facts.
struct MeasureScenario {
    /// A Monday, so that ISO weeks start on it.
    static let start = Fixture.day("2024-01-01")

    var facts = ProgressFacts()
    var today = MeasureScenario.start

    init(definition: AchievementDefinition, value: Int, catalog: Catalog) {
        let main = catalog.activities[0].id
        switch definition.rule {
        case .totalLogs, .busiestDay:
            logs(count: value, of: main, on: Self.start)
        case .activityTotal(let activity):
            // Split over two days, with another activity that must not count.
            let parts = value >= 2 ? [value - value / 2, value / 2] : Array(repeating: 1, count: value)
            for (offset, amount) in parts.enumerated() { log(activity, amount: amount, on: Self.start.adding(days: offset)) }
            if let other = catalog.activities.first(where: { $0.id != activity }) { log(other.id, amount: 5, on: Self.start) }
        case .streak:
            for offset in 0..<value { log(main, amount: 1, on: Self.start.adding(days: offset)) }
            today = Self.start.adding(days: max(value - 1, 0))
        case .dayVariety:
            for activity in catalog.activities.prefix(value) { log(activity.id, amount: 1, on: Self.start) }
            if value > 0 { log(catalog.activities[0].id, amount: 1, on: Self.start) }
        case .distinctActivities(let set):
            for (offset, activity) in set.sorted().prefix(value).enumerated() {
                log(activity, amount: 1, on: Self.start.adding(days: offset))
            }
        case .logsBefore(let hour):
            log(main, amount: 1, on: Self.start, hour: hour)
            if value > 0 { log(main, amount: 1, on: Self.start, hour: hour - 1, minute: 59) }
        case .logsAfter(let hour):
            log(main, amount: 1, on: Self.start, hour: hour - 1, minute: 59)
            if value > 0 { log(main, amount: 1, on: Self.start, hour: hour) }
        case .perfectWeeks:
            for week in 0..<value {
                for offset in 0..<7 { log(main, amount: 1, on: Self.start.adding(days: week * 7 + offset)) }
            }
            // Then a week with six active days, Monday to Saturday, which is not perfect.
            for offset in 0..<6 { log(main, amount: 1, on: Self.start.adding(days: value * 7 + offset)) }
            today = Self.start.adding(days: value * 7 + 6)
        case .weeklyStreak:
            // Weeks meeting the default goal (three days, Monday to Wednesday), then a current week not met yet.
            for week in 0..<value {
                for offset in 0..<3 { log(main, amount: 1, on: Self.start.adding(days: week * 7 + offset)) }
            }
            log(main, amount: 1, on: Self.start.adding(days: value * 7))
            today = Self.start.adding(days: value * 7 + 4)
        case .reminderStreak:
            // A missed reminder, then `value` reminders each answered ten minutes later.
            facts.reminders.append(ReminderFact(id: "missed", at: Fixture.instant(Self.start.description, 9), day: Self.start, windowMinutes: 30))
            for offset in 0..<value {
                let day = Self.start.adding(days: offset + 1)
                facts.reminders.append(ReminderFact(id: "r\(offset)", at: Fixture.instant(day.description, 12), day: day, windowMinutes: 30))
                log(main, amount: 1, on: day, hour: 12, minute: 10)
            }
        case .events(let name):
            for offset in 0..<value { facts.events.append(ReportedEvent(name: name, at: Fixture.instant(Self.start.description, 12, offset))) }
            facts.events.append(ReportedEvent(name: "\(name)-other", at: Fixture.instant(Self.start.description)))
        case .lessons(let category):
            let counted = catalog.lessons.filter { category == nil || $0.category == category }
            let others = catalog.lessons.filter { category != nil && $0.category != category }
            for lesson in counted.prefix(value) + counted.prefix(min(value, 1)) + others {
                facts.lessons.append(LessonCompletion(lesson: lesson.id, category: lesson.category, day: Self.start))
            }
        case .level:
            // The fewest logs of one day whose XP (10 a log, 5 for the day) reaches the level.
            let needed = LevelCurve.threshold(of: value) - ExperienceFormula.perActiveDay
            logs(count: max(0, (needed + ExperienceFormula.perLog - 1) / ExperienceFormula.perLog), of: main, on: Self.start)
        default:
            Issue.record("no scenario for \(definition.rule.kind.rawValue)")
        }
    }

    private mutating func log(_ activity: String, amount: Int, on day: LocalDay, hour: Int = 12, minute: Int = 0) {
        let id = "log-\(facts.logs.count)"
        facts.logs.append(Fixture.log(id, activity, amount, day.description, hour, minute))
    }

    private mutating func logs(count: Int, of activity: String, on day: LocalDay) {
        for index in 0..<count {
            facts.logs.append(Fixture.log("log-\(facts.logs.count)", activity, 1, day.description, 12, index / 60, Double(index % 60)))
        }
    }
}
