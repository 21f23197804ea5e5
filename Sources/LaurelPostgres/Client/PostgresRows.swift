/// The rows a statement returned, copied out of libpq, so they can cross threads and outlive
/// the connection.
public struct PostgresRows: Sendable, RandomAccessCollection {
    /// Column names in result order.
    public var columns: [String] { layout.names }
    /// Rows inserted, updated or deleted (from the command tag); 0 for other statements.
    public let affectedRows: Int

    let layout: PostgresColumnLayout
    let values: [[String?]]

    init(layout: PostgresColumnLayout, values: [[String?]], affectedRows: Int) {
        self.layout = layout
        self.values = values
        self.affectedRows = affectedRows
    }

    public var startIndex: Int { values.startIndex }
    public var endIndex: Int { values.endIndex }

    public subscript(position: Int) -> PostgresRow {
        PostgresRow(layout: layout, values: values[position])
    }
}

/// Column names of one result and where each one sits, shared by all its rows.
final class PostgresColumnLayout: Sendable {
    let names: [String]
    /// By name, for results wider than `searchedWidth`; nil for narrower ones, which are searched (`position(of:)`).
    private let positions: [String: Int]?

    /// Up to this many columns a name is found by comparing it with each: short names compare in a few instructions,
    /// where hashing one costs hundreds (a group commit's rows are read by name, five names a LOG).
    static let searchedWidth = 8

    init(names: [String]) {
        self.names = names
        // A name used twice (`SELECT 1 AS a, 2 AS a`) resolves to its first column, as in psql (and as the search does).
        positions = names.count <= Self.searchedWidth
            ? nil : Dictionary(names.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Where the column named `name` sits; nil when there is none.
    func position(of name: String) -> Int? {
        positions.map { $0[name] } ?? names.firstIndex(of: name)
    }
}
