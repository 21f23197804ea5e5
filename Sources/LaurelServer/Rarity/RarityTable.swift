import Synchronization

/// The rarity of each built-in achievement (rules.md, "Rarity"): the share of users active in the last 30 days who
/// have unlocked it, 0 to 1 with three decimals. The server reads it from the store in the background every few
/// minutes (`ServerConfiguration.rarityRefreshInterval`), so no request scans anything for it.
final class RarityTable: Sendable {
    private let shares = Mutex<[String: Double]>([:])

    /// The rarity of a built-in achievement; 0 until the first reading, and for one nobody holds.
    func rarity(of achievement: String) -> Double {
        shares.withLock { $0[achievement] ?? 0 }
    }

    func replace(with shares: [String: Double]) {
        self.shares.withLock { $0 = shares }
    }
}
