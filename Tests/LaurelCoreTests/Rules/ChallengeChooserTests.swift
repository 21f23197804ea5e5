import LaurelCore
import Testing

/// Which challenges the chooser offers: deterministic, of different kinds, and never impossible.
@Suite struct ChallengeChooserTests {
    typealias F = ChallengeFixture

    static let users = (1...200).map { UserID(Int64($0)) }
    static let richHistory = F.history(F.days(Array(repeating: ["squats": 20, "pushups": 10], count: 5)), recent: ["squats", "pushups"])

    @Test func theSameInputsGiveTheSameChoice() {
        for user in Self.users.prefix(20) {
            let first = F.choose(user: user, history: Self.richHistory)
            #expect(F.choose(user: user, history: Self.richHistory) == first)
            #expect(F.choose(user: user, period: .weekly, history: Self.richHistory)
                == F.choose(user: user, period: .weekly, history: Self.richHistory))
        }
    }

    /// The draw is pinned, so that a change to the dice, which would choose differently for periods already
    /// stored elsewhere, is noticed.
    @Test func theDrawIsPinned() {
        let chosen = F.choose(user: UserID(1), history: Self.richHistory)
        #expect(chosen.map(\.kind) == [.distinctToday, .beforeHour, .keepStreak])
        #expect(chosen.map(\.title) == ["Log 2 different exercises today", "Exercise before 8:00", "Keep your streak going"])
        #expect(F.choose(user: UserID(2), history: Self.richHistory).map(\.title)
            == ["Do 24 Squats today", "Exercise before 8:00", "Keep your streak going"])
        #expect(F.choose(user: UserID(1), start: F.tuesday.next, history: Self.richHistory).map(\.title)
            == ["Keep your streak going", "Exercise before 8:00", "Log 2 different exercises today"])
    }

    @Test func differentUsersAndDaysGetDifferentChoices() {
        let byUser = Set(Self.users.map { F.choose(user: $0, history: Self.richHistory).map(\.kind) })
        #expect(byUser.count > 10, "200 users should not all draw alike: \(byUser.count) draws")
        let byDay = Set((0..<60).map { F.choose(start: F.tuesday.adding(days: $0), history: Self.richHistory).map(\.kind) })
        #expect(byDay.count > 10, "60 days of one user: \(byDay.count) draws")
        let activities = Set(Self.users.compactMap { user in
            F.choose(user: user, history: Self.richHistory).first { $0.kind == .amountToday }?.activity
        })
        #expect(activities == ["squats", "pushups"], "amount_today draws among the recent activities")
    }

    /// Each of the five possible daily kinds should come up for about three users in five, and lead about one in five.
    @Test func everyKindComesUpFairly() {
        let draws = (1...1000).map { F.choose(user: UserID(Int64($0)), history: Self.richHistory).map(\.kind) }
        for kind in [ChallengeKind.logsToday, .amountToday, .distinctToday, .beforeHour, .keepStreak] {
            let shown = draws.count { $0.contains(kind) }
            let first = draws.count { $0.first == kind }
            #expect((520...680).contains(shown), "\(kind) in \(shown) of 1000")
            #expect((140...260).contains(first), "\(kind) first in \(first) of 1000")
        }
    }

    @Test func threeDailyChallengesOfThreeDifferentKinds() {
        for user in Self.users {
            let chosen = F.choose(user: user, history: Self.richHistory)
            #expect(chosen.count == 3)
            #expect(Set(chosen.map(\.kind)).count == 3)
            #expect(chosen.map(\.slot) == [0, 1, 2])
            #expect(chosen.allSatisfy { $0.period == .daily && $0.periodStart == F.tuesday && $0.kind != .activeDaysWeek })
            #expect(chosen.map(\.id) == ["daily-2026-11-24-0", "daily-2026-11-24-1", "daily-2026-11-24-2"])
        }
    }

    @Test func oneWeeklyChallenge() {
        for pool in [F.standfitPool, F.mindfulPool] {
            let chosen = F.choose(pool, period: .weekly, history: Self.richHistory)
            #expect(chosen.map(\.kind) == [.activeDaysWeek])
            #expect(chosen.first?.id == "weekly-2026-11-23-0")
            #expect(chosen.first?.xp == 100)
        }
        #expect(F.choose([F.logsToday], period: .weekly).isEmpty, "a pool without a weekly kind offers none")
    }

    @Test func fewerOnlyWhenThePoolOffersFewerPossibleKinds() {
        let pool = [F.beforeHour, F.keepStreak, F.logsToday, F.logsToday]
        let chosen = F.choose(pool, history: F.history(streak: 0), hour: nil)
        #expect(chosen.map(\.kind) == [.logsToday], "a kind listed twice is offered once")
        #expect(F.choose(F.mindfulPool, history: F.history(live: [F.meditation])).count == 3)
        #expect(F.choose([], history: Self.richHistory).isEmpty)
    }

    @Test func beforeHourOnlyWhileItIsStillBeforeTheHour() {
        func offered(hour: Int?) -> Bool {
            Self.users.contains { F.choose(user: $0, history: Self.richHistory, hour: hour).contains { $0.kind == .beforeHour } }
        }
        #expect(offered(hour: 7))
        #expect(offered(hour: 0))
        #expect(!offered(hour: 8))
        #expect(!offered(hour: 23))
        #expect(!offered(hour: nil), "not when choosing for a period that is not the current one")
        let chosen = F.only(F.beforeHour, Self.richHistory, hour: 7)
        #expect(chosen?.hour == 8 && chosen?.target == 1 && chosen?.title == "Exercise before 8:00")
    }

    @Test func keepStreakOnlyWithAStreak() {
        #expect(F.only(F.keepStreak, F.history(streak: 0)) == nil)
        #expect(F.only(F.keepStreak, F.history(streak: 1))?.target == 1)
        let offered = Self.users.contains { F.choose(user: $0, history: F.history(streak: 0)).contains { $0.kind == .keepStreak } }
        #expect(!offered)
    }

    @Test func amountTodayNeedsALiveActivity() {
        let deleted = F.standfitActivities.map { Activity(id: $0.id, name: $0.name, unit: $0.unit, custom: true, deleted: true) }
        #expect(F.only(F.amountToday, F.history(live: [])) == nil)
        #expect(F.only(F.amountToday, F.history(live: deleted, recent: ["squats"])) == nil)
        for user in Self.users {
            let history = F.history(live: [deleted[0], F.standfitActivities[1]], recent: ["squats"])
            let chosen = F.choose([F.amountToday], user: user, history: history)
            #expect(chosen.first?.activity == "pushups", "a deleted activity is never named, even a recent one")
        }
    }

    @Test func amountTodayPrefersRecentLiveActivitiesAndOtherwiseAnyLiveOne() {
        let recent = Set(Self.users.compactMap { F.choose([F.amountToday], user: $0, history: F.history(recent: ["lunges", "yoga"])).first?.activity })
        #expect(recent == ["lunges"])
        let any = Set(Self.users.compactMap { F.choose([F.amountToday], user: $0, history: F.history(recent: [])).first?.activity })
        #expect(any == ["squats", "pushups", "lunges", "plank"])
    }

    @Test func distinctTodayNeedsTwoLiveActivitiesAndAtMostThatMany() {
        #expect(F.only(F.distinctToday, F.history(live: [F.standfitActivities[0]])) == nil)
        let two = Array(F.standfitActivities.prefix(2))
        let busy = F.days(Array(repeating: ["squats": 1, "pushups": 1, "lunges": 1, "plank": 1], count: 5))
        #expect(F.only(F.distinctToday, F.history(busy, live: two))?.target == 2, "N is clamped to the live activities")
        #expect(F.only(F.distinctToday, F.history(busy))?.target == 4)
    }

    @Test func anEntryNamingADeletedActivityIsNotOffered() {
        let custom = ChallengePoolEntry(kind: .logsToday, title: "Log {n} yoga", min: 1, max: 5, defaultTarget: 2, xp: 5, activity: "yoga")
        #expect(F.only(custom, F.history()) == nil)
        let yoga = Activity(id: "yoga", name: "Yoga", unit: .minutes, custom: true)
        #expect(F.only(custom, F.history(live: [yoga]))?.activity == "yoga")
    }

    @Test func kindsThatAreAlwaysPossible() {
        let empty = F.history(streak: 0, live: [])
        for entry in [F.logsToday, F.sessionsToday, F.minutesToday, F.lessonToday, F.activeDaysWeek] {
            let live = entry.activity == nil ? empty : F.history(streak: 0, live: [F.meditation])
            #expect(F.only(entry, live, hour: nil)?.kind == entry.kind, "\(entry.kind)")
        }
    }

    @Test func titlesAreRendered() {
        let history = F.history(F.days([["plank": 50], ["plank": 60], ["plank": 70]]), recent: ["plank"])
        #expect(F.only(F.amountToday, history)?.title == "Do 72 Plank today")
        #expect(F.only(F.logsToday, history)?.title == "Log 2 exercises today")
        #expect(F.only(F.activeDaysWeek, F.history(previousWeek: 4))?.title == "Be active on 3 days this week")
        #expect(ChallengeChooser.render("{n} of {activity}, {n}!", target: 3, activityName: "Squats") == "3 of Squats, 3!")
        #expect(ChallengeChooser.render("Stay active", target: 3, activityName: "Squats") == "Stay active")
        #expect(ChallengeChooser.render("{x}{{n}}{activity", target: 12, activityName: "Yoga") == "{x}{12}{activity")
        // What is filled in is not filled in again.
        #expect(ChallengeChooser.render("{activity}: {n}", target: 5, activityName: "{n} {activity}") == "{n} {activity}: 5")
        #expect(ChallengeChooser.render("Ünïcode {activity}{n}", target: 0, activityName: "Café") == "Ünïcode Café0")
        #expect(F.only(F.minutesToday, F.history(live: [F.meditation]))?.title == "Meditate 10 minutes today")
    }

    @Test func choicesCarryTheEntrysXPAndNoStrayFields() {
        for choice in F.choose(user: UserID(7), history: Self.richHistory, hour: 5) {
            let entry = F.standfitPool.first { $0.kind == choice.kind }
            #expect(choice.xp == entry?.xp)
            #expect((choice.hour != nil) == (choice.kind == .beforeHour))
            #expect((choice.activity != nil) == (choice.kind == .amountToday))
        }
    }
}
