import LaurelCore
import Testing

@Suite struct LevelCurveTests {
    @Test(arguments: [
        (0, 1), (99, 1), (100, 2), (249, 2), (250, 3), (474, 3), (475, 4), (812, 4), (813, 5),
    ])
    func levelAtTheBoundaries(xp: Int, level: Int) {
        #expect(LevelCurve.level(forXP: xp) == level)
    }

    @Test func thresholdsAndCosts() {
        #expect(LevelCurve.threshold(of: 1) == 0)
        #expect(LevelCurve.threshold(of: 2) == 100)
        #expect(LevelCurve.threshold(of: 5) == 813)
        #expect(LevelCurve.cost(from: 4) == 338)
        #expect(LevelCurve.cost(from: 5) == 506)
        #expect(LevelCurve.threshold(of: 6) == 1319)
        #expect(LevelCurve.level(forXP: -5) == 1)
        for level in 1..<40 {
            #expect(LevelCurve.level(forXP: LevelCurve.threshold(of: level)) == level)
            #expect(LevelCurve.level(forXP: LevelCurve.threshold(of: level + 1) - 1) == level)
        }
        #expect(LevelCurve.level(forXP: Int.max) == LevelCurve.maximumLevel)
        #expect(LevelCurve.xpToNextLevel(forXP: Int.max) == 0)
    }

    @Test func xpToNextLevel() {
        #expect(LevelCurve.xpToNextLevel(forXP: 0) == 100)
        #expect(LevelCurve.xpToNextLevel(forXP: 99) == 1)
        #expect(LevelCurve.xpToNextLevel(forXP: 100) == 150)
        #expect(LevelCurve.xpToNextLevel(forXP: 812) == 1)
    }

    @Test func theXPFormula() {
        #expect(ExperienceFormula.xp(liveLogs: 3, completedLessons: 2, activeDays: 4, unlockedAchievements: 1, challengeXP: 25) == 145)
        var measures = ProgressMeasures()
        measures.totalLogs = 9
        measures.activeDays = 1
        measures.completedLessons = 0
        #expect(measures.baseXP == 95)
    }
}
