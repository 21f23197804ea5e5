/// A server catalog: the built-in activities, lessons, accepted event names, achievements, template presets and
/// challenge pool every user shares.
/// The server runs with one catalog, chosen at start (`standfit` by default).
public struct Catalog: Sendable {
    public var name: String
    public var activities: [Activity]
    public var lessons: [Lesson]
    public var eventNames: [String]
    /// In catalog order, which is also the order in which one evaluation unlocks several.
    public var achievements: [AchievementDefinition]
    /// In the order PRESETS lists them.
    public var presets: [TemplatePreset]
    /// The challenges the chooser may offer, at most one entry per kind.
    public var challengePool: [ChallengePoolEntry]

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
        let key = idOrName.lowercased()
        return activities.first { $0.id.lowercased() == key || $0.name.lowercased() == key }
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
