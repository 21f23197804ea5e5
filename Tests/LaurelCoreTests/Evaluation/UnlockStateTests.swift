import Foundation
import LaurelCore
import Testing

/// A progress keeps what its unlocks mean for evaluation (`UserProgress.unlockState()`) between decisions; whatever
/// changes the unlocks or the listing must make it work that out again.
@Suite struct UnlockStateTests {
    private static let now = Date(timeIntervalSince1970: 1_717_000_000)

    private func expectCurrent(_ progress: inout UserProgress, _ comment: Comment) {
        let kept = progress.unlockState()
        #expect(kept == progress.achievements.unlockState(of: progress.unlocks.keys), comment)
    }

    @Test func theKeptStateFollowsEveryChangeOfTheUnlocksAndTheListing() throws {
        var progress = EvaluatedUser(catalog: try ShippedCatalogFiles.standfit(), now: Self.now).progress
        expectCurrent(&progress, "a new user")
        let first = progress.unlockState()
        progress.unlocks["first_exercise"] = Self.now
        expectCurrent(&progress, "an unlock added in place")
        #expect(progress.unlockState() != first)
        progress.unlocks["streak_7"] = Self.now
        progress.unlocks["no_longer_listed"] = Self.now
        expectCurrent(&progress, "more unlocks, one not listed")
        progress.unlocks = progress.unlocks.filter { $0.key != "streak_7" }
        expectCurrent(&progress, "an unlock removed")
        let created = Date(timeIntervalSince1970: 1_700_000_000)
        let template = AchievementTemplate(
            id: "t", name: "Pushups", activityID: "pushups", type: .volume,
            tiers: [TemplateTier(tier: "bronze", target: 10), TemplateTier(tier: "silver", target: 50)], createdAt: created, updatedAt: created)
        progress.unlocks["tpl.t.10"] = Self.now
        expectCurrent(&progress, "an unlock of a tier not listed yet")
        progress.templates = [template]
        progress.achievements = UserAchievements(catalog: try ShippedCatalogFiles.standfit(), templates: [template], activities: [])
        expectCurrent(&progress, "the listing changed")
        #expect(progress.unlockState().evaluatedUnlocked.count == progress.achievements.evaluated.count)
        // A copy keeps the state it was made with, and changing it leaves the original's alone.
        var copy = progress
        copy.unlocks = [:]
        expectCurrent(&copy, "a copy's unlocks emptied")
        expectCurrent(&progress, "the original after its copy changed")
    }

    /// A decision asks whether each comparative goal is unlocked by the goal's place among the evaluated achievements
    /// (the unlock state's flags), not by its id: the places are the goals', in order.
    @Test func theComparativeGoalsAreFoundByTheirPlaceAmongTheEvaluated() throws {
        var progress = EvaluatedUser(catalog: try ShippedCatalogFiles.standfit(), now: Self.now).progress
        let achievements = progress.achievements
        #expect(!achievements.topPercentGoals.isEmpty, "the catalog has comparative goals")
        #expect(achievements.topPercentGoals.map { achievements.evaluated[$0.place].id } == achievements.topPercentGoals.map(\.id))
        let goal = try #require(achievements.topPercentGoals.first)
        let place = goal.place
        #expect(progress.unlockState().evaluatedUnlocked[place] == false)
        progress.unlocks[goal.id] = Self.now
        #expect(progress.unlockState().evaluatedUnlocked[place] == true)
    }
}
