import LaurelStore

extension PostgresStore {
    public func announceExpiredSubscriptions() async throws(StoreError) -> Int {
        do {
            return try await pool.withConnection { connection in
                let row = try connection.query("SELECT laurel.announce_expired_subscriptions() AS stored").first
                return try row?.int("stored") ?? 0
            }
        } catch {
            throw StoreError(error)
        }
    }
}
