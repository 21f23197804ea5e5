import Foundation
import LaurelCore
import LaurelJSON

/// What the engine derived from the facts: unlocks, the figures, and the engine state with the version it belongs
/// to. All of it can be recomputed from the facts.
public protocol ProgressRecords {
    /// Achievement id to unlock time.
    func unlocks() throws -> [String: Date]
    /// Records an unlock; false when the achievement was unlocked before (nothing changes then).
    func insertUnlock(achievementID: String, at: Date) throws -> Bool
    /// Removes unlocks whose achievement id starts with `prefix`; returns how many.
    func deleteUnlocks(withPrefix prefix: String) throws -> Int

    /// The version of everything the user's evaluation reads; a writing unit of work has moved it on already.
    func stateVersion() throws -> Int64
    /// The figures, and the state version the stored engine state belongs to, without the state itself.
    func progress() throws -> StoredProgress
    /// The engine's state (JSON text), when there is one.
    func progressState() throws -> String?
    /// Saves the figures, and the engine state when `progress.state` is set (as the state at `stateVersion()`).
    func saveProgress(_ progress: StoredProgress) throws
}

/// The derived figures kept for a user (they can always be recomputed from the facts).
public struct StoredProgress: Sendable, Equatable {
    public var xp: Int
    public var level: Int
    public var maxLevel: Int
    public var currentStreak: Int
    public var longestStreak: Int
    /// The streak as the user last saw it (a STREAK push tells what changed since); nil before the first save.
    public var shownStreak: StreakState?
    /// The last local day through which `currentStreak` holds without new activity, nil when nothing can break it
    /// (no streak, or a vacation): what lets SQL (`laurel.user_overview`) tell the streak on a later day. Written
    /// with the figures, not read back by `progress()`.
    public var streakHoldsThrough: LocalDay?
    /// The engine's running state, as JSON text (not filled by `progress()`).
    public var state: String?
    /// The user's state version `state` belongs to (the stored state is used only while it is the user's).
    public var stateVersion: Int64

    public init(
        xp: Int = 0, level: Int = 1, maxLevel: Int = 1, currentStreak: Int = 0, longestStreak: Int = 0,
        shownStreak: StreakState? = nil, streakHoldsThrough: LocalDay? = nil, state: String? = nil, stateVersion: Int64 = 0
    ) {
        self.shownStreak = shownStreak
        self.streakHoldsThrough = streakHoldsThrough
        self.stateVersion = stateVersion
        self.xp = xp
        self.level = level
        self.maxLevel = maxLevel
        self.currentStreak = currentStreak
        self.longestStreak = longestStreak
        self.state = state
    }
}
