/// What a notification listener says of itself on its own connection: a statement after every LISTEN, before it
/// reports `.listening` (so that whoever sends notifications knows, from then on, that someone hears them), and one
/// before it closes when stopped. The store's listener registers its server instance so (`laurel.register_instance`).
public struct ListenerPresence: Sendable {
    public var enter: (sql: String, parameters: [PostgresValue])
    public var leave: (sql: String, parameters: [PostgresValue])

    public init(enter: (sql: String, parameters: [PostgresValue]), leave: (sql: String, parameters: [PostgresValue])) {
        self.enter = enter
        self.leave = leave
    }
}
