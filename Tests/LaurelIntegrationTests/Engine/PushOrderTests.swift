import Foundation
import LaurelClient
import LaurelJSON
import LaurelProtocol
import Testing

/// The requesting connection gets its `OK` first and then the pushes its request made, like every other connection
/// of the user (docs/protocol-notes.md, "Achievements, pushes and progress"), even though the answer and the pushes
/// leave that connection together.
@Suite struct PushOrderTests {
    @Test func theAnswerComesBeforeThePushesItsRequestMade() async throws {
        let user = try await LaurelTestDatabase.createUser("push-order")
        try await TestServer.run { port in
            let phone = try await LineClient.authenticated(port: port, token: user.token)
            let watch = try await LineClient.authenticated(port: port, token: user.token)
            // The user's first log unlocks first_exercise and starts the streak: two pushes.
            let tag = phone.sendRequest("LOG", Engine.log("squats", at: TestClock.noon(daysAgo: 1)))
            let answer: LineClient.Line
            switch try await phone.nextArrival() {
            case .answer(tag, let line): answer = line
            case let other:
                Issue.record("the first line after the LOG is not its answer: \(other)")
                return
            }
            #expect(answer.kind == "OK", "\(answer.raw)")
            var onPhone: [LineClient.Line] = []
            for _ in 0..<2 { onPhone.append(try await phone.nextLine()) }
            let raws: [String] = onPhone.map { String($0.raw) }
            let kinds: [String] = onPhone.map { String($0.kind) }
            let seqs: [Int] = onPhone.compactMap { line in line.object["seq"]?.intValue }
            #expect(kinds == ["UNLOCK", "STREAK"], "\(raws)")
            #expect(seqs == [1, 2], "\(raws)")
            var onWatch: [String] = []
            for _ in 0..<2 { onWatch.append(String(try await watch.nextLine().raw)) }
            #expect(onWatch == raws, "the other connection gets the same pushes")
        }
    }
}
