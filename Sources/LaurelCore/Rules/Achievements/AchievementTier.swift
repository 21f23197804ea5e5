/// How hard an achievement is, from `bronze` to `platinum`.
public enum AchievementTier: String, Hashable, Comparable, Sendable, Codable, CaseIterable {
    case bronze, silver, gold, platinum

    private var rank: Int {
        switch self {
        case .bronze: 0
        case .silver: 1
        case .gold: 2
        case .platinum: 3
        }
    }

    public static func < (lhs: AchievementTier, rhs: AchievementTier) -> Bool {
        lhs.rank < rhs.rank
    }
}
