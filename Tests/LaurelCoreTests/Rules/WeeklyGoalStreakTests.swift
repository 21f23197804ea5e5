import Foundation
import LaurelCore
import LaurelTestSupport
import Testing

/// The weekly goal streak of rules.md: weeks judged by their counted days (active or rest days up to today) against
/// the goal in force on their last day, vacation weeks kept, the current week breaking nothing; kept incrementally
/// by `ProgressAccumulator` and equal to a walk written here straight from the rules' words.
@Suite struct WeeklyGoalStreakTests {
    /// The rules' walk, written independently of `WeeklyGoalWalker`: every ISO week from the first active day's to
    /// today's, each day checked.
    static func reference(activeDays: Set<LocalDay>, settings: StreakSettingsHistory, today: LocalDay) -> WeeklyGoalStreak {
        let goalToday = settings.weeklyGoal(on: today)
        guard let first = activeDays.min(), first.isoWeek <= today.isoWeek else { return WeeklyGoalStreak(week: today.isoWeek, goal: goalToday) }
        var current = 0
        var longest = 0
        var week = first.isoWeek
        while true {
            let days = week.days
            let isCurrent = week == today.isoWeek
            let counted = days.count { $0 <= today && (activeDays.contains($0) || settings.restDay(on: $0) == $0.weekday) }
            let goal = settings.weeklyGoal(on: isCurrent ? today : days[6])
            if counted >= goal {
                current += 1
                longest = max(longest, current)
            } else if !isCurrent, !days.contains(where: settings.isVacation) {
                current = 0
            }
            if isCurrent {
                let todayCounts = activeDays.contains(today) || settings.isRestDay(today)
                let left = days.count { $0 > today } + (todayCounts ? 0 : 1)
                return WeeklyGoalStreak(
                    week: week, goal: goal, current: current, longest: longest, thisWeek: counted, met: counted >= goal,
                    atRisk: counted < goal && left < goal - counted)
            }
            week = days[6].next.isoWeek
        }
    }

    private func streak(_ days: [String], today: String, settings: StreakSettingsHistory = StreakSettingsHistory()) -> WeeklyGoalStreak {
        let accumulator = Fixture.accumulate(ProgressFacts(logs: Fixture.logs(on: days)), settings: settings)
        let incremental = accumulator.weeklyGoalStreak(today: Fixture.day(today), settings: settings)
        #expect(incremental == Self.reference(activeDays: Set(days.map(Fixture.day)), settings: settings, today: Fixture.day(today)))
        return incremental
    }

    @Test func weeksMeetingTheDefaultGoalOfThreeDaysExtendTheStreak() {
        // Weeks of 6 and 13 May 2024 (Mondays), three active days each; today Tuesday 21 May, one day so far.
        let days = ["2024-05-06", "2024-05-08", "2024-05-10", "2024-05-13", "2024-05-14", "2024-05-19", "2024-05-21"]
        let streak = streak(days, today: "2024-05-21")
        #expect(streak.goal == 3)
        #expect((streak.current, streak.longest, streak.thisWeek, streak.met, streak.atRisk) == (2, 2, 1, false, false))
        #expect(streak.week.description == "2024-W21")
    }

    @Test func theCurrentWeekCountsOnceMetAndAMissedWeekBreaks() {
        let met = streak(["2024-05-06", "2024-05-07", "2024-05-08", "2024-05-20", "2024-05-21", "2024-05-22"], today: "2024-05-22")
        // The week of 13 May had no active day: broken; the current week is met.
        #expect((met.current, met.longest, met.met) == (1, 1, true))
    }

    @Test func restDaysCountTowardTheGoal() {
        var settings = StreakSettingsHistory()
        settings.setRestDay(.sunday, from: Fixture.day("2024-05-01"))
        // Two active days and the Sunday rest day make three in each week.
        let streak = streak(["2024-05-06", "2024-05-07", "2024-05-13", "2024-05-14", "2024-05-20", "2024-05-21"], today: "2024-05-21", settings: settings)
        #expect((streak.current, streak.longest, streak.thisWeek) == (2, 2, 2))
        #expect(!streak.atRisk)
    }

    @Test func aMissedWeekWithAVacationDayKeepsTheStreakWithoutExtendingIt() {
        var settings = StreakSettingsHistory()
        settings.setVacation(true, from: Fixture.day("2024-05-17"))
        settings.setVacation(false, from: Fixture.day("2024-05-18"))
        let days = ["2024-05-06", "2024-05-07", "2024-05-08", "2024-05-20", "2024-05-21", "2024-05-22"]
        let kept = streak(days, today: "2024-05-22", settings: settings)
        #expect((kept.current, kept.longest) == (2, 2))
        let broken = streak(days, today: "2024-05-22")
        #expect((broken.current, broken.longest) == (1, 1))
    }

    @Test func aWeekIsJudgedByTheGoalInForceOnItsLastDay() {
        var settings = StreakSettingsHistory()
        // Raised to 5 on Wednesday 8 May: the week of 6 May asks 5, its two active days miss it.
        settings.setWeeklyGoal(5, from: Fixture.day("2024-05-08"))
        let raised = streak(["2024-05-06", "2024-05-07", "2024-05-08", "2024-05-13"], today: "2024-05-13", settings: settings)
        #expect((raised.longest, raised.current, raised.goal) == (0, 0, 5))
        var lowered = StreakSettingsHistory()
        lowered.setWeeklyGoal(1, from: Fixture.day("2024-05-12"))
        let met = streak(["2024-05-06", "2024-05-13"], today: "2024-05-13", settings: lowered)
        #expect((met.current, met.longest, met.met) == (2, 2, true))
    }

    @Test func atRiskWhenTooFewDaysAreLeft() {
        // Goal 3, one active day. Saturday: today and Sunday can still count, two are needed: not at risk.
        #expect(!streak(["2024-05-13"], today: "2024-05-18").atRisk)
        // Sunday: only today is left, two are needed.
        #expect(streak(["2024-05-13"], today: "2024-05-19").atRisk)
        // Sunday, active today: nothing is left, one more is needed.
        #expect(streak(["2024-05-13", "2024-05-19"], today: "2024-05-19").atRisk)
    }

    @Test func daylightSavingWeeksAreSevenLocalDays() {
        // Europe/Berlin's clocks went forward on Sunday 31 March 2024 (a 23-hour day): logs late on Saturday and early
        // on Sunday, local time, fall on their own days and in the same week.
        let berlin = Fixture.zone("Europe/Berlin")
        let logs = [
            LoggedFact(id: "a", activity: "squats", amount: 1, at: Fixture.instant("2024-03-25", 8), zone: berlin),
            LoggedFact(id: "b", activity: "squats", amount: 1, at: Fixture.instant("2024-03-30", 22, 30), zone: berlin),
            LoggedFact(id: "c", activity: "squats", amount: 1, at: Fixture.instant("2024-03-30", 23, 30), zone: berlin),
        ]
        #expect(logs.map(\.day.description) == ["2024-03-25", "2024-03-30", "2024-03-31"])
        let accumulator = Fixture.accumulate(ProgressFacts(logs: logs))
        let streak = accumulator.weeklyGoalStreak(today: Fixture.day("2024-04-01"), settings: StreakSettingsHistory())
        #expect((streak.current, streak.longest, streak.thisWeek) == (1, 1, 0))
    }

    @Test func beforeTheFirstActiveDayNothingIsWalked() {
        let streak = ProgressAccumulator().weeklyGoalStreak(today: Fixture.day("2024-05-19"), settings: StreakSettingsHistory())
        #expect(streak == WeeklyGoalStreak(week: Fixture.day("2024-05-19").isoWeek, goal: 3))
    }

    /// Random active days added in random order (backfills reopen closed weeks), random rest-day, vacation and goal
    /// histories, every today from the first day on: the incremental walk, a rebuild and the reference agree.
    @Test(arguments: 0..<40)
    func incrementalWalksAgreeWithTheRules(seed: Int) {
        var random = SeededRandom(seed: UInt64(seed))
        let start = Fixture.day("2024-01-01").adding(days: random.below(7))
        var settings = StreakSettingsHistory()
        for _ in 0..<random.below(6) {
            let from = start.adding(days: random.below(120))
            switch random.below(3) {
            case 0: settings.setRestDay(random.below(3) == 0 ? nil : Weekday(rawValue: 1 + random.below(7)), from: from)
            case 1: settings.setVacation(random.below(2) == 0, from: from)
            default: settings.setWeeklyGoal(1 + random.below(7), from: from)
            }
        }
        let density = 2 + random.below(6)
        var days: [LocalDay] = []
        for offset in 0..<120 where random.below(7) < density { days.append(start.adding(days: offset)) }
        if random.below(2) == 0 { days.shuffle(using: &random) }
        var accumulator = ProgressAccumulator()
        var seen: Set<LocalDay> = []
        for (index, day) in days.enumerated() {
            accumulator.record(
                LoggedFact(id: "log-\(index)", activity: "squats", amount: 1, at: Fixture.instant(day.description), zone: Fixture.utc),
                neighbours: [], settings: settings)
            seen.insert(day)
            let latest = seen.max()!
            // An earlier today too: a move west leaves active days after today.
            for today in [latest, latest.adding(days: -random.below(9)), latest.adding(days: random.below(3)), latest.adding(days: 3 + random.below(30))] {
                let expected = Self.reference(activeDays: seen, settings: settings, today: today)
                #expect(accumulator.weeklyGoalStreak(today: today, settings: settings) == expected, "seed \(seed), step \(index), today \(today)")
            }
        }
        let today = (days.max() ?? start).adding(days: random.below(20))
        let facts = ProgressFacts(logs: days.enumerated().map {
            LoggedFact(id: "log-\($0.offset)", activity: "squats", amount: 1, at: Fixture.instant($0.element.description), zone: Fixture.utc)
        })
        let rebuilt = ProgressAccumulator(rebuildingFrom: facts, settings: settings, speedWindows: [])
        let recomputed = ProgressRecomputation(facts: facts, settings: settings, today: today, speedWindows: [])
        #expect(rebuilt.weeklyGoalStreak(today: today, settings: settings) == recomputed.weeklyGoalStreak, "seed \(seed)")
        #expect(recomputed.weeklyGoalStreak == Self.reference(activeDays: Set(days), settings: settings, today: today), "seed \(seed)")
    }
}
