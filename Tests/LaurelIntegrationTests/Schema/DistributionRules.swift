/// The schema rules the plan for a distributed PostgreSQL depends on (docs/scaling.md): every user's rows live on
/// the node of the user's shard, distributed by the user's id, and the shared tables are copied to every node.
///
/// How a table is classified:
/// - the users table (`users` of the schema) holds the user's id in `id`; any other table holds a user's id in a
///   column named `user_id`. A table with that column is a **user's table** (distributed by it, co-located with
///   `users`); one without it is a **shared table** (a catalog, the marketplace's listings, the server's own rows:
///   a reference table, or one left on the coordinator). A shared row that names a user as an attribute (a listing's
///   `author_id`) calls the column otherwise and has no foreign key to the user's rows.
///
/// The rules, each a ``Rule``: a user's table has its user's id in every row, of the users table's type; has a
/// primary key; includes the user's id in every primary key, unique index and exclusion constraint; references
/// another user's table only through the user's id. A shared table references no user's table.
enum DistributionRules {
    /// What a table breaks.
    enum Rule: String, Sendable, CaseIterable {
        /// The user's id column allows NULL: the table mixes users' rows with rows of no user, and a row without
        /// its distribution value has no shard.
        case userIDMayBeNull
        /// The user's id column has another type than the users table's id: tables co-locate only on one type.
        case userIDOfAnotherType
        /// No primary key: moving a shard to another node replicates its updates and deletes by key.
        case noPrimaryKey
        /// A primary key, unique index or exclusion constraint without the user's id: a shard can check only the
        /// keys of its own rows.
        case keyWithoutUserID
        /// A foreign key to another user's table that does not pair the user's id with the user's id: it could name
        /// another user's row, on another node.
        case foreignKeyAcrossUsers
        /// A shared table's foreign key to a user's table: a row copied to every node cannot point into one shard.
        case sharedTableReferencesUserRows
    }

    /// One rule broken by one table, and by which key or column.
    struct Violation: Sendable, Hashable, CustomStringConvertible {
        var table: String
        var rule: Rule
        var detail: String

        var description: String { "\(table): \(rule.rawValue) (\(detail))" }
    }

    /// The column of `table` holding the user's id, nil for a shared table.
    static func userIDColumn(of table: SchemaTables.Table, in schema: SchemaTables) -> SchemaTables.Column? {
        table.name == usersTable(of: schema) ? table.column("id") : table.column("user_id")
    }

    /// The schema-qualified name of the schema's users table.
    static func usersTable(of schema: SchemaTables) -> String { "\(schema.schema).users" }

    /// The names of the schema's user's tables, sorted.
    static func userTables(in schema: SchemaTables) -> [String] {
        schema.tables.values.filter { userIDColumn(of: $0, in: schema) != nil }.map(\.name).sorted()
    }

    /// The names of the schema's shared tables, sorted.
    static func sharedTables(in schema: SchemaTables) -> [String] {
        schema.tables.values.filter { userIDColumn(of: $0, in: schema) == nil }.map(\.name).sorted()
    }

    /// Every rule every table of the schema breaks, ordered by table and rule.
    static func violations(in schema: SchemaTables) -> [Violation] {
        schema.tables.values.flatMap { table in
            if let userID = userIDColumn(of: table, in: schema) {
                userTableViolations(table, userID: userID, in: schema)
            } else {
                sharedTableViolations(table, in: schema)
            }
        }.sorted { ($0.table, $0.rule.rawValue, $0.detail) < ($1.table, $1.rule.rawValue, $1.detail) }
    }

    private static func userTableViolations(
        _ table: SchemaTables.Table, userID: SchemaTables.Column, in schema: SchemaTables
    ) -> [Violation] {
        var found: [Violation] = []
        func broken(_ rule: Rule, _ detail: String) { found.append(Violation(table: table.name, rule: rule, detail: detail)) }

        if !userID.notNull { broken(.userIDMayBeNull, userID.name) }
        if let users = schema.tables[usersTable(of: schema)], let usersID = users.column("id"), usersID.type != userID.type {
            broken(.userIDOfAnotherType, "\(userID.name) \(userID.type), users.id \(usersID.type)")
        }
        if !table.keys.contains(where: \.isPrimary) { broken(.noPrimaryKey, table.name) }
        for key in table.keys where !key.columns.contains(userID.name) {
            broken(.keyWithoutUserID, "\(key.name) (\(key.columns.map { $0 ?? "(expression)" }.joined(separator: ", ")))")
        }
        for foreignKey in table.foreignKeys {
            guard let referenced = schema.tables[foreignKey.referencedTable],
                  let referencedUserID = userIDColumn(of: referenced, in: schema) else { continue }  // a shared table
            let throughUserID = zip(foreignKey.columns, foreignKey.referencedColumns).contains { pair in
                pair.0 == userID.name && pair.1 == referencedUserID.name
            }
            if !throughUserID {
                broken(.foreignKeyAcrossUsers, "\(foreignKey.name) (\(foreignKey.columns.joined(separator: ", "))) "
                    + "-> \(referenced.name) (\(foreignKey.referencedColumns.joined(separator: ", ")))")
            }
        }
        return found
    }

    private static func sharedTableViolations(_ table: SchemaTables.Table, in schema: SchemaTables) -> [Violation] {
        table.foreignKeys.compactMap { foreignKey in
            guard let referenced = schema.tables[foreignKey.referencedTable], userIDColumn(of: referenced, in: schema) != nil else {
                return nil
            }
            return Violation(
                table: table.name, rule: .sharedTableReferencesUserRows,
                detail: "\(foreignKey.name) (\(foreignKey.columns.joined(separator: ", "))) -> \(referenced.name)")
        }
    }
}
