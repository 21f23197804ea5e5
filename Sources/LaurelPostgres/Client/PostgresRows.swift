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
    let positions: [String: Int]

    init(names: [String]) {
        self.names = names
        // A name used twice (`SELECT 1 AS a, 2 AS a`) resolves to its first column, as in psql.
        self.positions = Dictionary(names.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
    }
}
