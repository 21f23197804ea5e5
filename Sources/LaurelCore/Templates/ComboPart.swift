/// One activity of a combo template and the amount of it a combo day needs (rules.md, "More template types").
public struct ComboPart: Hashable, Sendable, Codable {
    public var activityID: String
    public var amount: Int

    /// How many activities a combo names, and the amounts each may ask.
    public static let activities = 2...5
    public static let amounts = 1...100_000

    public init(activityID: String, amount: Int) {
        self.activityID = activityID
        self.amount = amount
    }
}
