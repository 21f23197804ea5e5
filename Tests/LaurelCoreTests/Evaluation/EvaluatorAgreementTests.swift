import Foundation
import LaurelCore
import LaurelTestSupport
import Testing

/// Random histories played change by change through the one evaluator — logs of today and backfilled ones, deleted
/// logs, events, reminders, settings changes (rest days, vacations, weekly goals, zone moves), custom activities,
/// templates (speed ones too), CHALLENGES, days passing — in zones far apart: after every change, the progress the decisions left equals
/// the user loaded afresh from what they wrote (the running state recomputed from every fact), the XP they
/// stored equals rules.md's count over the stored facts, unlocks and completed challenges, and the board scores their
/// ``ScoreChanges`` add up to equal the boards recomputed from those (``BoardScores``).
@Suite struct EvaluatorAgreementTests {
    static let zones = ["UTC", "Pacific/Kiritimati", "Pacific/Pago_Pago", "America/St_Johns", "Asia/Kathmandu", "Europe/Berlin"]
    static let activities = ["squats", "pushups", "lunges", "plank"]
    /// A few days before a daylight-saving change in Europe and North America.
    static let start = Date(timeIntervalSince1970: 1_774_000_000)  // 2026-03-20T09:46:40Z

    @Test(arguments: 0..<30)
    func incrementalDecisionsAgreeWithARecomputation(seed: Int) throws {
        var random = SeededRandom(seed: UInt64(seed))
        let catalog = try ShippedCatalogFiles.standfit()
        var user = EvaluatedUser(catalog: catalog, zone: Self.zones[seed % Self.zones.count], now: Self.start, premium: seed % 3 != 0)
        var custom: [String] = []
        for index in 0..<(40 + seed * 2) {
            try step(&user, custom: &custom, random: &random)
            let loaded = user.loadedAgain()
            #expect(user.progress.accumulator.measures == loaded.accumulator.measures, "seed \(seed), step \(index)")
            #expect(user.progress.streak(at: user.now) == loaded.streak(at: user.now), "seed \(seed), step \(index)")
            #expect(user.progress.weeklyGoalStreak(at: user.now) == loaded.weeklyGoalStreak(at: user.now), "seed \(seed), step \(index)")
            let recomputed = ProgressRecomputation(
                facts: user.facts, settings: loaded.settingsHistory, today: loaded.today(at: user.now), speedWindows: [])
            #expect(user.progress.weeklyGoalStreak(at: user.now) == recomputed.weeklyGoalStreak, "seed \(seed), step \(index)")
            let recomputedNow = ProgressRecomputation(
                facts: user.facts, settings: loaded.settingsHistory, today: loaded.today(at: user.now), now: user.now, speedWindows: [])
            #expect(user.progress.reminderStreak(at: user.now) == recomputedNow.reminderStreak, "seed \(seed), step \(index)")
            #expect(loaded.reminderStreak(at: user.now) == recomputedNow.reminderStreak, "seed \(seed), step \(index)")
            #expect(user.storedFigures.xp == user.recomputedXP(), "seed \(seed), step \(index): the stored XP is the rules' count")
            #expect(user.storedFigures.level == LevelCurve.level(forXP: user.storedFigures.xp), "seed \(seed), step \(index)")
            #expect(user.progress.unlocks == user.storedUnlocks, "seed \(seed), step \(index)")
            // The boards the changes kept are the boards recomputed from the facts; all-time XP is the XP.
            let boards = user.recomputedBoardScores()
            let difference = Self.difference(user.boardScores, boards)
            #expect(difference.isEmpty, "seed \(seed), step \(index): \(difference)")
            #expect((boards[BoardKey(board: .xp, period: .all, key: "all")] ?? 0) == user.storedFigures.xp, "seed \(seed), step \(index)")
            // Loaded afresh, nothing is met that the decisions' progress would not unlock too: the decisions unlocked
            // everything in time (days passing alone can meet a weekly goal, a rest day counting: both unlock then).
            if case .decided(let again) = user.evaluator.evaluate(.catchUp, on: loaded, now: user.now),
               case .decided(let held) = user.evaluator.evaluate(.catchUp, on: user.progress, now: user.now) {
                #expect(again.writes.unlocks == held.writes.unlocks, "seed \(seed), step \(index)")
            }
        }
        // GOAL is pushed once a week at most, for a week that was met when it was pushed.
        let goalWeeks = user.events.compactMap { event -> ISOWeek? in
            guard case .weeklyGoalMet(let streak) = event else { return nil }
            #expect(streak.met && streak.thisWeek >= streak.goal, "seed \(seed)")
            return streak.week
        }
        #expect(Set(goalWeeks).count == goalWeeks.count, "seed \(seed): \(goalWeeks)")
    }

    /// The keys on which two sets of scores differ, with both scores.
    static func difference(_ kept: [BoardKey: Int], _ recomputed: [BoardKey: Int]) -> String {
        Set(kept.keys).union(recomputed.keys).filter { kept[$0] != recomputed[$0] }
            .map { "\($0.board) \($0.key): kept \(kept[$0] ?? 0), recomputed \(recomputed[$0] ?? 0)" }.sorted().joined(separator: "; ")
    }

    /// One change of a random kind; refusals (a template without premium, a deleted activity) are part of the game.
    private func step(_ user: inout EvaluatedUser, custom: inout [String], random: inout SeededRandom) throws {
        let roll = random.below(100)
        let live = Self.activities + custom.filter { id in user.progress.customActivities.contains { $0.id == id && !$0.deleted } }
        do {
            switch roll {
            case 0..<45:
                let activity = live[random.below(live.count)]
                let back = random.below(3) == 0 ? 0 : random.below(20)
                user.now.addTimeInterval(Double(random.below(3600)))
                _ = try user.log(activity, 1 + random.below(60), daysBack: back)
            case 45..<52:
                if let victim = user.facts.logs.randomElement(using: &random) { try user.apply(.deleteLog(id: victim.id)) }
            case 52..<54:
                try user.apply(.report(ReportedFact(.event(name: "share"), id: "event-\(random.below(1000))", at: nil)))
            case 54..<56:
                // A reminder shown now or up to two days ago (a device syncing), sometimes reported again.
                let at = user.now.addingTimeInterval(-Double(random.below(2 * 86_400)))
                try user.apply(.report(ReportedFact(.reminder, id: "reminder-\(random.below(60))", at: random.below(3) == 0 ? nil : at)))
            case 56..<62:
                switch random.below(4) {
                case 0: try user.apply(.changeSettings(SettingsChange(restDay: .some(Weekday(rawValue: 1 + random.below(7))))))
                case 1: try user.apply(.changeSettings(SettingsChange(vacation: random.below(2) == 0)))
                case 2: try user.apply(.changeSettings(SettingsChange(weeklyGoal: 1 + random.below(7))))
                default: try user.apply(.changeSettings(SettingsChange(timeZone: Self.zones[random.below(Self.zones.count)])))
                }
            case 62..<72:
                user.now.addTimeInterval(Double(3600 * (1 + random.below(40))))
            case 72..<78:
                let types: [TemplateType] = [.volume, .daily, .weekly, .streak, .speed, .progressive, .monthly]
                let type = types[random.below(types.count)]
                let tiers = type == .speed
                    ? [TemplateTier(tier: "bronze", target: 20 + random.below(50), windowMinutes: 1 + random.below(60))]
                    : [TemplateTier(tier: "bronze", target: 10 + random.below(100)), TemplateTier(tier: "silver", target: 200 + random.below(300))]
                if random.below(6) == 0 {
                    // A combo of two different live activities.
                    let first = random.below(live.count)
                    let second = (first + 1 + random.below(live.count - 1)) % live.count
                    let combo = [first, second].map { ComboDraftPart(activity: live[$0], amount: 1 + random.below(40)) }
                    let comboTiers = [TemplateTier(tier: "bronze", target: 1), TemplateTier(tier: "silver", target: 2 + random.below(5))]
                    try user.apply(.createTemplates(TemplateDraft(activity: nil, type: .combo, tiers: comboTiers, name: nil, combo: combo)))
                } else {
                    try user.apply(.createTemplates(TemplateDraft(activity: live[random.below(live.count)], type: type, tiers: tiers, name: nil)))
                }
            case 78..<82:
                if let template = user.progress.templates.randomElement(using: &random) {
                    if random.below(2) == 0 {
                        try user.apply(.deleteTemplate(id: template.id))
                    } else {
                        var tiers = template.tiers
                        tiers[0].target = max(1, tiers[0].target - 5)
                        try user.apply(.updateTemplate(TemplateChange(id: template.id, tiers: tiers, active: random.below(4) != 0)))
                    }
                }
            case 82..<86:
                try user.apply(.chooseChallenges)
            case 86..<90:
                if random.below(2) == 0 || custom.isEmpty {
                    let decision = try user.apply(.createActivity(ActivityDraft(name: "Custom \(random.below(5))", unit: .reps, icon: nil)))
                    if case .activity(let activity) = decision.outcome, !custom.contains(activity.id) { custom.append(activity.id) }
                } else {
                    try user.apply(.setActivityDeleted(custom[random.below(custom.count)], deleted: random.below(2) == 0))
                }
            default:
                try user.apply(.catchUp)
            }
        } catch is Refusal {
            // Refused changes store nothing; the next checks hold all the same.
        }
    }
}
