import Foundation
import LaurelCore
import LaurelTestSupport
import Testing

@Suite struct InviteCodeTests {
    @Test func codesAreEightCharactersOfTheAlphabetWithoutLookAlikes() {
        var generator = SeededRandom(seed: 7)
        let codes = (0..<2000).map { _ in InviteCode.random(using: &generator) }
        #expect(codes.allSatisfy { $0.text.count == 8 && InviteCode($0.text) == $0 })
        #expect(Set(codes.map(\.text)).count == codes.count)
        let used = Set(codes.flatMap(\.text))
        #expect(used == Set(InviteCode.alphabet), "every character of the alphabet appears in 16,000 draws")
        #expect(used.isDisjoint(with: "01ILO"))
    }

    @Test func textsThatCannotBeCodes() {
        for text in ["", "ABCD234", "ABCD23456", "ABCD2O45", "ABCD1345", "abcd2345", "ABCD 345"] {
            #expect(InviteCode(text) == nil, "\(text)")
        }
    }

    @Test func aCodeIsOpenForSevenDaysAndNamesItsInvitersEvent() throws {
        let code = try #require(InviteCode("HJK23456"))
        let made = Date(timeIntervalSince1970: 1_800_000_000)
        #expect(InviteCode.expiry(ofCodeMadeAt: made).timeIntervalSince(made) == 7 * 86_400)
        #expect(code.inviterEventID == "invite:HJK23456")
    }
}
