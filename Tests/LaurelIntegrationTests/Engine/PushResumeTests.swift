import Foundation
import LaurelCore
import LaurelJSON
import LaurelProtocol
import Testing

/// A device that was away catches up with `AUTH {"resume_after"}` or `NOTIFICATIONS`: it gets exactly the stored
/// pushes it missed, in order, once.
@Suite struct PushResumeTests {
    @Test func resumeAfterReplaysExactlyWhatWasMissed() async throws {
        let user = try await LaurelTestDatabase.createUser("resume")
        try await TestServer.run { port in
            let device = try await PushRecorder.authenticated(port: port, token: user.token)
            // first_exercise and a STREAK, then pushups_100 and LEVEL 2 (20 + 5 + 100 = 125 XP).
            Engine.ok(try await device.request("LOG", Engine.log("squats", at: TestClock.noon(daysAgo: 1))))
            Engine.ok(try await device.request("LOG", Engine.log("pushups", amount: 100, at: TestClock.noon(daysAgo: 1, minute: 1))))
            let pushes = try await device.wait { $0.count >= 4 }
            #expect(pushes.map(\.kind) == ["UNLOCK", "STREAK", "UNLOCK", "LEVEL"])
            #expect(device.seqs == [1, 2, 3, 4])
            let last = 4
            let resumeAfter = 1

            // The notifications the device will be replayed.
            let listed = Engine.ok(try await device.request("NOTIFICATIONS", ["after": .int(resumeAfter)]))
            #expect(listed["last_seq"]?.intValue == last)
            let notifications = (listed["notifications"]?.arrayValue ?? []).compactMap(\.objectValue)
            #expect(notifications.compactMap { $0["seq"]?.intValue } == Array(resumeAfter + 1...last))
            #expect(notifications.compactMap { $0["kind"]?.stringValue } == ["STREAK", "UNLOCK", "LEVEL"])
            #expect(notifications.allSatisfy { $0["at"]?.stringValue.flatMap(Timestamp.parse) != nil })

            // A second device resumes after seq 1: the answer, then exactly seqs 2...4, in order.
            let returning = try await LineClient.connectAndGreet(port: port)
            try await returning.send(#"r1 AUTH {"token":"\#(user.token)","resume_after":\#(resumeAfter)}"#)
            let auth = try await returning.nextLine()
            #expect(auth.tag == "r1" && auth.kind == "OK", "\(auth.raw)")
            #expect(auth.object["last_seq"]?.intValue == last)
            var replayed: [LineClient.Line] = []
            for _ in resumeAfter..<last { replayed.append(try await returning.nextLine()) }
            #expect(replayed.allSatisfy { $0.isPush }, "\(replayed.map(\.raw))")
            #expect(replayed.compactMap { $0.object["seq"]?.intValue } == Array(resumeAfter + 1...last))
            #expect(replayed.map(\.kind) == notifications.compactMap { $0["kind"]?.stringValue })
            for (push, notification) in zip(replayed, notifications) {
                #expect(.object(Engine.withoutSeq(push.object)) == notification["data"], "\(push.raw)")
            }
            // What the first device saw live is what the second was replayed.
            #expect(Array(device.pushes.dropFirst(resumeAfter).map(\.raw)) == replayed.map(\.raw))

            // Nothing is replayed twice, and live pushes follow.
            let recorder = PushRecorder(returning)
            try await recorder.settle()
            #expect(recorder.pushes.isEmpty, "\(recorder.pushes.map(\.raw))")
            let shared = Engine.ok(try await device.request("EVENT", ["name": "share"]))
            #expect(Engine.ids(shared["unlocked"]) == ["first_share"])
            let live = try await recorder.wait { !$0.isEmpty }
            #expect(live.map(\.kind) == ["UNLOCK"])
            #expect(live.first?.object["seq"]?.intValue == last + 1)
            try await recorder.settle()
            #expect(recorder.seqs == [last + 1])

            // Resuming from the newest seq replays nothing; from 0, everything.
            let upToDate = try await LineClient.connectAndGreet(port: port)
            try await upToDate.send(#"u1 AUTH {"token":"\#(user.token)","resume_after":\#(last + 1)}"#)
            #expect(try await upToDate.nextLine().kind == "OK")
            let upToDateRecorder = PushRecorder(upToDate)
            try await upToDateRecorder.settle()
            #expect(upToDateRecorder.pushes.isEmpty)

            let fresh = try await LineClient.connectAndGreet(port: port)
            try await fresh.send(#"f1 AUTH {"token":"\#(user.token)","resume_after":0}"#)
            #expect(try await fresh.nextLine().kind == "OK")
            let freshRecorder = PushRecorder(fresh)
            try await freshRecorder.settle()
            #expect(freshRecorder.seqs == Array(1...last + 1))

            let all = Engine.ok(try await device.request("NOTIFICATIONS"))
            #expect((all["notifications"]?.arrayValue ?? []).count == last + 1)
            let none = Engine.ok(try await device.request("NOTIFICATIONS", ["after": .int(last + 1)]))
            #expect(none["notifications"]?.arrayValue?.isEmpty == true)
            let limited = Engine.ok(try await device.request("NOTIFICATIONS", ["after": 1, "limit": 2]))
            #expect((limited["notifications"]?.arrayValue ?? []).compactMap { $0.objectValue?["seq"]?.intValue } == [2, 3])
        }
    }
}
