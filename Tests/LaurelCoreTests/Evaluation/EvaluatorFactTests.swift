import Foundation
import LaurelCore
import Testing

/// How the evaluator decides a reported fact: a retry before anything else, then the refusals in the protocol's
/// order, then the challenges of the current period the fact's local day lies in, and what it reads for a backfill.
@Suite struct EvaluatorFactTests {
    static let now = Date(timeIntervalSince1970: 1_781_546_400)  // 2026-06-15T18:00:00Z, a Monday

    static let pushups = Activity(id: "pushups", name: "Pushups", unit: .reps, custom: false)
    /// One activity, no achievements, and a daily challenge worth 80 XP for two logs.
    static let challengeCatalog = Catalog(
        name: "challenge-level", activities: [pushups],
        challengePool: [ChallengePoolEntry(kind: .logsToday, title: "Log {n} exercises today", min: 2, max: 30, defaultTarget: 2, xp: 80)])

    @Test func aRetryGetsTheFirstAnswerAndAnotherContentIsAConflict() throws {
        var user = EvaluatedUser(catalog: try ShippedCatalogFiles.standfit(), now: Self.now)
        try user.log("pushups", 20, id: "same")
        let retry = try user.log("pushups", 20, id: "same")
        guard case .replayed = retry.outcome else { Issue.record("not a replay: \(retry.outcome)"); return }
        #expect(retry.writes.isEmpty, "a retry stores nothing")
        #expect(throws: Refusal.conflict("id \"same\" was used for a different log")) { try user.log("pushups", 21, id: "same") }
        #expect(user.facts.logs.count == 1)
    }

    @Test func aRetryIsAnsweredBeforeAnyRefusal() throws {
        var user = EvaluatedUser(
            catalog: try ShippedCatalogFiles.standfit(), now: Self.now, limits: UserLimits(logsPerSecond: 0.001, logBurst: 1))
        try user.log("pushups", 5, id: "first")
        #expect(throws: Refusal.rateLimited(retryAfterMs: 1_000_000)) { try user.log("pushups", 5, id: "second") }
        let retry = try user.log("pushups", 5, id: "first")
        guard case .replayed = retry.outcome else { Issue.record("the retry was refused: \(retry.outcome)"); return }
        #expect(user.piecesRead.contains(.storedFact(.log, id: "second")), "a refusal first asked whether the id was stored")
    }

    @Test func refusalsComeInTheProtocolsOrder() throws {
        var user = EvaluatedUser(catalog: try ShippedCatalogFiles.standfit(), now: Self.now)
        let future = ReportedFact(.log(activity: "no-such", amount: 1, note: nil), id: nil, at: Self.now.addingTimeInterval(600))
        #expect(throws: Refusal.invalidArgument(field: "at", message: "at is more than 5 minutes in the future")) { try user.apply(.report(future)) }
        let old = ReportedFact(.log(activity: "pushups", amount: 1, note: nil), id: nil, at: Self.now.addingTimeInterval(-31 * 86_400))
        #expect(throws: Refusal.invalidArgument(field: "at", message: "at is older than the backfill window")) { try user.apply(.report(old)) }
        #expect(throws: Refusal.notFound(field: "activity")) { try user.log("no-such") }
        #expect(user.facts.logs.isEmpty && user.storedAllowance == LogAllowance(), "refused facts spend nothing")
    }

    @Test func theAllowanceIsSpentByNewFactsAndRefillsAtTheRate() throws {
        var user = EvaluatedUser(
            catalog: try ShippedCatalogFiles.standfit(), now: Self.now, limits: UserLimits(logsPerSecond: 2, logBurst: 3))
        for _ in 0..<3 { try user.log("pushups") }
        #expect(throws: Refusal.rateLimited(retryAfterMs: 500)) { try user.log("pushups") }
        user.now.addTimeInterval(0.5)
        try user.log("pushups")
        #expect(user.facts.logs.count == 4)
        #expect(user.storedAllowance.available == 0)
    }

    @Test func challengeXPThatReachesALevelIsPushedAsALevelAfterTheChallenge() throws {
        var user = EvaluatedUser(catalog: Self.challengeCatalog, now: Self.now)
        #expect(try user.log("pushups").progress.figures.xp == 15)
        let second = try user.log("pushups")
        // 2 logs, 1 active day, and the challenge's 80: level 2 (100 XP).
        #expect(second.progress.figures.xp == 20 + 5 + 80)
        #expect(second.progress.figures.level == 2)
        #expect(second.events.map(Self.kind) == ["challenge", "level"])
        #expect(user.storedFigures.challengeXP == 80)
    }

    @Test func aBackfillReadsItsPastDaysChallengesAndCompletesThem() throws {
        var user = EvaluatedUser(catalog: Self.challengeCatalog, now: Self.now)
        try user.log("pushups")
        user.now.addTimeInterval(86_400)  // Tuesday: Monday's challenge was chosen, one log short
        try user.log("pushups")
        let backfill = try user.log("pushups", daysBack: 1)
        #expect(user.piecesRead.contains(.challenges(ChallengeBook.Period(.daily, start: LocalDay(of: Self.now, in: .gmt)))))
        #expect(backfill.events.contains { if case .challengeCompleted(let challenge) = $0 { challenge.choice.periodStart == LocalDay(of: Self.now, in: .gmt) } else { false } })
        #expect(backfill.writes.challengesCompleted.count == 1 && backfill.writes.challengesChosen.isEmpty, "a backfill chooses nothing")
    }

    @Test func aBackfillReadsEveryPeriodOfTheWindowItLacksAtOnce() throws {
        var user = EvaluatedUser(catalog: Self.challengeCatalog, now: Self.now)
        try user.log("pushups")
        let readsOfToday = user.reads
        try user.log("pushups", daysBack: 1)
        #expect(user.reads == readsOfToday + 1)
        let today = LocalDay(of: Self.now, in: .gmt)
        for daysBack in 1...30 {
            #expect(user.piecesRead.contains(.challenges(ChallengeBook.Period(.daily, containing: today.adding(days: -daysBack)))), "\(daysBack)")
        }
        for daysBack in 2...25 { try user.log("pushups", daysBack: daysBack) }
        #expect(user.reads == readsOfToday + 1, "the later backfills found their periods held")
    }

    @Test func aFactChoosesOnlyTheCurrentPeriodItsDayLiesIn() throws {
        var user = EvaluatedUser(catalog: try ShippedCatalogFiles.standfit(), now: Self.now)
        let yesterday = ReportedFact(.event(name: "share"), id: "e1", at: Self.now.addingTimeInterval(-86_400))
        let event = try user.apply(.report(yesterday))
        // Sunday lies in last week: neither today's nor this week's challenges are chosen for it.
        #expect(event.writes.challengesChosen.isEmpty)
        let today = try user.apply(.report(ReportedFact(.event(name: "share"), id: "e2", at: nil)))
        #expect(Set(today.writes.challengesChosen.map(\.choice.period)) == [.daily, .weekly])
    }

    @Test func unlocksOfTiersNoLongerListedAreWorthNothing() throws {
        var user = EvaluatedUser(catalog: try ShippedCatalogFiles.standfit(), now: Self.now, premium: true)
        try user.apply(.createActivity(ActivityDraft(name: "Rowing", unit: .reps, icon: nil)))
        let rowing = try #require(user.progress.customActivities.first).id
        try user.apply(.createTemplates(TemplateDraft(activity: rowing, type: .volume, tiers: [TemplateTier(tier: "bronze", target: 50)], name: nil)))
        let template = try #require(user.progress.templates.first)
        // 10 for the log, 5 for the day, 50 each for first_exercise and the tier.
        #expect(try user.log(rowing, 70, daysBack: 1).progress.figures.xp == 115)

        // Back and forth between two targets: each unlocks once, only the one listed counts.
        var retiered = try user.apply(.updateTemplate(TemplateChange(id: template.id, tiers: [TemplateTier(tier: "bronze", target: 60)])))
        #expect(retiered.writes.unlocks.count == 1 && retiered.progress.figures.xp == 115)
        retiered = try user.apply(.updateTemplate(TemplateChange(id: template.id, tiers: [TemplateTier(tier: "bronze", target: 50)])))
        #expect(retiered.writes.unlocks.isEmpty && retiered.progress.figures.xp == 115)
        #expect(user.storedUnlocks.count == 3, "first_exercise and both tiers' unlocks are kept")
        // Switched off, its unlock still counts; a removed tier no more.
        #expect(try user.apply(.updateTemplate(TemplateChange(id: template.id, active: false))).progress.figures.xp == 115)
        #expect(try user.apply(.updateTemplate(TemplateChange(id: template.id, tiers: [TemplateTier(tier: "bronze", target: 100)], active: true)))
            .progress.figures.xp == 65)
        #expect(user.recomputedXP() == 65)
    }

    @Test func templatesNeedPremiumAtTheMomentOfTheChange() throws {
        var user = EvaluatedUser(catalog: try ShippedCatalogFiles.standfit(), now: Self.now)
        user.progress.subscription = SubscriptionState(status: .trial, endsAt: Self.now.addingTimeInterval(60), trialUsed: true)
        let draft = TemplateDraft(activity: "pushups", type: .volume, tiers: TemplateDefaults.tiers(for: .volume), name: nil)
        try user.apply(.createTemplates(draft))
        user.now.addTimeInterval(61)
        #expect(throws: Refusal.premiumRequired(trialAvailable: false, message: "your premium has ended: templates keep counting but cannot be changed")) {
            try user.apply(.createTemplates(draft))
        }
    }

    static func kind(_ event: ProgressEvent) -> String {
        switch event {
        case .unlocked: "unlock"
        case .challengeCompleted: "challenge"
        case .levelReached: "level"
        case .streak: "streak"
        case .weeklyGoalMet: "goal"
        }
    }
}
