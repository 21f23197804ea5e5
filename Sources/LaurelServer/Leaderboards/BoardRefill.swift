import Foundation
import LaurelCore
import LaurelStore

/// Rewrites users' day scores from what is stored (`laurel boards refill`): for a database whose facts predate the
/// boards, or after a catalog change that moved which unlocks are worth XP. Each user is recomputed by
/// ``BoardScores`` from the live facts, the unlocks worth XP under the running catalog, the completed challenges and the
/// zone history, under the user's lock, one user at a time (memory does not grow with the users).
public struct BoardRefill: Sendable {
    public let store: any LaurelStore
    public let rules: Rulebook

    public init(store: any LaurelStore, rules: Rulebook) {
        self.store = store
        self.rules = rules
    }

    /// Refills every user's day scores; returns how many users and rows.
    public func refillEveryUser(now: Date, pageSize: Int = 500) async throws -> (users: Int, rows: Int) {
        var (users, rows) = (0, 0)
        var after: UserID?
        while true {
            let page = try await store.userIDs(after: after, limit: pageSize)
            for user in page {
                rows += try await refill(user, now: now)
                users += 1
            }
            guard let last = page.last, page.count == pageSize else { return (users, rows) }
            after = last
        }
    }

    /// Refills one user's day scores; returns the rows written.
    public func refill(_ user: UserID, now: Date) async throws -> Int {
        let rules = rules
        return try await store.refillDayScores(of: user) { reader in try Self.dayScores(reading: reader, rules: rules, now: now) }
    }

    /// The user's day scores recomputed from the user's stored state.
    static func dayScores(reading reader: any UserReader, rules: Rulebook, now: Date) throws -> [BoardScores.DayScore] {
        let (settings, history) = try reader.settings()
        let zone = TimeZone(identifier: settings.timeZone) ?? .gmt
        let unlocks = try reader.unlocks()
        let achievements = rules.achievements(
            templates: try reader.templates(), activities: try reader.customActivities(), unlocks: unlocks, today: LocalDay(of: now, in: zone))
        let worth = achievements.unlocksWorthXP(unlocks.keys)
        return BoardScores.days(
            facts: try reader.facts(after: FactSeqs()).facts, unlocks: unlocks.filter { worth.contains($0.key) }.map(\.value),
            completedChallenges: try reader.completedChallenges(), settings: history, zone: zone,
            builtInActivities: rules.builtInActivityIDs)
    }
}
