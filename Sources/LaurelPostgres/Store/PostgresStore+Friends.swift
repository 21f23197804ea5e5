import Foundation
import LaurelCore
import LaurelStore

/// Friends: invite codes (a shared table keyed by code) and friendships (a row on each side). Accepting writes both
/// users, as a write of each that every instance hears of (laurel.accept_invite).
extension PostgresStore {
    public func createInvite(_ code: InviteCode, of user: UserID, at now: Date) async throws(StoreError) -> InviteCreation {
        do {
            let outcome = try await pool.withConnection { connection in
                try connection.query(
                    """
                    SELECT laurel.create_invite($1::bigint, $2::text, \(PostgresTimestamp.parameter(3)), \(PostgresTimestamp.parameter(4)),
                                                $5::integer) AS outcome
                    """,
                    [.int(Int(user.rawValue)), .text(code.text), .int(PostgresTimestamp.microseconds(now)),
                     .int(PostgresTimestamp.microseconds(InviteCode.expiry(ofCodeMadeAt: now))), .int(InviteCode.maximumOpen)]
                ).first.require().string("outcome")
            }
            switch outcome {
            case "created": return .created
            case "too_large": return .tooManyOpen
            case "taken": return .codeTaken
            default: throw StoreError.failed("laurel.create_invite answered \(outcome)")
            }
        } catch {
            throw StoreError(error)
        }
    }

    public func acceptInvite(
        _ code: InviteCode, by user: UserID, at now: Date, maxFriends: Int,
        describe: @escaping @Sendable (_ friend: FriendFigures, _ since: Date) -> String
    ) async throws(StoreError) -> InviteAcceptance {
        do {
            return try await pool.withConnection { connection in
                // Who made the code, and both users as they stand: the pushes are rendered from these, and
                // laurel.accept_invite checks again, under the locks, that the code is still open.
                guard let inviter = try connection.query(
                    """
                    SELECT inviter_id FROM laurel.invites
                     WHERE code = $1::text AND accepted_by IS NULL AND expires_at > \(PostgresTimestamp.parameter(2))
                    """, [.text(code.text), .int(PostgresTimestamp.microseconds(now))]
                ).first.map({ UserID(Int64(try $0.int("inviter_id"))) }) else { return .unknownCode }
                guard inviter != user else { return .ownCode }
                let figures = try Self.friendFigures(of: [user, inviter], on: connection)
                guard let inviterFigures = figures[inviter], let userFigures = figures[user] else { return .unknownCode }
                let pushToUser = describe(inviterFigures, now)
                let row = try connection.query(
                    """
                    SELECT outcome, user_seq FROM laurel.accept_invite($1::bigint, $2::text, $3::bigint, \(PostgresTimestamp.parameter(4)),
                                                                      $5::integer, $6::json, $7::json)
                    """,
                    [.int(Int(user.rawValue)), .text(code.text), .int(Int(inviter.rawValue)), .int(PostgresTimestamp.microseconds(now)),
                     .int(maxFriends), .text(pushToUser), .text(describe(userFigures, now))]
                ).first.require()
                switch try row.string("outcome") {
                case "accepted":
                    let push = StoredPush(seq: Int64(try row.int("user_seq")), kind: .friend, at: now, data: pushToUser)
                    return .accepted(inviter: inviterFigures, push: push)
                case "not_found": return .unknownCode
                case "own_code": return .ownCode
                case "already_friends": return .alreadyFriends
                case "too_large": return .friendsLimit
                case let other: throw StoreError.failed("laurel.accept_invite answered \(other)")
                }
            }
        } catch {
            throw StoreError(error)
        }
    }

    public func friends(of user: UserID) async throws(StoreError) -> [Friend] {
        do {
            return try await pool.withConnection { connection in
                let since = try connection.query(
                    """
                    SELECT friend_id, \(PostgresTimestamp.column("since", as: "since_us"))
                      FROM laurel.friendships WHERE user_id = $1::bigint ORDER BY since, friend_id
                    """, [.int(Int(user.rawValue))]
                ).map { row in (UserID(Int64(try row.int("friend_id"))), PostgresTimestamp.date(microseconds: try row.int("since_us"))) }
                let figures = try Self.friendFigures(of: since.map(\.0), on: connection)
                return since.compactMap { friend, since in figures[friend].map { Friend(figures: $0, since: since) } }
            }
        } catch {
            throw StoreError(error)
        }
    }

    public func removeFriend(_ friend: UserID, of user: UserID) async throws(StoreError) -> Bool {
        do {
            return try await pool.withConnection { connection in
                try connection.query(
                    "SELECT laurel.remove_friend($1::bigint, $2::bigint) AS removed", [.int(Int(user.rawValue)), .int(Int(friend.rawValue))]
                ).first.require().bool("removed")
            }
        } catch {
            throw StoreError(error)
        }
    }

    public func invitesAwaitingInviterEvent(acceptedBefore before: Date, limit: Int) async throws(StoreError) -> [AcceptedInvite] {
        do {
            return try await pool.withConnection { connection in
                try connection.query(
                    """
                    SELECT i.code, i.inviter_id, u.name, \(PostgresTimestamp.column("i.accepted_at", as: "accepted_us"))
                      FROM laurel.invites i JOIN laurel.users u ON u.id = i.inviter_id
                     WHERE i.accepted_by IS NOT NULL AND NOT i.event_recorded AND i.accepted_at < \(PostgresTimestamp.parameter(1))
                     ORDER BY i.accepted_at LIMIT $2::bigint
                    """, [.int(PostgresTimestamp.microseconds(before)), .int(limit)]
                ).map { row in
                    guard let code = InviteCode(try row.string("code")) else { throw StoreError.failed("a stored invite code is malformed") }
                    return AcceptedInvite(
                        code: code, inviter: AuthenticatedUser(id: UserID(Int64(try row.int("inviter_id"))), name: try row.string("name")),
                        acceptedAt: PostgresTimestamp.date(microseconds: try row.int("accepted_us")))
                }
            }
        } catch {
            throw StoreError(error)
        }
    }

    public func noteInviterEventRecorded(_ code: InviteCode) async throws(StoreError) {
        do {
            _ = try await pool.withConnection { connection in
                try connection.execute("UPDATE laurel.invites SET event_recorded = true WHERE code = $1::text", [.text(code.text)])
            }
        } catch {
            throw StoreError(error)
        }
    }

    public func forgetInvites(expiredBefore before: Date) async throws(StoreError) {
        do {
            _ = try await pool.withConnection { connection in
                try connection.execute(
                    "DELETE FROM laurel.invites WHERE accepted_by IS NULL AND expires_at < \(PostgresTimestamp.parameter(1))",
                    [.int(PostgresTimestamp.microseconds(before))])
            }
        } catch {
            throw StoreError(error)
        }
    }

    /// What friends see of each of `users` that exists, by id (laurel.friend_figures).
    static func friendFigures(of users: [UserID], on connection: PostgresConnection) throws -> [UserID: FriendFigures] {
        guard !users.isEmpty else { return [:] }
        var figures: [UserID: FriendFigures] = [:]
        for row in try connection.query("SELECT * FROM laurel.friend_figures($1::bigint[])", [PostgresValue(userIDs: users)]) {
            let user = UserID(Int64(try row.int("user_id")))
            figures[user] = FriendFigures(
                user: user, name: try row.string("name"), level: try row.int("level"), xp: try row.int("xp"),
                storedStreak: try row.int("current_streak"), lastActiveDay: try row.optionalString("last_active_day").flatMap(LocalDay.init),
                streakHoldsThrough: try row.optionalString("streak_holds_through").flatMap(LocalDay.init),
                timeZone: try row.string("time_zone"), restDay: try row.optionalInt("rest_day").flatMap(Weekday.init(rawValue:)),
                vacation: try row.bool("vacation"))
        }
        return figures
    }
}
