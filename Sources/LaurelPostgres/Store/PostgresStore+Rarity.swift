import LaurelStore

extension PostgresStore {
    public func achievementRarity() async throws(StoreError) -> [String: Double] {
        do {
            return try await pool.withConnection { connection in
                var shares: [String: Double] = [:]
                for row in try connection.query("SELECT achievement_id, rarity::float8 AS rarity FROM laurel.achievement_rarity()") {
                    shares[try row.string("achievement_id")] = try row.optionalDouble("rarity") ?? 0
                }
                return shares
            }
        } catch {
            throw StoreError(error)
        }
    }
}
