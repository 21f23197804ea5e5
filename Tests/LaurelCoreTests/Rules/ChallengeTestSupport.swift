import LaurelCore

/// Builders shared by the challenge tests: the pools of rules.md, activities and histories.
enum ChallengeFixture {
    static let user = UserID(42)
    /// A Tuesday.
    static let tuesday = Fixture.day("2026-11-24")
    /// The Monday of the same ISO week.
    static let monday = Fixture.day("2026-11-23")

    static let logsToday = ChallengePoolEntry(kind: .logsToday, title: "Log {n} exercises today", min: 2, max: 30, defaultTarget: 5, xp: 20)
    static let amountToday = ChallengePoolEntry(kind: .amountToday, title: "Do {n} {activity} today", min: 5, max: 1000, defaultTarget: 20, xp: 20)
    static let distinctToday = ChallengePoolEntry(
        kind: .distinctToday, title: "Log {n} different exercises today", min: 2, max: 4, defaultTarget: 3, xp: 25)
    static let beforeHour = ChallengePoolEntry(kind: .beforeHour, title: "Exercise before 8:00", xp: 15, hour: 8)
    static let keepStreak = ChallengePoolEntry(kind: .keepStreak, title: "Keep your streak going", xp: 10)
    static let activeDaysWeek = ChallengePoolEntry(
        kind: .activeDaysWeek, title: "Be active on {n} days this week", min: 2, max: 7, defaultTarget: 3, xp: 100)
    static let sessionsToday = ChallengePoolEntry(
        kind: .sessionsToday, title: "Meditate {n} times today", min: 1, max: 5, defaultTarget: 1, xp: 20, activity: "meditation")
    static let minutesToday = ChallengePoolEntry(
        kind: .minutesToday, title: "Meditate {n} minutes today", min: 5, max: 120, defaultTarget: 10, xp: 20, activity: "meditation")
    static let lessonToday = ChallengePoolEntry(kind: .lessonToday, title: "Complete a lesson today", xp: 25)

    static let standfitPool = [logsToday, amountToday, distinctToday, beforeHour, keepStreak, activeDaysWeek]
    static let mindfulPool = [sessionsToday, minutesToday, lessonToday, keepStreak, activeDaysWeek]

    static let standfitActivities = [
        Activity(id: "squats", name: "Squats", unit: .reps, custom: false),
        Activity(id: "pushups", name: "Pushups", unit: .reps, custom: false),
        Activity(id: "lunges", name: "Lunges", unit: .reps, custom: false),
        Activity(id: "plank", name: "Plank", unit: .seconds, custom: false),
    ]
    static let meditation = Activity(id: "meditation", name: "Meditation", unit: .minutes, custom: false)

    /// An active day with the given amounts, one log of each activity unless `logs` says otherwise.
    static func day(
        _ text: String, _ amounts: [String: Int] = [:], logs: [String: Int]? = nil, lessons: Int = 0
    ) -> ChallengeHistory.Day {
        let logsByActivity = logs ?? amounts.mapValues { _ in 1 }
        return ChallengeHistory.Day(
            day: Fixture.day(text), logs: logsByActivity.values.reduce(0, +), amounts: amounts, logsByActivity: logsByActivity,
            lessons: lessons)
    }

    /// Active days on consecutive days before `tuesday`, oldest first, one per element of `amounts`.
    static func days(_ perDay: [[String: Int]]) -> [ChallengeHistory.Day] {
        perDay.enumerated().map { offset, amounts in
            day(tuesday.adding(days: offset - perDay.count).description, amounts)
        }
    }

    static func history(
        _ days: [ChallengeHistory.Day] = [], previousWeek: Int = 0, streak: Int = 3,
        live: [Activity] = standfitActivities, recent: [String] = []
    ) -> ChallengeHistory {
        ChallengeHistory(
            activeDays: days, activeDaysPreviousWeek: previousWeek, currentStreak: streak, liveActivities: live, recentActivities: recent)
    }

    static func choose(
        _ pool: [ChallengePoolEntry] = standfitPool, user: UserID = user, period: ChallengePeriod = .daily, start: LocalDay? = nil,
        history: ChallengeHistory = history(), hour: Int? = 6
    ) -> [ChallengeChoice] {
        ChallengeChooser.choose(
            user: user, period: period, start: start ?? (period == .daily ? tuesday : monday), pool: pool, history: history,
            localHourNow: hour)
    }

    /// The one challenge a pool of one entry gives.
    static func only(_ entry: ChallengePoolEntry, _ history: ChallengeHistory, hour: Int? = 6) -> ChallengeChoice? {
        let chosen = choose([entry], period: entry.kind.period, history: history, hour: hour)
        return chosen.count == 1 ? chosen[0] : nil
    }
}
