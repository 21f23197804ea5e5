import LaurelCore
import Testing

/// Challenge progress counts only the live facts of the challenge's period, as the running state sums them up per
/// day, and is capped at the target.
@Suite struct ChallengeProgressTests {
    typealias F = ChallengeFixture

    static func challenge(
        _ kind: ChallengeKind, target: Int = 100, activity: String? = nil, hour: Int? = nil, start: LocalDay = F.tuesday
    ) -> ChallengeChoice {
        ChallengeChoice(
            slot: 0, kind: kind, period: kind.period, periodStart: kind.period == .weekly ? F.monday : start, target: target, xp: 10,
            title: "t", activity: activity, hour: hour)
    }

    static func log(_ activity: String, _ amount: Int, _ day: String = "2026-11-24", hour: Int = 12) -> LoggedFact {
        Fixture.log("\(activity)-\(day)-\(hour)-\(amount)", activity, amount, day, hour)
    }

    /// Logs of the day before and after, which never count for a daily challenge of the 24th.
    static let neighbours = [log("squats", 50, "2026-11-23", hour: 6), log("pushups", 50, "2026-11-25", hour: 6)]

    static func progress(_ challenge: ChallengeChoice, _ logs: [LoggedFact], lessons: [String] = []) -> Int {
        ChallengeProgress.progress(of: challenge, in: accumulator(logs + neighbours, lessons: lessons))
    }

    /// The running state of these facts (every lesson a completion of its own lesson).
    static func accumulator(_ logs: [LoggedFact], lessons: [String] = []) -> ProgressAccumulator {
        let completions = lessons.enumerated().map { LessonCompletion(lesson: "lesson-\($0.offset)", category: "basics", day: Fixture.day($0.element)) }
        return Fixture.accumulate(ProgressFacts(logs: logs, lessons: completions))
    }

    /// Two choices are the same challenge exactly when their ids are equal, whatever else differs.
    @Test func sameIDWithoutMakingIDs() {
        let base = Self.challenge(.logsToday)
        var variants = [base, Self.challenge(.logsToday, start: F.tuesday.adding(days: 1)), Self.challenge(.activeDaysWeek)]
        var otherSlot = base
        otherSlot.slot = 1
        var otherTitle = base
        otherTitle.title = "another"
        otherTitle.target = 3
        variants += [otherSlot, otherTitle]
        for first in variants {
            for second in variants {
                #expect(first.hasSameID(as: second) == (first.id == second.id), "\(first.id) and \(second.id)")
            }
        }
    }

    @Test func logsTodayCountsLogs() {
        let logs = [Self.log("squats", 5), Self.log("squats", 7, hour: 13), Self.log("plank", 60)]
        #expect(Self.progress(Self.challenge(.logsToday), logs) == 3)
        #expect(Self.progress(Self.challenge(.logsToday, activity: "squats"), logs) == 2)
        #expect(Self.progress(Self.challenge(.logsToday, target: 2), logs) == 2, "capped at the target")
        #expect(Self.progress(Self.challenge(.logsToday), []) == 0)
    }

    @Test func sessionsTodayCountsLogsOfTheNamedActivity() {
        let logs = [Self.log("meditation", 10), Self.log("meditation", 5, hour: 20), Self.log("yoga", 30)]
        #expect(Self.progress(Self.challenge(.sessionsToday, activity: "meditation"), logs) == 2)
        #expect(Self.progress(Self.challenge(.sessionsToday), logs) == 3)
    }

    @Test func amountTodaySumsTheActivitysAmounts() {
        let logs = [Self.log("squats", 5), Self.log("squats", 7, hour: 13), Self.log("pushups", 60)]
        #expect(Self.progress(Self.challenge(.amountToday, activity: "squats"), logs) == 12)
        #expect(Self.progress(Self.challenge(.amountToday, target: 10, activity: "squats"), logs) == 10)
        #expect(Self.progress(Self.challenge(.amountToday, activity: "lunges"), logs) == 0)
    }

    @Test func minutesTodaySumsAmounts() {
        let logs = [Self.log("meditation", 10), Self.log("meditation", 15, hour: 20), Self.log("yoga", 30)]
        #expect(Self.progress(Self.challenge(.minutesToday, activity: "meditation"), logs) == 25)
        #expect(Self.progress(Self.challenge(.minutesToday), logs) == 55)
    }

    @Test func distinctTodayCountsActivities() {
        let logs = [Self.log("squats", 5), Self.log("squats", 7, hour: 13), Self.log("plank", 60), Self.log("lunges", 1)]
        #expect(Self.progress(Self.challenge(.distinctToday), logs) == 3)
        #expect(Self.progress(Self.challenge(.distinctToday, target: 2), logs) == 2)
    }

    @Test func beforeHourNeedsALogBeforeTheHour() {
        let challenge = Self.challenge(.beforeHour, target: 1, hour: 8)
        #expect(Self.progress(challenge, [Self.log("squats", 1, hour: 8), Self.log("squats", 1, hour: 22)]) == 0)
        #expect(Self.progress(challenge, [Self.log("squats", 1, hour: 7), Self.log("squats", 1, hour: 22)]) == 1)
        #expect(Self.progress(challenge, [Self.log("squats", 1, hour: 0)]) == 1)
        // The neighbours' logs at 6:00 are on other days.
        #expect(Self.progress(challenge, []) == 0)
    }

    @Test func keepStreakIsDoneByAnActiveDay() {
        let challenge = Self.challenge(.keepStreak, target: 1)
        #expect(Self.progress(challenge, []) == 0, "a day without facts (a rest day, say) does not complete it")
        #expect(Self.progress(challenge, [Self.log("plank", 10)]) == 1)
        #expect(Self.progress(challenge, [], lessons: ["2026-11-24"]) == 1, "a lesson makes the day active")
        #expect(Self.progress(challenge, [], lessons: ["2026-11-23"]) == 0)
    }

    @Test func lessonTodayNeedsALessonOnTheDay() {
        let challenge = Self.challenge(.lessonToday, target: 1)
        #expect(Self.progress(challenge, [Self.log("meditation", 10)]) == 0)
        #expect(Self.progress(challenge, [], lessons: ["2026-11-24", "2026-11-24"]) == 1)
        #expect(Self.progress(challenge, [], lessons: ["2026-11-25"]) == 0)
    }

    @Test func activeDaysWeekCountsTheDaysOfTheISOWeek() {
        let challenge = Self.challenge(.activeDaysWeek, target: 7)
        let logs = [
            Self.log("squats", 1, "2026-11-22"),  // Sunday before: not this week
            Self.log("squats", 1, "2026-11-23"), Self.log("plank", 1, "2026-11-23"),  // Monday, twice
            Self.log("squats", 1, "2026-11-26"),
            Self.log("squats", 1, "2026-11-29"),  // Sunday
            Self.log("squats", 1, "2026-11-30"),  // next Monday
        ]
        let facts = Self.accumulator(logs, lessons: ["2026-11-27", "2026-11-26"])
        #expect(ChallengeProgress.progress(of: challenge, in: facts) == 4, "23, 26, 27 and 29")
        var capped = challenge
        capped.target = 3
        #expect(ChallengeProgress.progress(of: capped, in: facts) == 3)
        #expect(ChallengeProgress.isReached(capped, in: facts))
        #expect(!ChallengeProgress.isReached(challenge, in: facts))
    }
}
