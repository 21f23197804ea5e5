import LaurelPostgres

/// The tables of one schema as PostgreSQL's catalog describes them: columns, primary keys and unique indexes (and
/// exclusion constraints, which are unique in the same way), and foreign keys. What the distribution rules read.
struct SchemaTables: Sendable {
    /// A column of a table.
    struct Column: Sendable, Equatable {
        var name: String
        /// As `format_type` writes it (`bigint`, `text`).
        var type: String
        var notNull: Bool
    }

    /// A primary key, a unique index or an exclusion constraint: the key columns in order, nil for an expression.
    struct Key: Sendable, Equatable {
        var name: String
        var isPrimary: Bool
        var columns: [String?]
    }

    /// A foreign key: `columns[i]` references `referencedColumns[i]` of `referencedTable`.
    struct ForeignKey: Sendable, Equatable {
        var name: String
        var columns: [String]
        /// Schema-qualified (`laurel.users`).
        var referencedTable: String
        var referencedColumns: [String]
    }

    /// A table of the schema.
    struct Table: Sendable {
        /// Schema-qualified (`laurel.logs`).
        var name: String
        var columns: [Column] = []
        var keys: [Key] = []
        var foreignKeys: [ForeignKey] = []

        func column(_ name: String) -> Column? { columns.first { $0.name == name } }
    }

    var schema: String
    /// By schema-qualified name.
    var tables: [String: Table]

    /// The ordinary and partitioned tables of `schema` (partitions are their parent's), read from pg_catalog.
    static func read(schema: String, on connection: PostgresConnection) throws -> SchemaTables {
        var tables: [String: Table] = [:]
        for row in try connection.query(
            """
            SELECT n.nspname || '.' || c.relname AS table_name, a.attname AS column_name,
                   format_type(a.atttypid, a.atttypmod) AS type, a.attnotnull AS not_null
              FROM pg_class c
              JOIN pg_namespace n ON n.oid = c.relnamespace
              LEFT JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
             WHERE n.nspname = $1::text AND c.relkind IN ('r', 'p') AND NOT c.relispartition
             ORDER BY c.relname, a.attnum
            """, [.text(schema)]) {
            let name = try row.string("table_name")
            var table = tables[name] ?? Table(name: name)
            if let column = row["column_name"] {
                table.columns.append(Column(name: column, type: try row.string("type"), notNull: try row.bool("not_null")))
            }
            tables[name] = table
        }
        for row in try connection.query(
            """
            SELECT n.nspname || '.' || c.relname AS table_name, ic.relname AS key_name, i.indisprimary AS is_primary,
                   k.position, a.attname AS column_name
              FROM pg_index i
              JOIN pg_class c ON c.oid = i.indrelid
              JOIN pg_namespace n ON n.oid = c.relnamespace
              JOIN pg_class ic ON ic.oid = i.indexrelid
             CROSS JOIN LATERAL unnest(i.indkey::int2[]) WITH ORDINALITY AS k(attnum, position)
              LEFT JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = k.attnum AND k.attnum > 0
             WHERE n.nspname = $1::text AND c.relkind IN ('r', 'p') AND NOT c.relispartition
               AND (i.indisunique OR i.indisexclusion) AND k.position <= i.indnkeyatts
             ORDER BY c.relname, ic.relname, k.position
            """, [.text(schema)]) {
            let (table, name) = (try row.string("table_name"), try row.string("key_name"))
            if let last = tables[table]?.keys.indices.last, tables[table]?.keys[last].name == name {
                tables[table]?.keys[last].columns.append(row["column_name"])
            } else {
                tables[table]?.keys.append(Key(name: name, isPrimary: try row.bool("is_primary"), columns: [row["column_name"]]))
            }
        }
        for row in try connection.query(
            """
            SELECT n.nspname || '.' || c.relname AS table_name, con.conname AS key_name,
                   rn.nspname || '.' || r.relname AS referenced_table, k.position,
                   a.attname AS column_name, ra.attname AS referenced_column
              FROM pg_constraint con
              JOIN pg_class c ON c.oid = con.conrelid
              JOIN pg_namespace n ON n.oid = c.relnamespace
              JOIN pg_class r ON r.oid = con.confrelid
              JOIN pg_namespace rn ON rn.oid = r.relnamespace
             CROSS JOIN LATERAL unnest(con.conkey, con.confkey) WITH ORDINALITY AS k(attnum, referenced_attnum, position)
              JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.attnum
              JOIN pg_attribute ra ON ra.attrelid = con.confrelid AND ra.attnum = k.referenced_attnum
             WHERE con.contype = 'f' AND n.nspname = $1::text AND NOT c.relispartition
             ORDER BY c.relname, con.conname, k.position
            """, [.text(schema)]) {
            let (table, name) = (try row.string("table_name"), try row.string("key_name"))
            let (column, referenced) = (try row.string("column_name"), try row.string("referenced_column"))
            if let last = tables[table]?.foreignKeys.indices.last, tables[table]?.foreignKeys[last].name == name {
                tables[table]?.foreignKeys[last].columns.append(column)
                tables[table]?.foreignKeys[last].referencedColumns.append(referenced)
            } else {
                tables[table]?.foreignKeys.append(ForeignKey(
                    name: name, columns: [column], referencedTable: try row.string("referenced_table"), referencedColumns: [referenced]))
            }
        }
        return SchemaTables(schema: schema, tables: tables)
    }
}
