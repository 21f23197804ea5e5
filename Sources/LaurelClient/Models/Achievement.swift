import Foundation

/// An achievement as the server shows it (ACHIEVEMENT), in answers and in UNLOCK pushes.
public struct Achievement: Codable, Sendable, Equatable {
    public var id: String
    public var name: String
    public var description: String?
    public var icon: String?
    public var category: String?
    public var tier: String
    /// `builtin` or `template`.
    public var source: String
    public var templateID: String?
    public var activity: String?
    public var target: Int
    public var progress: Int
    public var unit: String?
    public var unlockedAt: Date?
    public var hidden: Bool
    public var rarity: Double?
    public var explain: Explanation?

    enum CodingKeys: String, CodingKey {
        case id, name, description, icon, category, tier, source, activity, target, progress, unit, hidden, rarity, explain
        case templateID = "template_id"
        case unlockedAt = "unlocked_at"
    }
}

/// Why an achievement is not unlocked yet and what would change that (ACHIEVEMENT with `explain`).
public struct Explanation: Codable, Sendable, Equatable {
    public var rule: String
    public var measure: Int
    public var target: Int
    public var remaining: Int
    public var text: String
    public var deadline: Date?
    /// `activity_deleted`, `template_inactive`, `premium_lapsed` or `not_this_period`.
    public var blocked: String?
}
