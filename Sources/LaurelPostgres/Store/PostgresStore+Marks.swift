import LaurelCore
import LaurelStore

extension PostgresStore {
    public func marks(of users: [UserID]) async throws(StoreError) -> [UserID: UserMarks] {
        guard !users.isEmpty else { return [:] }
        let ids = "{" + users.map { String($0.rawValue) }.joined(separator: ",") + "}"
        do {
            return try await pool.withConnection { connection in
                let rows = try connection.query(
                    "SELECT id, state_version, last_seq FROM laurel.users WHERE id = ANY($1::bigint[])", [.text(ids)])
                var marks: [UserID: UserMarks] = [:]
                for row in rows {
                    marks[UserID(Int64(try row.int("id")))] = UserMarks(
                        stateVersion: Int64(try row.int("state_version")), lastSeq: Int64(try row.int("last_seq")))
                }
                return marks
            }
        } catch {
            throw StoreError(error)
        }
    }
}
