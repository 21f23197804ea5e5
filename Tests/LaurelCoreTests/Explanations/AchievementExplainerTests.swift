import Foundation
import LaurelCore
import Testing

/// `explain` of ACHIEVEMENT: the measure (the current run for streak kinds), what remains, a sentence, the deadline
/// and what blocks progress, from the evaluator's figures of a user driven through the one evaluator.
@Suite struct AchievementExplainerTests {
    /// Tuesday 17 November 2026, 10:00 UTC.
    static let now = Date(timeIntervalSince1970: 1_794_909_600)

    private func explain(_ id: String, of user: EvaluatedUser) throws -> AchievementExplanation {
        let entry = try #require(user.progress.achievements.entry(id: id))
        return AchievementExplainer(progress: user.progress, catalog: user.rules.catalog, now: user.now).explain(entry)
    }

    @Test func aRunningStreakExplainsItsCurrentRunAndWhenItFalls() throws {
        var user = EvaluatedUser(catalog: try ShippedCatalogFiles.standfit(), zone: "Europe/Berlin", now: Self.now)
        for back in [2, 1, 0] { try user.log("squats", 5, daysBack: back) }
        let streak = try explain("streak_7", of: user)
        #expect((streak.rule, streak.measure, streak.target, streak.remaining) == ("streak", 3, 7, 4))
        #expect(streak.text == "4 more active days in a row")
        // Active through today (Tuesday): Wednesday keeps the run at risk, it falls at Thursday's local midnight.
        let berlin = TimeZone(identifier: "Europe/Berlin")!
        #expect(streak.deadline == LocalDay("2026-11-19")!.start(in: berlin))
        #expect(streak.blocked == nil)

        let total = try explain("total_100", of: user)
        #expect((total.rule, total.measure, total.remaining, total.deadline) == ("total_logs", 3, 97, nil))
        #expect(total.text == "97 more logs of any activity")

        let everything = try explain("try_everything", of: user)
        #expect(everything.remaining == 3 && everything.text == "Log Lunges, Plank, Pushups once")

        let first = try explain("first_exercise", of: user)
        #expect((first.remaining, first.text, first.deadline) == (0, "Unlocked.", nil))
    }

    @Test func aStreakOfNothingCannotFall() throws {
        let user = EvaluatedUser(catalog: try ShippedCatalogFiles.standfit(), now: Self.now)
        let streak = try explain("streak_7", of: user)
        #expect((streak.measure, streak.remaining, streak.deadline) == (0, 7, nil))
        let weekly = try explain("goal_getter_4", of: user)
        #expect((weekly.rule, weekly.measure, weekly.deadline) == ("weekly_streak", 0, nil))
    }

    @Test func aWeeklyRunFallsAtTheEndOfAWeekNotMetYet() throws {
        var user = EvaluatedUser(catalog: try ShippedCatalogFiles.standfit(), now: Self.now)
        // The week of 9 November met (Monday to Wednesday); this week two days so far of the default three.
        for back in [8, 7, 6, 1, 0] { try user.log("plank", 30, daysBack: back) }
        let weekly = try explain("goal_getter_4", of: user)
        #expect((weekly.rule, weekly.measure, weekly.remaining) == ("weekly_streak", 1, 3))
        #expect(weekly.deadline == LocalDay("2026-11-23")!.start(in: .gmt))
        #expect(weekly.text == "3 more weeks in a row meeting your weekly goal")
        // Met today: the run holds through next week.
        try user.apply(.changeSettings(SettingsChange(weeklyGoal: 2)))
        #expect(try explain("goal_getter_4", of: user).deadline == LocalDay("2026-11-30")!.start(in: .gmt))
    }

    @Test func templateAchievementsSayWhatBlocksThem() throws {
        var user = EvaluatedUser(catalog: try ShippedCatalogFiles.standfit(), now: Self.now, premium: true)
        try user.apply(.createTemplates(TemplateDraft(activity: "pushups", type: .volume, tiers: [TemplateTier(tier: "bronze", target: 10)], name: nil)))
        let template = try #require(user.progress.templates.first)
        let id = AchievementTemplate.achievementID(template: template.id, tier: template.tiers[0])
        try user.log("pushups", 4)
        let open = try explain(id, of: user)
        #expect((open.rule, open.measure, open.remaining, open.blocked) == ("activity_total", 4, 6, nil))
        #expect(open.text == "6 more reps of Pushups in total")

        try user.apply(.updateTemplate(TemplateChange(id: template.id, tiers: nil, active: false)))
        #expect(try explain(id, of: user).blocked == .templateInactive)
        try user.apply(.updateTemplate(TemplateChange(id: template.id, tiers: nil, active: true)))
        user.progress.subscription = SubscriptionState(status: .lapsed, endsAt: nil, trialUsed: true)
        #expect(try explain(id, of: user).blocked == .premiumLapsed)
    }

    @Test func aReminderRunFallsWhenAPendingWindowEnds() throws {
        var user = EvaluatedUser(catalog: try ShippedCatalogFiles.standfit(), now: Self.now)
        // An hour ago, missed; ten minutes ago, answered by a log now; one due in a minute, pending.
        try user.apply(.report(ReportedFact(.reminder, id: "r1", at: Self.now.addingTimeInterval(-3600))))
        try user.apply(.report(ReportedFact(.reminder, id: "r2", at: Self.now.addingTimeInterval(-600))))
        try user.log("squats", 1)
        try user.apply(.report(ReportedFact(.reminder, id: "r3", at: Self.now.addingTimeInterval(60))))
        let run = try explain("responsive_10", of: user)
        #expect(run.rule == "reminder_streak" && run.measure == 1 && run.remaining == 9)
        #expect(run.deadline == Self.now.addingTimeInterval(60 + 30 * 60))
        #expect(run.text == "9 more reminders answered in a row")
    }
}
