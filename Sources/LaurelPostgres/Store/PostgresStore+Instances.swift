import LaurelCore
import LaurelStore

// What the store keeps for the server instances as a whole: the limits they run with, and where connected users stand.
extension PostgresStore {
    public func isReachable() async -> Bool {
        (try? await pool.withConnection { connection in try connection.query("SELECT 1") }) != nil
    }

    public func recordLimits(_ limits: UserLimits) async throws(StoreError) {
        do {
            try await pool.withConnection { connection in
                try connection.execute(
                    """
                    INSERT INTO laurel.server_limits (template_limit) VALUES ($1::integer)
                    ON CONFLICT (only_row) DO UPDATE SET template_limit = EXCLUDED.template_limit
                    """, [.int(limits.templates)])
            }
        } catch {
            throw StoreError(error)
        }
    }

    public func announcePresence(greeting: Bool) async throws(StoreError) {
        let event = greeting ? PostgresStoreEvents.greeting : PostgresStoreEvents.answer
        do {
            try await pool.withConnection { connection in
                _ = try connection.query(
                    "SELECT pg_notify($1::text, $2::text)", [.text(PostgresStoreEvents.channel), .text(#"{"event":""# + event + #""}"#)])
            }
        } catch {
            throw StoreError(error)
        }
    }

    public func marks(of users: [UserID]) async throws(StoreError) -> [UserID: UserMarks] {
        guard !users.isEmpty else { return [:] }
        do {
            return try await pool.withConnection { connection in
                let rows = try connection.query(
                    "SELECT user_id AS id, version, last_seq FROM laurel.progress WHERE user_id = ANY($1::bigint[])", [PostgresValue(userIDs: users)])
                var marks: [UserID: UserMarks] = [:]
                for row in rows {
                    marks[UserID(Int64(try row.int("id")))] = UserMarks(
                        version: Int64(try row.int("version")), lastSeq: Int64(try row.int("last_seq")))
                }
                return marks
            }
        } catch {
            throw StoreError(error)
        }
    }
}
