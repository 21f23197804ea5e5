import LaurelJSON
import Testing

/// What the devices of a failover run saw, held against what the database stored: the figures the test prints
/// and the checks it makes on them.
struct FailoverReport {
    let devices: [FailoverDevice]
    /// By user name: the user's rows.
    let stored: [String: StoredUser]
    let acknowledgedAtKill: Int

    /// The devices of each user, by user name, in name order.
    var devicesByUser: [(user: String, devices: [FailoverDevice])] {
        Dictionary(grouping: devices, by: \.user.name).map { ($0.key, $0.value) }.sorted { $0.devices[0].name < $1.devices[0].name }
    }

    var acknowledged: Int { devices.map(\.acknowledged.count).reduce(0, +) }
    var storedLogs: Int { devicesByUser.map { stored[$0.user]?.logIDs.count ?? 0 }.reduce(0, +) }
    var storedButNotAcknowledged: Int {
        devicesByUser.map { user in
            let acknowledged = user.devices.reduce(into: Set<String>()) { $0.formUnion($1.acknowledged) }
            return Set(stored[user.user]?.logIDs ?? []).subtracting(acknowledged).count
        }.reduce(0, +)
    }
    var unlocksStored: Int { devicesByUser.map { stored[$0.user]?.unlocks.count ?? 0 }.reduce(0, +) }
    var pushesStored: Int { devicesByUser.map { stored[$0.user]?.pushSeqs.count ?? 0 }.reduce(0, +) }

    var summary: String {
        let sum = { (figure: (FailoverDevice) -> Int) in devices.map(figure).reduce(0, +) }
        var lines = [
            "HAProxy failover: \(devicesByUser.count) users, \(devices.count) devices through haproxy, one of two instances killed with SIGKILL after \(acknowledgedAtKill) acknowledged LOGs",
            "  LOGs: \(devices.map(\.plan.count).reduce(0, +)) ids, \(sum(\.logLinesSent)) LOG lines sent, \(acknowledged) acknowledged, "
                + "\(storedLogs) stored (\(storedButNotAcknowledged) stored without an OK); "
                + "\(sum(\.resent.count)) ids sent again for want of an OK (connection dropped first), \(sum(\.resentAndFoundStored.count)) of them answered duplicate (stored before, OK lost)",
            "  connections: \(sum(\.reconnections)) reconnections with resume_after by \(devices.filter { $0.reconnections > 0 }.count) devices "
                + "(\(devicesByUser.filter { $0.devices.allSatisfy { $0.reconnections > 0 } }.count) users lost all their devices' connections), "
                + "\(sum(\.failedAttempts)) attempts through the balancer that ended before AUTH's OK",
            "  unlocks: \(unlocksStored) in laurel.unlocks, \(sum(\.unlocks.count)) UNLOCK pushes received (\(devices.count / max(devicesByUser.count, 1)) devices each), "
                + "\(sum(\.unlocksAfterReconnecting)) of them after a reconnection; stored pushes \(pushesStored), received \(sum(\.seqs.count))",
        ]
        for (user, devices) in devicesByUser {
            let unlocks = stored[user]?.unlocks.sorted() ?? []
            let perDevice = devices.map { "\($0.name) \($0.unlocks.count) (\($0.reconnections) reconnections)" }.joined(separator: ", ")
            lines.append("  \(user): \(unlocks.count) unlocks in the database \(unlocks); UNLOCK pushes per device: \(perDevice)")
        }
        return lines.joined(separator: "\n")
    }

    func check(planned: Int, totals: [String: JSONObject], expectedTotals: JSONObject) throws {
        #expect(acknowledgedAtKill > 0 && acknowledgedAtKill < planned, "the kill came in the middle")
        #expect(devices.contains { $0.reconnections > 0 }, "no device reconnected: the killed instance had none")
        for device in devices {
            #expect(device.refusals.isEmpty, "\(device.name) was refused: \(device.refusals)")
            #expect(device.unacknowledged.isEmpty, "\(device.name) has LOGs without OK: \(device.unacknowledged)")
            #expect(device.resentAndFoundStored.isSubset(of: device.resent), "\(device.name): a first send answered duplicate")
        }
        for (user, devices) in devicesByUser {
            let rows = try #require(stored[user])
            let acknowledged = devices.reduce(into: Set<String>()) { $0.formUnion($1.acknowledged) }
            #expect(rows.logIDs.count == Set(rows.logIDs).count, "\(user): a LOG id stored twice")
            #expect(Set(rows.logIDs) == acknowledged, "\(user): stored and acknowledged differ: lost \(acknowledged.subtracting(rows.logIDs).sorted()), never acknowledged \(Set(rows.logIDs).subtracting(acknowledged).sorted())")
            #expect(rows.logIDs.count == devices.map(\.plan.count).reduce(0, +))
            // Counted once, too: PROFILE's totals are those of each LOG once.
            let profile = totals[user] ?? [:]
            #expect(profile["logs"] == expectedTotals["logs"] && profile["by_activity"] == expectedTotals["by_activity"], "\(user): PROFILE totals \(profile)")

            #expect(rows.unlockPushes.count == rows.unlocks.count && Set(rows.unlockPushes.map(\.achievement)) == Set(rows.unlocks),
                    "\(user): stored UNLOCK pushes \(rows.unlockPushes) for unlocks \(rows.unlocks)")
            for device in devices {
                let seqs = device.seqs
                #expect(zip(seqs, seqs.dropFirst()).allSatisfy { $0 < $1 }, "\(device.name): pushes out of order or twice: \(seqs)")
                #expect(Set(seqs) == Set(rows.pushSeqs), "\(device.name): missing pushes \(Set(rows.pushSeqs).subtracting(seqs).sorted()), unknown \(Set(seqs).subtracting(rows.pushSeqs).sorted())")
                let achievements = device.unlocks.map(\.achievement)
                #expect(achievements.count == Set(achievements).count, "\(device.name): an unlock pushed twice: \(device.unlocks)")
                #expect(Set(achievements) == Set(rows.unlocks), "\(device.name): UNLOCK pushes \(achievements.sorted()), unlocks \(rows.unlocks.sorted())")
                #expect(Set(device.unlocks) == Set(rows.unlockPushes), "\(device.name): UNLOCK pushes with other seqs than stored")
            }
        }
    }
}
