import LaurelCore
import LaurelStore

/// Pushes another instance stored, read for delivery here: one statement outside a transaction, since a single
/// statement sees one snapshot.
extension PostgresStore {
    public func pushes(of user: UserID, after seq: Int64, limit: Int) async throws(StoreError) -> [StoredPush] {
        do {
            return try await pool.withConnection { connection in
                try PostgresUserReader(connection: connection, user: user).pushes(after: seq, limit: limit)
            }
        } catch {
            throw StoreError(error)
        }
    }
}
