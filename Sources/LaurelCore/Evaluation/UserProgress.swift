import Foundation

/// Everything the rules read about one user, as of one version of the user's stored state: settings and their
/// history, subscription, custom activities, templates, unlocks, the running state of the facts, the stored
/// figures, the challenges of the periods at hand and the log allowance. A user's session holds it, so that a
/// write is decided without reading anything; ``ProgressEvaluator`` decides every change against it.
public struct UserProgress: Sendable {
    public var settings: UserSettings
    /// The zone of `settings` (UTC when this machine does not know the name).
    public var zone: TimeZone
    public var settingsHistory: StreakSettingsHistory
    public var subscription: SubscriptionState
    /// Custom activities, deleted ones included, oldest first.
    public var customActivities: [Activity]
    /// Oldest first.
    public var templates: [AchievementTemplate]
    public var achievements: UserAchievements {
        didSet { knownUnlockState = nil }
    }
    /// Achievement id to unlock time, unlocks no longer listed included.
    public var unlocks: [String: Date] {
        didSet { knownUnlockState = nil }
    }
    public var accumulator: ProgressAccumulator
    public var figures: ProgressFigures
    public var challenges: ChallengeBook
    public var allowance: LogAllowance
    /// ``UserAchievements/unlockState(of:)`` of `unlocks`, as last worked out for this listing and these unlocks
    /// (forgotten whenever either changes): every decision evaluates against it, and working it out hashes every
    /// unlock id, a dozen and more for a user of some months.
    private var knownUnlockState: UnlockState?
    /// The ended weeks' standings, once a comparative goal asked for them (``ProgressPiece/weekStandings(weeks:boards:)``).
    public var weekStandings: WeekStandings?

    public init(
        settings: UserSettings, settingsHistory: StreakSettingsHistory, subscription: SubscriptionState, customActivities: [Activity],
        templates: [AchievementTemplate], achievements: UserAchievements, unlocks: [String: Date], accumulator: ProgressAccumulator,
        figures: ProgressFigures, challenges: ChallengeBook, allowance: LogAllowance
    ) {
        self.settings = settings
        self.zone = TimeZone(identifier: settings.timeZone) ?? .gmt
        self.settingsHistory = settingsHistory
        self.subscription = subscription
        self.customActivities = customActivities
        self.templates = templates
        self.achievements = achievements
        self.unlocks = unlocks
        self.accumulator = accumulator
        self.figures = figures
        self.challenges = challenges
        self.allowance = allowance
    }

    /// A progress of nobody, left where a progress was moved out (``ChangeDecider`` hands its progress to its
    /// decision with `exchange`). Its tables are empty, so putting it in place retains next to nothing, where a copy
    /// of a progress retains every table in it.
    static let vacant = UserProgress(
        settings: UserSettings(timeZone: "UTC"), settingsHistory: StreakSettingsHistory(),
        subscription: SubscriptionState(status: .free, endsAt: nil, trialUsed: false), customActivities: [], templates: [],
        achievements: UserAchievements(catalog: Catalog(name: "", activities: []), templates: [], activities: []), unlocks: [:],
        accumulator: ProgressAccumulator(), figures: ProgressFigures(), challenges: ChallengeBook(), allowance: LogAllowance())

    /// What the unlocks mean for evaluating the listed achievements: how many are worth XP, and which of the evaluated
    /// ones are unlocked (``UserAchievements/unlockState(of:)``), kept until the unlocks or the listing change.
    public mutating func unlockState() -> UnlockState {
        if let knownUnlockState { return knownUnlockState }
        let state = achievements.unlockState(of: unlocks.keys)
        knownUnlockState = state
        return state
    }

    /// A custom activity by id or name (case-insensitive), deleted ones included.
    public func customActivity(_ idOrName: String) -> Activity? {
        if let byID = customActivities.first(where: { $0.id == idOrName }) { return byID }
        let key = idOrName.lowercased()
        return customActivities.first { $0.name.lowercased() == key }
    }

    /// A built-in or a live custom activity by id or name; deleted ones are not found.
    public func liveActivity(_ idOrName: String, catalog: Catalog) -> Activity? {
        if let builtin = catalog.builtinActivity(named: idOrName) { return builtin }
        guard let custom = customActivity(idOrName), !custom.deleted else { return nil }
        return custom
    }

    /// The built-in and live custom activities, catalog first.
    public func liveActivities(catalog: Catalog) -> [Activity] {
        catalog.activities + customActivities.filter { !$0.deleted }
    }

    /// The user's local day of `now`.
    public func today(at now: Date) -> LocalDay {
        LocalDay(of: now, in: zone)
    }

    /// The daily streak as of `now`.
    public func streak(at now: Date) -> StreakState {
        accumulator.streak(today: today(at: now), settings: settingsHistory)
    }

    /// The weekly goal streak as of `now`.
    public func weeklyGoalStreak(at now: Date) -> WeeklyGoalStreak {
        accumulator.weeklyGoalStreak(today: today(at: now), settings: settingsHistory)
    }

    /// Every measure of the rules as of `now` (the weekly goal streak's depends on the day).
    public func measures(at now: Date) -> ProgressMeasures {
        var measures = accumulator.measures(today: today(at: now), now: now, settings: settingsHistory)
        measures.topPercentMet = topPercentMet
        return measures
    }

    /// The same measures read where the running state keeps them (``LiveMeasures``), for what asks a few rules
    /// (an achievement's progress on a push or in a listing) rather than every figure.
    public func liveMeasures(at now: Date) -> LiveMeasures {
        liveMeasures(at: now, longestWeeklyStreak: weeklyGoalStreak(at: now).longest)
    }

    /// The same, with the weekly goal streak's longest already worked out (a decision needs the streak itself too).
    func liveMeasures(at now: Date, longestWeeklyStreak: Int) -> LiveMeasures {
        LiveMeasures(
            accumulator: accumulator, longestWeeklyStreak: longestWeeklyStreak, longestReminderStreak: reminderStreak(at: now).longest,
            topPercentMet: topPercentMet)
    }

    /// The boards of the comparative goals still locked: the standings a decision needs.
    public var lockedGoalBoards: Set<LeaderboardBoard> {
        Set(achievements.topPercentGoals.lazy.filter { unlocks[$0.id] == nil }.map(\.goal.board))
    }

    /// The comparative goals of the user's achievements that the held standings meet.
    public var topPercentMet: Set<TopPercentGoal> {
        guard let standings = weekStandings?.standings, !standings.isEmpty else { return [] }
        var met: Set<TopPercentGoal> = []
        for (_, goal, _) in achievements.topPercentGoals where standings.contains(where: { TopPercentRule.isMet(goal, by: $0) }) {
            met.insert(goal)
        }
        return met
    }

    /// The reminder streak as of `now`.
    public func reminderStreak(at now: Date) -> ReminderStreak {
        accumulator.reminderStreak(now: now, settings: settingsHistory)
    }

    /// The unlocks worth XP now: those of achievements still listed for the user.
    public var unlocksWorthXP: Set<String> { achievements.unlocksWorthXP(unlocks.keys) }
}
