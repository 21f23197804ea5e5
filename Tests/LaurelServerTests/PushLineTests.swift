import Foundation
import LaurelStore
import NIOCore
import Testing
@testable import LaurelServer

/// A stored push on the wire: `* KIND {...data, "seq": n}`, the seq the object's last member (protocol.md, "Pushes").
@Suite struct PushLineTests {
    static func line(_ data: String, kind: PushKind = .unlock, seq: Int64 = 7) -> String {
        String(buffer: PushRendering.line(StoredPush(seq: seq, kind: kind, at: Date(timeIntervalSince1970: 0), data: data)))
    }

    @Test func theSeqIsTheObjectsLastMember() {
        #expect(Self.line(#"{"id":"first-log","xp":10}"#) == #"* UNLOCK {"id":"first-log","xp":10,"seq":7}"#)
        #expect(Self.line(#"{"level":3}"#, kind: .level, seq: 9_007_199_254_740_993) == #"* LEVEL {"level":3,"seq":9007199254740993}"#)
    }

    @Test func anEmptyObjectGetsTheSeqAlone() {
        #expect(Self.line("{}", kind: .goal) == #"* GOAL {"seq":7}"#)
    }

    @Test func textThatIsNotAnObjectIsWrittenAsItIs() {
        #expect(Self.line("[1]", kind: .friend) == "* FRIEND [1]")
    }

    @Test func textBeyondASCIIIsKept() {
        #expect(Self.line(#"{"title":"Méditer 🧘"}"#) == #"* UNLOCK {"title":"Méditer 🧘","seq":7}"#)
    }

    @Test func theLineHasRoomForItsLineFeed() {
        let line = PushRendering.line(StoredPush(seq: 12, kind: .streak, at: Date(), data: #"{"event":"extended"}"#))
        #expect(line.writableBytes >= 1, "framing a TCP line writes its LF in place")
    }
}
