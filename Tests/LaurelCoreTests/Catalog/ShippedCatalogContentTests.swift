import LaurelCore
import Testing

/// The shipped catalog files hold exactly what the rules list: activities, lessons, events and achievements with
/// their categories, tiers, rules and targets.
@Suite struct ShippedCatalogContentTests {
    /// One row of the rules' achievement tables.
    struct Row: Sendable {
        let id: String
        let category: String
        let tier: AchievementTier
        let rule: AchievementRule
        let target: Int
        var icon: String?
        var secret = false
    }

    static let standfitRows: [Row] = [
        Row(id: "first_exercise", category: "milestones", tier: .bronze, rule: .totalLogs, target: 1),
        Row(id: "total_100", category: "milestones", tier: .silver, rule: .totalLogs, target: 100),
        Row(id: "total_1000", category: "milestones", tier: .gold, rule: .totalLogs, target: 1000),
        Row(id: "streak_7", category: "consistency", tier: .bronze, rule: .streak, target: 7),
        Row(id: "streak_30", category: "consistency", tier: .silver, rule: .streak, target: 30),
        Row(id: "streak_365", category: "consistency", tier: .platinum, rule: .streak, target: 365),
        Row(id: "goal_getter_4", category: "consistency", tier: .bronze, rule: .weeklyStreak, target: 4),
        Row(id: "goal_getter_12", category: "consistency", tier: .silver, rule: .weeklyStreak, target: 12),
        Row(id: "goal_getter_52", category: "consistency", tier: .platinum, rule: .weeklyStreak, target: 52),
        Row(id: "responsive_10", category: "consistency", tier: .bronze, rule: .reminderStreak, target: 10),
        Row(id: "responsive_50", category: "consistency", tier: .gold, rule: .reminderStreak, target: 50),
        Row(id: "pushups_100", category: "volume", tier: .bronze, rule: .activityTotal(activity: "pushups"), target: 100),
        Row(id: "squats_1000", category: "volume", tier: .silver, rule: .activityTotal(activity: "squats"), target: 1000),
        Row(id: "all_in_one_day", category: "variety", tier: .silver, rule: .dayVariety, target: 4),
        Row(id: "try_everything", category: "variety", tier: .bronze,
            rule: .distinctActivities(["squats", "pushups", "lunges", "plank"]), target: 4),
        Row(id: "early_bird", category: "time", tier: .bronze, rule: .logsBefore(hour: 7), target: 1),
        Row(id: "night_owl", category: "time", tier: .bronze, rule: .logsAfter(hour: 21), target: 1),
        Row(id: "perfect_week", category: "challenges", tier: .gold, rule: .perfectWeeks, target: 1),
        Row(id: "marathon", category: "challenges", tier: .silver, rule: .busiestDay, target: 10),
        Row(id: "top_quarter", category: "challenges", tier: .silver, rule: .topPercent(TopPercentGoal(board: .logs, percent: 25)), target: 1),
        Row(id: "first_share", category: "social", tier: .bronze, rule: .events(name: "share"), target: 1),
        Row(id: "first_invite", category: "social", tier: .bronze, rule: .events(name: "invite"), target: 1),
        Row(id: "level_10", category: "milestones", tier: .gold, rule: .level, target: 10, secret: true),
    ]

    static let mindfulRows: [Row] = [
        Row(id: "first_step", category: "milestones", tier: .bronze, rule: .totalLogs, target: 1, icon: "🧘"),
        Row(id: "weekly_warrior", category: "consistency", tier: .silver, rule: .streak, target: 7, icon: "🔥"),
        Row(id: "mindful_month", category: "consistency", tier: .gold, rule: .streak, target: 30, icon: "🌟"),
        Row(id: "steady_practice", category: "consistency", tier: .silver, rule: .weeklyStreak, target: 4, icon: "🗓️"),
        Row(id: "committed", category: "milestones", tier: .silver, rule: .totalLogs, target: 30, icon: "💪"),
        Row(id: "dedicated", category: "milestones", tier: .gold, rule: .totalLogs, target: 100, icon: "🎯"),
        Row(id: "student_of_stillness", category: "learning", tier: .silver, rule: .lessons(category: "basics"), target: 3, icon: "📚"),
        Row(id: "knowledge_seeker", category: "learning", tier: .gold, rule: .lessons(category: nil), target: 6, icon: "🧠"),
    ]

    private func check(_ catalog: Catalog, against rows: [Row]) {
        #expect(catalog.achievements.map(\.id) == rows.map(\.id))
        for (definition, row) in zip(catalog.achievements, rows) {
            #expect(definition.category == row.category, "\(row.id)")
            #expect(definition.tier == row.tier, "\(row.id)")
            #expect(definition.rule == row.rule, "\(row.id)")
            #expect(definition.target == row.target, "\(row.id)")
            #expect(definition.isSecret == row.secret, "\(row.id)")
            if let icon = row.icon { #expect(definition.icon == icon, "\(row.id)") }
            #expect(!definition.name.isEmpty && !definition.description.isEmpty && !definition.icon.isEmpty, "\(row.id)")
        }
    }

    @Test func standfitIsTheRulesTable() throws {
        let catalog = try ShippedCatalogFiles.standfit()
        #expect(catalog.name == "standfit")
        #expect(catalog.activities.map(\.id) == ["squats", "pushups", "lunges", "plank"])
        #expect(catalog.activities.map(\.name) == ["Squats", "Pushups", "Lunges", "Plank"])
        #expect(catalog.activities.map(\.unit) == [.reps, .reps, .reps, .seconds])
        #expect(catalog.activities.allSatisfy { !$0.custom && !$0.deleted })
        #expect(catalog.eventNames == ["share", "invite"])
        #expect(catalog.lessons.isEmpty)
        check(catalog, against: Self.standfitRows)
        #expect(catalog.achievements.filter(\.isSecret).map(\.id) == ["level_10"])
    }

    @Test func mindfulIsTheRulesTable() throws {
        let catalog = try ShippedCatalogFiles.mindful()
        #expect(catalog.name == "mindful")
        #expect(catalog.activities.map(\.id) == ["meditation"])
        #expect(catalog.activities.map(\.name) == ["Meditation"])
        #expect(catalog.activities.map(\.unit) == [.minutes])
        #expect(catalog.lessons == [
            Catalog.Lesson(id: "basics-1", category: "basics"), Catalog.Lesson(id: "basics-2", category: "basics"),
            Catalog.Lesson(id: "basics-3", category: "basics"), Catalog.Lesson(id: "breath-1", category: "breath"),
            Catalog.Lesson(id: "breath-2", category: "breath"), Catalog.Lesson(id: "breath-3", category: "breath"),
        ])
        check(catalog, against: Self.mindfulRows)
        #expect(catalog.achievements.allSatisfy { !$0.isSecret })
    }

    @Test func everyRuleNamesWhatItsCatalogHas() throws {
        for catalog in [try ShippedCatalogFiles.standfit(), try ShippedCatalogFiles.mindful()] {
            let activities = Set(catalog.activities.map(\.id))
            let categories = Set(catalog.lessons.map(\.category))
            for definition in catalog.achievements {
                switch definition.rule {
                case .distinctActivities(let set): #expect(set.isSubset(of: activities), "\(definition.id)")
                case .events(let name): #expect(catalog.eventNames.contains(name), "\(definition.id)")
                case .lessons(let category?): #expect(categories.contains(category), "\(definition.id)")
                default: if let activity = definition.rule.activity { #expect(activities.contains(activity), "\(definition.id)") }
                }
                // A bounded measure must be able to reach the target.
                if let bound = definition.rule.measureBound { #expect(bound >= definition.target, "\(definition.id)") }
            }
        }
    }
}
