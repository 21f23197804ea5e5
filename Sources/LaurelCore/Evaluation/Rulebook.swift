import Foundation

/// Everything a server instance evaluates every user by: the catalog (activities, lessons, achievements, presets,
/// challenge pool), the operator's limits and how far a fact's time may lie from now. A class: every decision of
/// every user on both cores reads it, and a copy of a struct of arrays would retain each of them, contended.
public final class Rulebook: Sendable {
    public let catalog: Catalog
    /// The catalog's achievements alone: what every user without templates is measured against, made once and
    /// shared (a session holds it for each connected user).
    public let catalogAchievements: UserAchievements
    public let limits: UserLimits
    public let logTimes: LogTimePolicy
    /// The catalog's activity ids: the activities with boards of their own.
    public let builtInActivityIDs: Set<String>
    /// How long a user's ended weeks' standings answer before an evaluation reads them again (the rankings behind
    /// them are refreshed as backfills change ended weeks).
    public let standingsRefresh: TimeInterval

    public init(
        catalog: Catalog, limits: UserLimits = UserLimits(), logTimes: LogTimePolicy = LogTimePolicy(), standingsRefresh: TimeInterval = 3_600
    ) {
        self.catalog = catalog
        self.standingsRefresh = standingsRefresh
        self.catalogAchievements = UserAchievements(catalog: catalog, templates: [], activities: [])
        self.limits = limits
        self.logTimes = logTimes
        self.builtInActivityIDs = Set(catalog.activities.map(\.id))
    }

    /// The achievements of a user with these templates, custom activities (deleted ones included) and unlocks, on the
    /// user's local day `today`.
    public func achievements(templates: [AchievementTemplate], activities: [Activity], unlocks: [String: Date], today: LocalDay) -> UserAchievements {
        templates.isEmpty
            ? catalogAchievements
            : UserAchievements(catalog: catalog, templates: templates, activities: activities, unlocks: unlocks, today: today)
    }
}
