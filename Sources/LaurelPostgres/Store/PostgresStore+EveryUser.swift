import LaurelCore
import LaurelStore

extension PostgresStore {
    /// Reads every user, one after the other, in one read-only snapshot (a repeatable-read transaction on one
    /// connection): what an operator's report over all users sees is one moment of the database. Users are taken a
    /// page of ids at a time, so memory holds one page of ids and what `body` keeps, whatever the number of users.
    /// - Parameters:
    ///   - pageSize: how many user ids to read at once.
    ///   - body: called with each user and a reader of that user's rows.
    public func readEveryUser(pageSize: Int = 1000, _ body: @escaping @Sendable (UserID, any UserReader) throws -> Void) async throws {
        do {
            try await pool.transaction { connection in
                try connection.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
                var after = Int64.min
                while true {
                    let ids = try connection.query(
                        "SELECT id FROM laurel.users WHERE id > $1::bigint ORDER BY id LIMIT $2::int", [.int(Int(after)), .int(pageSize)]
                    ).map { Int64(try $0.int("id")) }
                    for id in ids { try body(UserID(id), PostgresUserReader(connection: connection, user: UserID(id))) }
                    guard let last = ids.last, ids.count == pageSize else { return }
                    after = last
                }
            }
        } catch let error as PostgresError {
            throw StoreError(error)
        }
    }
}
