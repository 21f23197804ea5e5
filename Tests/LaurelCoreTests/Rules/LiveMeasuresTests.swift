import Foundation
import LaurelCore
import Testing

/// The measures a decision evaluates against, read in the running state (`LiveMeasures`), are the ones taken out of it
/// (`ProgressAccumulator.measures`) for every rule: the rule → measure table is written once, and both must read the
/// same figures through it.
@Suite struct LiveMeasuresTests {
    private static let goal = TopPercentGoal(board: .logs, percent: 25)

    /// Every kind of rule, about activities logged and not logged.
    private static func rules(activities: [String]) -> [AchievementRule] {
        let logged = activities[0]
        return [
            .totalLogs, .streak, .weeklyStreak, .reminderStreak, .dayVariety, .perfectWeeks, .busiestDay, .level,
            .logsBefore(hour: 9), .logsAfter(hour: 20),
            .activityTotal(activity: logged), .activityTotal(activity: "never-logged"),
            .activityStreak(activity: logged), .bestDay(activity: logged), .bestWeek(activity: activities.last!),
            .monthTotal(activity: logged, month: "2024-05"), .monthTotal(activity: logged, month: "2024-04"),
            .monthTotal(activity: "never-logged", month: "2024-05"),
            .distinctActivities(Set(activities.prefix(3) + ["never-logged"])),
            .comboDays(parts: [ComboPart(activityID: activities[0], amount: 2), ComboPart(activityID: activities[1], amount: 1)]),
            .comboDays(parts: [ComboPart(activityID: "never-logged", amount: 1), ComboPart(activityID: activities[1], amount: 1)]),
            .speed(activity: logged, windowMinutes: 60), .speed(activity: "never-logged", windowMinutes: 60),
            .lessons(category: "basics"), .lessons(category: nil), .lessons(category: "none"),
            .events(name: "share"), .events(name: "none"),
            .topPercent(goal), .topPercent(TopPercentGoal(board: .xp, percent: 10)),
        ]
    }

    /// Logs of `activities` over three weeks of May 2024, some days two of an activity, at hours from 6 to 22.
    private static func facts(activities: [String]) -> ProgressFacts {
        var logs: [LoggedFact] = []
        for (offset, day) in Fixture.days(from: "2024-05-01", count: 21).enumerated() {
            for (place, activity) in activities.enumerated() where (offset + place) % 3 != 0 {
                logs.append(Fixture.log("\(activity)-\(day)", activity, 1 + place, day, 6 + (offset + place) % 17))
                if offset % 4 == 0 { logs.append(Fixture.log("\(activity)-\(day)-again", activity, 2, day, 21, 30)) }
            }
        }
        return ProgressFacts(
            logs: logs,
            lessons: [LessonCompletion(lesson: "basics-1", category: "basics", day: Fixture.day("2024-05-02"))],
            events: [ReportedEvent(name: "share", at: Fixture.instant("2024-05-03"))])
    }

    private func expectSameMeasures(activities: [String], met: Set<TopPercentGoal>) {
        let rules = Self.rules(activities: activities)
        let windows = Set(rules.compactMap { rule -> SpeedWindow? in
            guard case .speed(let activity, let minutes) = rule else { return nil }
            return SpeedWindow(activity: activity, minutes: minutes)
        })
        var accumulator = Fixture.accumulate(Self.facts(activities: activities), speedWindows: windows)
        for rule in rules { if case .comboDays(let parts) = rule { accumulator.track(combo: parts) } }
        let live = LiveMeasures(accumulator: accumulator, longestWeeklyStreak: 3, longestReminderStreak: 4, topPercentMet: met)
        var taken = accumulator.measures
        taken.longestWeeklyStreak = 3
        taken.longestReminderStreak = 4
        taken.topPercentMet = met
        #expect(live.baseXP == taken.baseXP)
        for rule in rules {
            #expect(live.measure(of: rule, level: 7) == taken.measure(of: rule, level: 7), "\(rule)")
        }
        // Not all zero: the facts reach most rules.
        #expect(rules.filter { live.measure(of: $0, level: 7) > 0 }.count >= 20)
    }

    @Test func aFewActivitiesAreFoundByName() {
        expectSameMeasures(activities: ["squats", "pushups", "lunges"], met: [Self.goal])
    }

    @Test func manyActivitiesAreLookedUp() {
        // More activities than a look-up compares one by one, some with names too long to be kept inline.
        let activities = ["squats", "pushups", "lunges", "plank"] + (1...8).map { "custom-activity-with-a-long-id-\($0)" }
        expectSameMeasures(activities: activities, met: [])
    }
}
