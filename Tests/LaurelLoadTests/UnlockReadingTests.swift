import LaurelProtocol
import Testing

@testable import laurel_load

/// The load client reads the achievements a LOG's answer and an UNLOCK push name without parsing the lines into
/// trees of values (it shares the cores with the server it measures, most of all in the open loop's first burst,
/// where every answer unlocks something): the ids it reads are the ones the JSON holds, whatever else is there.
@Suite struct UnlockReadingTests {
    @Test func anAnswerNamesTheAchievementsItUnlocked() {
        let line = ServerLine(
            #"a7 OK {"log":{"id":"l-1","activity":"pushups","amount":1},"duplicate":false,"# +
                #""unlocked":[{"id":"first_exercise","name":"First","icon":"🎉","source":{"id":"nested"}},"# +
                #"{"name":"no id"},{"id":7},{"id":"night_owl","tiers":[{"id":"t"}]}],"xp":115,"level":2}"#)
        #expect(line.unlockedIDs == ["first_exercise", "night_owl"])
    }

    @Test func anAnswerThatUnlockedNothingOrIsNotJSONNamesNone() {
        #expect(ServerLine(#"a1 OK {"log":{"id":"x"},"unlocked":[],"xp":5}"#).unlockedIDs == [])
        #expect(ServerLine(#"a1 OK {"log":{"id":"x"},"xp":5}"#).unlockedIDs == [])
        #expect(ServerLine(#"a1 OK {"unlocked":"first_exercise"}"#).unlockedIDs == [])
        #expect(ServerLine(#"a1 OK {"unlocked":[{"id":"first_exercise"}"#).unlockedIDs == [])
        #expect(ServerLine("a1 OK").unlockedIDs == [])
    }

    @Test func anUnlockPushNamesItsAchievement() {
        #expect(ServerLine(#"* UNLOCK {"name":"First","id":"first_exercise","icon":"🎉","seq":1}"#).unlockPushID == "first_exercise")
        #expect(ServerLine(#"* UNLOCK {"name":"First","seq":1}"#).unlockPushID == nil)
        #expect(ServerLine(#"* UNLOCK {"id":3,"seq":1}"#).unlockPushID == nil)
        #expect(ServerLine(#"* UNLOCK {"id":"first_exercise""#).unlockPushID == nil)
        #expect(ServerLine("* UNLOCK").unlockPushID == nil)
    }

    @Test func theTallyCountsUnlockPushesByAchievement() {
        var tally = ConnectionTally(index: 0, userIndex: 0)
        tally.prepareForLoad(sendLag: false)
        let now = ContinuousClock.now
        tally.recordUntagged(ServerLine(#"* UNLOCK {"id":"first_exercise","seq":1}"#), at: now)
        tally.recordUntagged(ServerLine(#"* UNLOCK {"id":"first_exercise","seq":2}"#), at: now + .milliseconds(1))
        tally.recordUntagged(ServerLine(#"* UNLOCK {"seq":3}"#), at: now)
        #expect(tally.unlockPushes == ["first_exercise": 2, "(no id)": 1])
        #expect(tally.unlockArrivals["first_exercise"] == now)
        #expect(tally.pushes == ["UNLOCK": 3])
    }
}
