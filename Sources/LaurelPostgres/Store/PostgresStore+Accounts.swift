import Foundation
import LaurelCore
import LaurelJSON
import LaurelStore

/// What the store does for a user outside the rules: the trial (its rules live in SQL, with the subscription's, so
/// that operators' functions store the same SUBSCRIPTION pushes), the deletion of an account, and the snapshot a
/// session leaves behind.
extension PostgresStore {
    public func startTrial(of user: UserID) async throws(StoreError) -> StoredPush? {
        do {
            return try await pool.transaction { connection in
                let row = try connection.query("SELECT laurel.start_trial($1::bigint) AS seq", [.int(Int(user.rawValue))]).first.require()
                guard let seq = try row.optionalInt("seq") else { return nil }
                let reader = PostgresUserReader(connection: connection, user: user)
                guard let push = try reader.pushes(after: Int64(seq) - 1, limit: 1).first, push.seq == Int64(seq) else {
                    throw StoreError.failed("the trial's SUBSCRIPTION push \(seq) was not stored")
                }
                return push
            }
        } catch {
            throw StoreError(error)
        }
    }

    public func deleteAccount(of user: UserID) async throws(StoreError) {
        do {
            try await pool.transaction { connection in
                try connection.execute("SELECT laurel.delete_user_by_id($1::bigint)", [.int(Int(user.rawValue))])
            }
        } catch {
            throw StoreError(error)
        }
    }

    public func saveSnapshot(_ snapshot: ProgressSnapshot, of user: UserID) async throws(StoreError) {
        do {
            let state = snapshot.encodedState()
            try await pool.withConnection { connection in
                try connection.execute(
                    "SELECT laurel.save_snapshot($1::bigint, $2::bigint, $3::bigint, $4::bigint, $5::bigint, $6::bigint, $7::text)",
                    [.int(Int(user.rawValue)), .int(Int(snapshot.version)), .int(Int(snapshot.seqs.log)), .int(Int(snapshot.seqs.lesson)),
                     .int(Int(snapshot.seqs.event)), .int(Int(snapshot.seqs.reminder)), .text(state)])
            }
        } catch {
            throw StoreError(error)
        }
    }
}
