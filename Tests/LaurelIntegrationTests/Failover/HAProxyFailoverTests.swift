import Foundation
import LaurelCore
import LaurelJSON
import LaurelPostgres
import LaurelProtocol
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Debian's `haproxy` with the project's `deploy/haproxy.cfg` in front of two `laurel serve --proxy-protocol`
/// processes, and one of them killed with SIGKILL while its clients log: they reconnect through the balancer to
/// the other with `resume_after`, send again the LOGs they had no `OK` for, and in the end no acknowledged LOG is
/// lost, none is stored twice, and every device received every unlock of its user exactly once.
@Suite struct HAProxyFailoverTests {
    static let users = 8
    static let devicesPerUser = 2
    static let logsPerDevice = 60
    /// What the LOGs cycle through: the four exercises on one day unlock `try_everything` and `all_in_one_day`
    /// early, ten logs `marathon`, and near the end the amounts reach `pushups_100` and `squats_1000` and the count
    /// `total_100`, after the kill.
    static let exercises: [(activity: String, amount: Int)] = [("squats", 35), ("pushups", 4), ("lunges", 10), ("plank", 30)]

    static func plan(user: Int, device: Int) -> [PlannedLog] {
        (0..<logsPerDevice).map { number in
            let exercise = exercises[number % exercises.count]
            return PlannedLog(id: "u\(user)-d\(device)-\(number)", activity: exercise.activity, amount: exercise.amount)
        }
    }

    @Test func clientsResumeThroughTheBalancerWhenAnInstanceIsKilled() async throws {
        _ = try await LaurelTestDatabase.admin()  // migrated before the child processes start
        let (doomed, doomedPort) = try await ServerProcess.start(arguments: ["--proxy-protocol"])
        let (survivor, survivorPort) = try await ServerProcess.start(arguments: ["--proxy-protocol"])
        let balancer = try await HAProxyProcess.start(instancePorts: [doomedPort, survivorPort])
        defer {
            balancer.stop()
            doomed.send(SIGTERM)
            survivor.send(SIGTERM)
        }
        let deadline = ContinuousClock.now + .seconds(50)

        var devices: [FailoverDevice] = []
        for userIndex in 0..<Self.users {
            let user = try await LaurelTestDatabase.createUser("failover")
            for deviceIndex in 0..<Self.devicesPerUser {
                devices.append(FailoverDevice(
                    user: user, name: "u\(userIndex)-d\(deviceIndex)", balancerPort: balancer.port,
                    plan: Self.plan(user: userIndex, device: deviceIndex), deadline: deadline))
            }
        }
        // Every device authenticated before the first LOG, so that the instances share the connections and each
        // device is there for every unlock.
        for index in Self.connectionOrder(devices.count) {
            #expect(await devices[index].ask("PING")?.isOK == true, "\(devices[index].name) did not connect: \(balancer.errorOutput)")
        }

        let planned = Self.users * Self.devicesPerUser * Self.logsPerDevice
        let progress = FailoverProgress()
        async let acknowledgedAtKill = Self.kill(doomed, after: planned / 3, of: progress)
        devices = await withTaskGroup(of: FailoverDevice.self) { group in
            for device in devices {
                group.addTask {
                    var device = device
                    await device.logEverything(progress: progress)
                    return device
                }
            }
            return await group.reduce(into: []) { $0.append($1) }.sorted { $0.name < $1.name }
        }
        let killedAfter = await acknowledgedAtKill
        #expect(killedAfter != nil, "the LOGs before the kill were not acknowledged in time")
        #expect(doomed.terminationReason == .uncaughtSignal)

        // Pushes of one device's LOGs reach the other through NOTIFY, a moment after the OK: wait for each to
        // have every push its user has stored, then read what PROFILE counted.
        var stored: [String: StoredUser] = [:]
        for device in devices {
            if stored[device.user.name] == nil { stored[device.user.name] = try await StoredUser.read(device.user) }
        }
        var totals: [String: JSONObject] = [:]
        for index in devices.indices {
            let user = try #require(stored[devices[index].user.name])
            #expect(await devices[index].catchUp(to: user.pushSeqs.max() ?? 0), "\(devices[index].name) did not receive every push")
            if totals[devices[index].user.name] == nil {
                totals[devices[index].user.name] = await devices[index].ask("PROFILE")?.okObject["totals"]?.objectValue
            }
            await devices[index].close()
        }

        let report = FailoverReport(devices: devices, stored: stored, acknowledgedAtKill: killedAfter ?? 0)
        print(report.summary)
        // haproxy logs each server its health check takes out of the rotation (a warning on standard error).
        print("  haproxy: \(balancer.errorOutput.components(separatedBy: " is DOWN").count - 1) servers taken out by the health check")
        try report.check(planned: planned, totals: totals, expectedTotals: Self.expectedTotals())
        #expect(balancer.isRunning, "haproxy ended: \(balancer.errorOutput)")
    }

    /// The order devices first connect in. Least connections hands consecutive connections to the instances in
    /// turn (A, B, A, B), so of every four users the first two connect first devices, then second devices (both
    /// devices of one user on A, of the other on B: the killed instance's user has no device left to hear its
    /// pushes live), and the next two user by user (one device on each instance). The balancer decides; the summary
    /// reports what happened, and the checks do not rely on it.
    static func connectionOrder(_ devices: Int) -> [Int] {
        stride(from: 0, to: devices, by: 8).flatMap { first in
            [0, 2, 1, 3, 4, 5, 6, 7].map { first + $0 }.filter { $0 < devices }
        }
    }

    /// SIGKILL for `instance` once `threshold` LOGs are acknowledged; how many were, at that moment.
    static func kill(_ instance: ServerProcess, after threshold: Int, of progress: FailoverProgress) async -> Int? {
        let reached = (try? await Eventually.holds(timeout: .seconds(40), every: .milliseconds(5)) {
            progress.acknowledgedLogs >= threshold
        }) ?? false
        let acknowledged = progress.acknowledgedLogs
        instance.send(SIGKILL)
        _ = try? await instance.exitStatus()
        return reached ? acknowledged : nil
    }

    /// PROFILE's totals once every planned LOG is stored once.
    static func expectedTotals() -> JSONObject {
        var byActivity = JSONObject()
        for device in 0..<devicesPerUser {
            for log in plan(user: 0, device: device) { byActivity[log.activity] = .int((byActivity[log.activity]?.intValue ?? 0) + log.amount) }
        }
        return ["logs": .int(devicesPerUser * logsPerDevice), "by_activity": .object(byActivity)]
    }
}

/// What the database holds for one user at the end: log ids, unlocks, and the stored pushes by seq.
struct StoredUser: Sendable {
    let logIDs: [String]
    let unlocks: [String]
    let pushSeqs: [Int]
    let unlockPushes: [ReceivedUnlock]

    static func read(_ user: TestUser) async throws -> StoredUser {
        let id: [PostgresValue] = [.text(user.id.description)]
        return try await LaurelTestDatabase.admin().withConnection { connection in
            let logs = try connection.query("SELECT id FROM laurel.logs WHERE user_id = $1::bigint", id).map { try $0.string("id") }
            let unlocks = try connection.query("SELECT achievement_id FROM laurel.unlocks WHERE user_id = $1::bigint", id)
                .map { try $0.string("achievement_id") }
            let pushes = try connection.query(
                "SELECT seq, kind, data->>'id' AS achievement FROM laurel.pushes WHERE user_id = $1::bigint ORDER BY seq", id
            ).map { row in (seq: try row.int("seq"), kind: try row.string("kind"), achievement: row["achievement"]) }
            return StoredUser(
                logIDs: logs, unlocks: unlocks, pushSeqs: pushes.map(\.seq),
                unlockPushes: pushes.compactMap { push in
                    guard push.kind == "UNLOCK", let achievement = push.achievement else { return nil }
                    return ReceivedUnlock(seq: push.seq, achievement: achievement)
                })
        }
    }
}
