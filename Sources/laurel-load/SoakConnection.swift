import Foundation
import LaurelClient
import LaurelCore
import LaurelJSON

/// One device of a soak run (`--soak`), an app as the client library makes one: a ``LaurelClient`` that stays for
/// the whole run, logging through its outbox (ids and times given when recorded, sent again after a lost
/// connection) and reading with typed requests, on an open-loop schedule, one request at a time. Of every 20: 14
/// LOGs of now, 2 backfilled LOGs (1 to 25 days back), and one each of PROFILE, ACHIEVEMENTS, LOGS and CHALLENGES.
/// Every `reconnectEvery` the device closes its connection and the client comes back with `resume_after`, as it
/// does when the server closes it (an instance restarting); pushes are counted as the client delivers them, once
/// each, and the pushes it had to drop as repeats are reported.
struct SoakConnection: Sendable {
    let index: Int
    let user: LoadUser
    let plan: LoadPlan
    let coordinator: LoadCoordinator
    let reconnectEvery: Duration

    func run() async -> ConnectionTally {
        var tally = ConnectionTally(index: index, userIndex: user.index)
        let client: LaurelClient
        do {
            client = try LaurelClient(configuration: LaurelClientConfiguration(
                host: plan.host, port: plan.port(ofConnection: index), token: user.token,
                reconnect: ReconnectPolicy(initialDelay: .milliseconds(100), maxDelay: .seconds(5)), lastSeenPush: 0))
        } catch {
            tally.fail(.connect, "\(error)")
            coordinator.handshakeConcluded(connection: index, authenticated: false)
            return tally
        }
        await client.start()
        guard await Self.connected(client, within: plan.handshakeTimeout) else {
            tally.fail(.handshake, "not connected within \(plan.handshakeTimeout): \(await client.status)")
            coordinator.handshakeConcluded(connection: index, authenticated: false)
            await client.stop()
            return tally
        }
        coordinator.handshakeConcluded(connection: index, authenticated: true)
        tally.isAuthenticated = true
        tally.prepareForLoad(sendLag: false)
        let pushes = Task { await Self.countPushes(of: client) }
        let start = await coordinator.startSignal.wait()
        if let slice = plan.latencyTimelineSlice { tally.timeline = (start.window.measureStart, slice) }
        let schedule = OpenLoopSchedule(
            window: start.window, logsPerSecond: plan.rate ?? 1, liveConnections: start.liveConnections,
            connection: index, connections: plan.connections)
        var reconnectAt = ContinuousClock.now + reconnectEvery.jittered(by: 0.2)
        var slot = 0
        while true {
            let intended = schedule.time(ofSlot: slot)
            if start.window.isOver(at: intended) || coordinator.isClosing { break }
            if intended > .now { try? await Task.sleep(until: intended, clock: .continuous) }
            if ContinuousClock.now >= reconnectAt {
                await client.reconnect()
                reconnectAt = .now + reconnectEvery.jittered(by: 0.2)
            }
            let measured = start.window.isMeasured(intended)
            if measured { tally.sent += 1 }
            let (errorCode, unlocked) = await request(slot, on: client)
            tally.recordAnswer(errorCode: errorCode, unlocked: unlocked, sentAt: intended, measured: measured, at: .now)
            coordinator.responseArrived()
            slot += 1
        }
        coordinator.loadFinished()
        // Pushes of the last answers still on their way.
        try? await Task.sleep(for: plan.pushGrace)
        tally.reconnects = max(0, await client.authentications - 1)
        tally.repeatedPushes = await client.repeatedPushes
        await client.stop()
        let counted = await pushes.value
        tally.pushes = counted.byKind
        tally.unlockPushes = counted.unlocks
        return tally
    }

    /// Slot `n`'s request, answered: nil or the error code, and the achievements a LOG unlocked.
    private func request(_ slot: Int, on client: LaurelClient) async -> (errorCode: String?, unlocked: [String]) {
        switch slot % 20 {
        case 0..<16:
            // 14 of now, 2 backfilled: recorded at the time the user logged them.
            let daysBack = slot % 20 < 14 ? 0 : slot % 25 + 1
            do {
                let entry = try await client.record(
                    .log(activity: plan.activity, amount: 1), at: Date().addingTimeInterval(-Double(daysBack) * 86_400))
                switch await client.outcome(of: entry.id) {
                case .acknowledged(_, let answer)?:
                    let decoded = try? JSONDecoder().decode(Unlocked.self, from: Data(answer.utf8))
                    return (nil, decoded?.unlocked.map(\.id) ?? [])
                case .rejected(_, let error)?: return (error.code ?? "rejected", [])
                case nil: return ("lost_outbox_entry", [])
                }
            } catch {
                return ("outbox_store", [])
            }
        default:
            do {
                switch slot % 4 {
                case 0: _ = try await retrying { try await client.send(Verb.Profile()) }
                case 1: _ = try await retrying { try await client.send(Verb.Achievements()) }
                case 2: _ = try await retrying { try await client.send(Verb.Logs(limit: 20)) }
                default: _ = try await retrying { try await client.send(Verb.Challenges()) }
                }
                return (nil, [])
            } catch let error as LaurelClientError {
                return (error.code ?? "\(error)", [])
            } catch {
                return ("\(error)", [])
            }
        }
    }

    /// A read, again while a reconnect interrupts it (reads are safe to repeat).
    private func retrying<T>(_ body: () async throws -> T) async throws -> T {
        while true {
            do {
                return try await body()
            } catch LaurelClientError.connectionLost {
                continue
            }
        }
    }

    /// The ids a LOG's answer says it unlocked.
    private struct Unlocked: Decodable {
        struct ID: Decodable { let id: String }
        let unlocked: [ID]
    }

    private static func connected(_ client: LaurelClient, within timeout: Duration) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            switch await client.status {
            case .connected: return true
            case .authenticationFailed, .stopped: return false
            default: try? await Task.sleep(for: .milliseconds(20))
            }
        }
        return false
    }

    /// Pushes by kind, and UNLOCK pushes by achievement, until the client stops.
    private static func countPushes(of client: LaurelClient) async -> (byKind: [String: Int], unlocks: [String: Int]) {
        var byKind: [String: Int] = [:]
        var unlocks: [String: Int] = [:]
        for await push in client.pushes {
            byKind[push.kind, default: 0] += 1
            if push.kind == "UNLOCK", let id = push.object["id"]?.stringValue { unlocks[id, default: 0] += 1 }
        }
        return (byKind, unlocks)
    }
}

extension Duration {
    /// This duration changed by up to ±`fraction` at random, so devices that started together do not all
    /// reconnect together.
    func jittered(by fraction: Double) -> Duration {
        let seconds = inSeconds * (1 + Double.random(in: -fraction...fraction))
        return .nanoseconds(Int64(seconds * 1e9))
    }
}
