/// Whether every expected unlock reached every connection of its user exactly once.
///
/// The achievements a user is expected to have unlocked are those any LOG response of that user reported in
/// `unlocked`, plus the plan's first-log achievement once the user logged at least once. Pushes go to every
/// authenticated connection of the user, and every connection was authenticated before the first LOG, so each
/// (connection, achievement) pair of that set is expected exactly once.
struct UnlockCheck: Sendable, Equatable {
    /// Expected (connection, achievement) pairs.
    var expected = 0
    /// UNLOCK pushes received, duplicates included.
    var pushed = 0
    /// Pushes of an achievement a connection had already received.
    var duplicates = 0
    /// Expected pairs that never arrived.
    var missing = 0
    /// Distinct pushed pairs no LOG answer reported as unlocked: unlocks found by the evaluation at AUTH (a user
    /// with a history, see `--seed-logs`). They are not an error unless they also arrive twice (`duplicates`).
    var unexpected = 0

    var isExactlyOnce: Bool { missing == 0 && duplicates == 0 }

    init(tallies: [ConnectionTally], expectedUnlock: String?) {
        var unlockedByUser: [Int: Set<String>] = [:]
        for tally in tallies where tally.isAuthenticated {
            unlockedByUser[tally.userIndex, default: []].formUnion(tally.reportedUnlocks.keys)
            if tally.hasLogged, let expectedUnlock {
                unlockedByUser[tally.userIndex, default: []].insert(expectedUnlock)
            }
        }
        for tally in tallies where tally.isAuthenticated {
            let expectedIDs = unlockedByUser[tally.userIndex] ?? []
            let receivedIDs = Set(tally.unlockPushes.keys)
            expected += expectedIDs.count
            pushed += tally.unlockPushes.values.reduce(0, +)
            duplicates += tally.unlockPushes.values.reduce(0) { $0 + max($1 - 1, 0) }
            missing += expectedIDs.subtracting(receivedIDs).count
            unexpected += receivedIDs.subtracting(expectedIDs).count
        }
    }
}
