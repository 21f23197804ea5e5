/// The `status` filter of ACHIEVEMENTS.
public enum AchievementStatus: String, Sendable, Hashable, CaseIterable {
    case unlocked
    case inProgress = "in_progress"
    case locked
}

/// The `source` filter of ACHIEVEMENTS: the server's catalog or the user's templates.
public enum AchievementSource: String, Sendable, Hashable, CaseIterable {
    case builtin
    case template
}
