import Foundation
import LaurelCore
import Testing

/// One rule with a history whose measure is the target minus one and a history that reaches the target.
struct RuleCase: Sendable, CustomTestStringConvertible {
    var name: String
    var rule: AchievementRule
    var target: Int
    var below: ProgressFacts
    var reaching: ProgressFacts

    var testDescription: String { name }

    static let all: [RuleCase] = [
        RuleCase(
            name: "total_logs", rule: .totalLogs, target: 3,
            below: ProgressFacts(logs: Fixture.logs(on: ["2024-05-01", "2024-05-01"]),
                                 lessons: [LessonCompletion(lesson: "basics-1", category: "basics", day: Fixture.day("2024-05-01"))],
                                 events: [ReportedEvent(name: "share", at: Fixture.instant("2024-05-01"))]),
            reaching: ProgressFacts(logs: Fixture.logs(on: ["2024-05-01", "2024-05-01", "2024-05-02"]))
        ),
        RuleCase(
            name: "activity_total", rule: .activityTotal(activity: "pushups"), target: 100,
            below: ProgressFacts(logs: [Fixture.log("a", "pushups", 60, "2024-05-01"), Fixture.log("b", "pushups", 39, "2024-05-03"),
                                        Fixture.log("c", "squats", 50, "2024-05-03")]),
            reaching: ProgressFacts(logs: [Fixture.log("a", "pushups", 60, "2024-05-01"), Fixture.log("b", "pushups", 40, "2024-05-03")])
        ),
        RuleCase(
            name: "streak", rule: .streak, target: 3,
            below: ProgressFacts(logs: Fixture.logs(on: ["2024-05-01", "2024-05-02", "2024-05-04"])),
            reaching: ProgressFacts(
                logs: Fixture.logs(on: ["2024-05-01", "2024-05-02"]),
                lessons: [LessonCompletion(lesson: "basics-1", category: "basics", day: Fixture.day("2024-05-03"))]
            )
        ),
        RuleCase(
            name: "activity_streak", rule: .activityStreak(activity: "squats"), target: 3,
            below: ProgressFacts(logs: Fixture.logs(on: ["2024-05-01", "2024-05-02"]) + Fixture.logs(on: ["2024-05-03"], activity: "plank")
                + Fixture.logs(on: ["2024-05-04"])),
            reaching: ProgressFacts(logs: Fixture.logs(on: ["2024-05-01", "2024-05-02", "2024-05-03"]))
        ),
        RuleCase(
            name: "best_day", rule: .bestDay(activity: "squats"), target: 50,
            below: ProgressFacts(logs: [Fixture.log("a", "squats", 30, "2024-05-01", 23, 59), Fixture.log("b", "squats", 19, "2024-05-01", 0, 0),
                                        Fixture.log("c", "squats", 40, "2024-05-02", 0, 0), Fixture.log("d", "pushups", 40, "2024-05-01")]),
            reaching: ProgressFacts(logs: [Fixture.log("a", "squats", 30, "2024-05-01", 23, 59), Fixture.log("b", "squats", 20, "2024-05-01", 0, 0)])
        ),
        RuleCase(
            // 2024-05-06 is a Monday, 2024-05-12 the Sunday of the same ISO week.
            name: "best_week", rule: .bestWeek(activity: "squats"), target: 100,
            below: ProgressFacts(logs: [Fixture.log("a", "squats", 50, "2024-05-06"), Fixture.log("b", "squats", 49, "2024-05-12"),
                                        Fixture.log("c", "squats", 50, "2024-05-13"), Fixture.log("d", "squats", 49, "2024-05-05")]),
            reaching: ProgressFacts(logs: [Fixture.log("a", "squats", 50, "2024-05-06"), Fixture.log("b", "squats", 50, "2024-05-12")])
        ),
        RuleCase(
            name: "speed", rule: .speed(activity: "squats", windowMinutes: 10), target: 50,
            below: ProgressFacts(logs: [Fixture.log("a", "squats", 25, "2024-05-01", 10, 0), Fixture.log("b", "squats", 24, "2024-05-01", 10, 10),
                                        Fixture.log("c", "squats", 25, "2024-05-01", 10, 20, 0.001),
                                        Fixture.log("d", "pushups", 25, "2024-05-01", 10, 5)]),
            reaching: ProgressFacts(logs: [Fixture.log("a", "squats", 25, "2024-05-01", 10, 0), Fixture.log("b", "squats", 25, "2024-05-01", 10, 10)])
        ),
        RuleCase(
            name: "day_variety", rule: .dayVariety, target: 3,
            below: ProgressFacts(logs: [Fixture.log("a", "squats", 1, "2024-05-01"), Fixture.log("b", "pushups", 1, "2024-05-01"),
                                        Fixture.log("c", "squats", 1, "2024-05-01"), Fixture.log("d", "plank", 1, "2024-05-02")]),
            reaching: ProgressFacts(logs: [Fixture.log("a", "squats", 1, "2024-05-01"), Fixture.log("b", "pushups", 1, "2024-05-01"),
                                           Fixture.log("c", "plank", 1, "2024-05-01")])
        ),
        RuleCase(
            name: "distinct_activities", rule: .distinctActivities(["squats", "pushups", "lunges"]), target: 3,
            below: ProgressFacts(logs: [Fixture.log("a", "squats", 1, "2024-05-01"), Fixture.log("b", "pushups", 1, "2024-05-02"),
                                        Fixture.log("c", "plank", 1, "2024-05-03")]),
            reaching: ProgressFacts(logs: [Fixture.log("a", "squats", 1, "2024-05-01"), Fixture.log("b", "pushups", 1, "2024-05-02"),
                                           Fixture.log("c", "lunges", 1, "2024-05-03")])
        ),
        RuleCase(
            name: "logs_before", rule: .logsBefore(hour: 7), target: 1,
            below: ProgressFacts(logs: [Fixture.log("a", "squats", 1, "2024-05-01", 7, 0)]),
            reaching: ProgressFacts(logs: [Fixture.log("a", "squats", 1, "2024-05-01", 6, 59, 59)])
        ),
        RuleCase(
            name: "logs_after", rule: .logsAfter(hour: 21), target: 1,
            below: ProgressFacts(logs: [Fixture.log("a", "squats", 1, "2024-05-01", 20, 59, 59)]),
            reaching: ProgressFacts(logs: [Fixture.log("a", "squats", 1, "2024-05-01", 21, 0)])
        ),
        RuleCase(
            name: "perfect_weeks", rule: .perfectWeeks, target: 1,
            below: ProgressFacts(logs: Fixture.logs(on: Fixture.days(from: "2024-05-07", count: 7))),
            reaching: ProgressFacts(
                logs: Fixture.logs(on: Fixture.days(from: "2024-05-06", count: 6)),
                lessons: [LessonCompletion(lesson: "breath-1", category: "breath", day: Fixture.day("2024-05-12"))]
            )
        ),
        RuleCase(
            name: "busiest_day", rule: .busiestDay, target: 3,
            below: ProgressFacts(logs: Fixture.logs(on: ["2024-05-01", "2024-05-01", "2024-05-02", "2024-05-02"])),
            reaching: ProgressFacts(logs: Fixture.logs(on: ["2024-05-01", "2024-05-01"]) + Fixture.logs(on: ["2024-05-01"], activity: "plank"))
        ),
        RuleCase(
            name: "lessons basics", rule: .lessons(category: "basics"), target: 2,
            below: ProgressFacts(lessons: [
                LessonCompletion(lesson: "basics-1", category: "basics", day: Fixture.day("2024-05-01")),
                LessonCompletion(lesson: "basics-1", category: "basics", day: Fixture.day("2024-05-02")),
                LessonCompletion(lesson: "breath-1", category: "breath", day: Fixture.day("2024-05-02")),
            ]),
            reaching: ProgressFacts(lessons: [
                LessonCompletion(lesson: "basics-1", category: "basics", day: Fixture.day("2024-05-01")),
                LessonCompletion(lesson: "basics-2", category: "basics", day: Fixture.day("2024-05-01")),
            ])
        ),
        RuleCase(
            name: "lessons all", rule: .lessons(category: nil), target: 3,
            below: ProgressFacts(lessons: [
                LessonCompletion(lesson: "basics-1", category: "basics", day: Fixture.day("2024-05-01")),
                LessonCompletion(lesson: "breath-1", category: "breath", day: Fixture.day("2024-05-02")),
                LessonCompletion(lesson: "breath-1", category: "breath", day: Fixture.day("2024-05-03")),
            ]),
            reaching: ProgressFacts(lessons: [
                LessonCompletion(lesson: "basics-1", category: "basics", day: Fixture.day("2024-05-01")),
                LessonCompletion(lesson: "breath-1", category: "breath", day: Fixture.day("2024-05-02")),
                LessonCompletion(lesson: "breath-2", category: "breath", day: Fixture.day("2024-05-03")),
            ])
        ),
        RuleCase(
            name: "events", rule: .events(name: "share"), target: 2,
            below: ProgressFacts(events: [ReportedEvent(name: "share", at: Fixture.instant("2024-05-01")),
                                          ReportedEvent(name: "invite", at: Fixture.instant("2024-05-01"))]),
            reaching: ProgressFacts(events: [ReportedEvent(name: "share", at: Fixture.instant("2024-05-01")),
                                             ReportedEvent(name: "share", at: Fixture.instant("2024-05-02"))])
        ),
    ]
}

@Suite struct AchievementRuleTests {
    private func measure(_ rule: AchievementRule, _ facts: ProgressFacts) -> (recomputed: Int, accumulated: Int) {
        let definition = AchievementDefinition(id: "x", name: "x", category: "c", tier: .bronze, rule: rule, target: 1)
        let windows = SpeedWindow.required(by: [definition])
        let settings = StreakSettingsHistory()
        let recomputed = ProgressRecomputation(facts: facts, settings: settings, today: Fixture.day("2024-06-01"), speedWindows: windows)
        let accumulated = Fixture.accumulate(facts, settings: settings, speedWindows: windows)
        return (recomputed.measures.measure(of: rule, level: 1), accumulated.measures.measure(of: rule, level: 1))
    }

    @Test(arguments: RuleCase.all)
    func measureAtTargetMinusOneAndAtTarget(_ ruleCase: RuleCase) {
        let below = measure(ruleCase.rule, ruleCase.below)
        let reaching = measure(ruleCase.rule, ruleCase.reaching)
        #expect(below.recomputed == ruleCase.target - 1)
        #expect(below.accumulated == ruleCase.target - 1)
        #expect(reaching.recomputed == ruleCase.target)
        #expect(reaching.accumulated == ruleCase.target)
    }

    @Test(arguments: RuleCase.all)
    func unlocksAtTargetOnly(_ ruleCase: RuleCase) {
        let definition = AchievementDefinition(
            id: ruleCase.name, name: ruleCase.name, category: "test", tier: .silver, rule: ruleCase.rule, target: ruleCase.target
        )
        let windows = SpeedWindow.required(by: [definition])
        func outcome(_ facts: ProgressFacts) -> AchievementEvaluator.Outcome {
            let measures = ProgressRecomputation(
                facts: facts, settings: StreakSettingsHistory(), today: Fixture.day("2024-06-01"), speedWindows: windows
            ).measures
            return AchievementEvaluator.evaluate(definitions: [definition], measures: measures, alreadyUnlocked: [])
        }
        #expect(outcome(ruleCase.below).newlyUnlocked.isEmpty)
        #expect(outcome(ruleCase.reaching).newlyUnlocked == [definition])
    }

    @Test func levelRuleAtTargetMinusOneAndAtTarget() {
        // 9 logs on one day: 90 + 5 = 95 XP; 4 or 5 challenge XP makes 99 or 100.
        let measures = ProgressRecomputation(
            facts: ProgressFacts(logs: Fixture.logs(on: Array(repeating: "2024-05-01", count: 9)).enumerated().map {
                var log = $0.element
                log.id = "log-\($0.offset)"
                return log
            }),
            settings: StreakSettingsHistory(), today: Fixture.day("2024-05-01"), speedWindows: []
        ).measures
        let level2 = AchievementDefinition(id: "level_2", name: "Level 2", category: "milestones", tier: .gold, rule: .level, target: 2)
        let below = AchievementEvaluator.evaluate(definitions: [level2], measures: measures, alreadyUnlocked: [], challengeXP: 4)
        #expect(below.newlyUnlocked.isEmpty)
        #expect(below.xp == 99 && below.level == 1)
        let reaching = AchievementEvaluator.evaluate(definitions: [level2], measures: measures, alreadyUnlocked: [], challengeXP: 5)
        #expect(reaching.newlyUnlocked == [level2])
        // The unlock itself is worth 50 XP.
        #expect(reaching.xp == 150 && reaching.level == 2)
        #expect(reaching.reachedNewLevel)
    }

    @Test func measuresStayWithinWhatTheRuleAllows() {
        let logs = (0..<30).map { Fixture.log("l\($0)", ["squats", "pushups", "lunges", "plank"][$0 % 4], 1, "2024-05-01", $0 % 24) }
        let measures = ProgressRecomputation(
            facts: ProgressFacts(logs: logs), settings: StreakSettingsHistory(), today: Fixture.day("2024-05-01"), speedWindows: []
        ).measures
        #expect(measures.measure(of: .logsBefore(hour: 7), level: 1) == 1)
        #expect(measures.measure(of: .logsAfter(hour: 21), level: 1) == 1)
        #expect(measures.measure(of: .distinctActivities(["squats", "pushups"]), level: 1) == 2)
        for rule in [AchievementRule.logsBefore(hour: 7), .logsAfter(hour: 21), .distinctActivities(["squats", "pushups"])] {
            #expect(measures.measure(of: rule, level: 1) <= rule.measureBound!)
        }
        let total = AchievementDefinition(id: "t", name: "t", category: "c", tier: .bronze, rule: .totalLogs, target: 10)
        #expect(measures.measure(of: .totalLogs, level: 1) == 30)
        #expect(total.displayedProgress(for: 30) == 10)
        #expect(total.displayedProgress(for: 4) == 4)
    }

    @Test func ruleKindsAndActivities() {
        #expect(AchievementRule.speed(activity: "squats", windowMinutes: 10).kind.rawValue == "speed")
        #expect(AchievementRule.logsBefore(hour: 7).kind.rawValue == "logs_before")
        #expect(AchievementRule.bestWeek(activity: "plank").activity == "plank")
        #expect(AchievementRule.totalLogs.activity == nil)
        #expect(AchievementRule.Kind.allCases.count == 21)
        #expect(AchievementRule.topPercent(TopPercentGoal(board: .logs, percent: 25)).kind.rawValue == "top_percent")
        #expect(AchievementRule.topPercent(TopPercentGoal(board: .activity("plank"), percent: 10)).activity == "plank")
        #expect(AchievementRule.reminderStreak.kind.rawValue == "reminder_streak")
        #expect(AchievementRule.weeklyStreak.kind.rawValue == "weekly_streak")
        #expect(AchievementTier.bronze < .platinum)
    }
}
