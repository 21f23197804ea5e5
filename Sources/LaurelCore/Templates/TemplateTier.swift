/// One tier of an achievement template as a request gives it: `{"tier", "target", "label"?, "icon"?, "window_minutes"?}`.
///
/// The protocol checks each tier's shape and the list rules that need no other context (count, order, unique names);
/// whether `window_minutes` fits the template type is the domain's call, since TEMPLATE.UPDATE does not carry the type.
public struct TemplateTier: Sendable, Hashable, Codable {
    /// The tier's name (`bronze`, `silver`, ...), trimmed, 1-64 characters, unique within the list.
    public var tier: String
    /// The amount that unlocks the tier, 1 to 1,000,000,000, strictly increasing down the list.
    public var target: Int
    /// A name for the generated achievement, trimmed, 1-64 characters.
    public var label: String?
    /// An icon name, trimmed, 1-64 characters.
    public var icon: String?
    /// The time window of a `speed` tier, 1 to 1440 minutes.
    public var windowMinutes: Int?

    public init(tier: String, target: Int, label: String? = nil, icon: String? = nil, windowMinutes: Int? = nil) {
        self.tier = tier
        self.target = target
        self.label = label
        self.icon = icon
        self.windowMinutes = windowMinutes
    }
}
