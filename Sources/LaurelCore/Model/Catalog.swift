/// A server catalog: the built-in activities, lessons, accepted event names, achievements, template presets and
/// challenge pool every user shares.
/// The server runs with one catalog, chosen at start (`standfit` by default). A class, read by every decision (see
/// ``Rulebook``).
public final class Catalog: Sendable {
    public let name: String
    public let activities: [Activity]
    public let lessons: [Lesson]
    public let eventNames: [String]
    /// In catalog order, which is also the order in which one evaluation unlocks several.
    public let achievements: [AchievementDefinition]
    /// In the order PRESETS lists them.
    public let presets: [TemplatePreset]
    /// The challenges the chooser may offer, at most one entry per kind.
    public let challengePool: [ChallengePoolEntry]
    /// The kinds of period the pool offers challenges of (every decision asks, so it is known once).
    public let offeredChallengePeriods: [ChallengePeriod]
    /// Each kind of period's ``ChallengeChooser/candidates(in:for:)``, in `ChallengePeriod.allCases` order.
    private let challengeCandidates: [[ChallengePoolEntry]]
    /// Each built-in activity's lowercased id and name to its place: the first activity either names, as a scan in
    /// catalog order would find it.
    private let activityPlaces: [String: Int]

    public init(
        name: String, activities: [Activity], lessons: [Lesson] = [], eventNames: [String] = [],
        achievements: [AchievementDefinition] = [], presets: [TemplatePreset] = [], challengePool: [ChallengePoolEntry] = []
    ) {
        self.name = name
        self.activities = activities
        self.lessons = lessons
        self.eventNames = eventNames
        self.achievements = achievements
        self.presets = presets
        self.challengePool = challengePool
        self.offeredChallengePeriods = ChallengePeriod.allCases.filter { period in challengePool.contains { $0.kind.period == period } }
        self.challengeCandidates = ChallengePeriod.allCases.map { ChallengeChooser.candidates(in: challengePool, for: $0) }
        var places: [String: Int] = [:]
        for (place, activity) in activities.enumerated() {
            for key in [activity.id.lowercased(), activity.name.lowercased()] where places[key] == nil { places[key] = place }
        }
        self.activityPlaces = places
    }

    /// Whether the pool offers challenges of this kind of period.
    public func offersChallenges(of period: ChallengePeriod) -> Bool {
        offeredChallengePeriods.contains(period)
    }

    /// What a draw of challenges for this kind of period shuffles (see ``ChallengeChooser/candidates(in:for:)``).
    public func challengeCandidates(for period: ChallengePeriod) -> [ChallengePoolEntry] {
        challengeCandidates[ChallengePeriod.allCases.firstIndex(of: period) ?? 0]
    }

    /// This catalog with another challenge pool (an empty one switches challenges off).
    public func replacingChallengePool(with pool: [ChallengePoolEntry]) -> Catalog {
        Catalog(
            name: name, activities: activities, lessons: lessons, eventNames: eventNames, achievements: achievements,
            presets: presets, challengePool: pool)
    }

    public func lesson(_ id: String) -> Lesson? {
        lessons.first { $0.id == id }
    }

    /// The preset with exactly this id.
    public func preset(_ id: String) -> TemplatePreset? {
        presets.first { $0.id == id }
    }

    /// The built-in activity with this id or (case-insensitive) name.
    public func builtinActivity(named idOrName: String) -> Activity? {
        // Every LOG asks several times, mostly with an id as it is: lowercased already, so found without lowercasing.
        guard let index = activityPlaces[idOrName] ?? activityPlaces[idOrName.lowercased()] else { return nil }
        return activities[index]
    }

    /// A lesson of a catalog that teaches (`mindful`).
    public struct Lesson: Sendable, Hashable {
        public var id: String
        public var category: String

        public init(id: String, category: String) {
            self.id = id
            self.category = category
        }
    }
}
