/// One result row in PostgreSQL's text format, read by column name or position.
///
/// The typed readers throw `PostgresError.decoding` for an unknown column, an unexpected NULL,
/// or text that is not of the requested type; their `optional…` variants map NULL to nil.
public struct PostgresRow: Sendable {
    let layout: PostgresColumnLayout
    let values: [String?]

    /// Column names in result order.
    public var columns: [String] { layout.names }

    /// The text of a column, or nil when it is NULL or there is no such column.
    public subscript(column: String) -> String? {
        guard let position = layout.position(of: column) else { return nil }
        return values[position]
    }

    /// The text of the column at `index`, or nil when it is NULL.
    public subscript(index: Int) -> String? {
        values[index]
    }

    public func string(_ column: String) throws(PostgresError) -> String {
        try required(column, optionalString(column))
    }

    public func optionalString(_ column: String) throws(PostgresError) -> String? {
        guard let position = layout.position(of: column) else {
            throw .decoding("no column named \"\(column)\" (columns: \(layout.names.joined(separator: ", ")))")
        }
        return values[position]
    }

    public func int(_ column: String) throws(PostgresError) -> Int {
        try required(column, optionalInt(column))
    }

    public func optionalInt(_ column: String) throws(PostgresError) -> Int? {
        try decoded(column, as: "an integer") { Int($0) }
    }

    /// Reads `boolean` columns, which PostgreSQL renders as `t` or `f`.
    public func bool(_ column: String) throws(PostgresError) -> Bool {
        try required(column, optionalBool(column))
    }

    public func optionalBool(_ column: String) throws(PostgresError) -> Bool? {
        try decoded(column, as: "a boolean") { text in
            switch text {
            case "t": true
            case "f": false
            default: nil
            }
        }
    }

    /// Reads floating-point and numeric columns, including `NaN` and `Infinity`.
    public func double(_ column: String) throws(PostgresError) -> Double {
        try required(column, optionalDouble(column))
    }

    public func optionalDouble(_ column: String) throws(PostgresError) -> Double? {
        try decoded(column, as: "a number") { Double($0) }
    }

    private func required<Value>(_ column: String, _ value: Value?) throws(PostgresError) -> Value {
        guard let value else { throw .decoding("column \"\(column)\" is NULL") }
        return value
    }

    private func decoded<Value>(
        _ column: String,
        as typeDescription: String,
        _ parse: (String) -> Value?
    ) throws(PostgresError) -> Value? {
        guard let text = try optionalString(column) else { return nil }
        guard let value = parse(text) else {
            throw .decoding("column \"\(column)\": \"\(text)\" is not \(typeDescription)")
        }
        return value
    }
}
