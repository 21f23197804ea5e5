import LaurelCore
import LaurelStore
import Logging

extension ServerResources {
    /// Does for `users` what the announcements of their latest writes would have done, from where the store has them
    /// now: a session learns its user's newest version (and catches up at its next request when it holds less),
    /// connections get the pushes stored meanwhile, a board holding a user reads it again, and the connections of a
    /// deleted user are closed. For when announcements may have been missed: the listener reconnected, or a write of
    /// this instance failed without telling whether it was stored (its own announcements are not followed here).
    func compareWithStore(_ users: [UserID]) async {
        let marks: [UserID: UserMarks]
        do {
            marks = try await store.marks(of: users)
        } catch {
            logger.warning("could not compare users with the database", metadata: ["error": "\(error)", "users": "\(users.count)"])
            return
        }
        for user in users {
            guard let mark = marks[user] else {
                await registry.closeConnections(of: user, reason: "account_deleted")
                continue
            }
            boards.heard(user, version: mark.version)
            registry.session(of: user)?.progress.noteCommitted(version: mark.version, lastSeq: mark.lastSeq)
            pushDelivery.announce(user, through: mark.lastSeq)
        }
    }
}
