import Testing
@testable import LaurelPostgres

@Suite("PostgresConnection against a real server")
struct PostgresConnectionTests {
    @Test("connections never JIT-compile a plan, whatever the cluster's default")
    func jitIsOff() async throws {
        try await ClientTestDatabase.withPool { pool in
            let (clusterDefault, session) = try await pool.withConnection { connection in
                (try connection.query("SELECT boot_val FROM pg_settings WHERE name = 'jit'")[0].string("boot_val"),
                 try connection.query("SHOW jit")[0].string("jit"))
            }
            #expect(clusterDefault == "on")
            #expect(session == "off")
        }
    }

    @Test("query and execute pass parameters, NULLs, unicode and quotes through unchanged")
    func parametersRoundTrip() async throws {
        let table = ClientTestDatabase.uniqueName("client_params")
        let awkward = "O'Brien said \"hi\" \\ back; DROP TABLE \(table); -- $1 ?"
        let unicode = "Zoë 🏆 日本語 — ünïcødé"
        try await ClientTestDatabase.withPool { pool in
            let (inserted, updated, rows) = try await pool.withConnection { connection in
                try connection.simpleQuery("""
                    CREATE TABLE \(table) (
                        id bigint PRIMARY KEY, name text NOT NULL, note text, active boolean NOT NULL, score double precision
                    )
                    """)
                let insert = "INSERT INTO \(table) (id, name, note, active, score) VALUES ($1::bigint, $2::text, $3::text, $4::boolean, $5::float8)"
                var inserted = try connection.execute(insert, [1, .text(awkward), nil, true, 2.5])
                inserted += try connection.execute(insert, [.int(2), .text(unicode), "a note", false, .double(-0.125)])
                inserted += try connection.execute(insert, [3, PostgresValue("third" as String?), PostgresValue(nil as String?), .bool(true), .null])
                let updated = try connection.execute("UPDATE \(table) SET active = NOT active WHERE id <= $1::bigint", [2])
                let rows = try connection.query("SELECT id, name, note, active, score FROM \(table) ORDER BY id")
                return (inserted, updated, rows)
            }
            #expect(inserted == 3)
            #expect(updated == 2)
            #expect(rows.columns == ["id", "name", "note", "active", "score"])
            #expect(rows.count == 3)

            let first = rows[0]
            #expect(try first.int("id") == 1)
            #expect(try first.string("name") == awkward)
            #expect(first["note"] == nil)
            #expect(try first.optionalString("note") == nil)
            #expect(try first.bool("active") == false)
            #expect(try first.double("score") == 2.5)

            let second = rows[1]
            #expect(try second.string("name") == unicode)
            #expect(second[2] == "a note")
            #expect(try second.bool("active") == true)
            #expect(try second.double("score") == -0.125)

            #expect(try rows[2].optionalDouble("score") == nil)
            #expect(try rows[2].optionalInt("score") == nil)
            #expect(rows.map { $0["id"] } == ["1", "2", "3"])

            let echoed = try await pool.withConnection { connection in
                try connection.query(
                    "SELECT $1::text AS t, $2::text IS NULL AS is_null, $3::bigint AS big, $4::float8 AS inf, $5::text AS bytes, $6::text AS empty",
                    [.text(unicode), .null, .int(Int.min), .double(.infinity), .utf8(Array(unicode.utf8)), .utf8([])]
                )[0]
            }
            #expect(try echoed.string("t") == unicode)
            #expect(try echoed.string("bytes") == unicode)
            #expect(try echoed.string("empty") == "")
            #expect(try echoed.bool("is_null"))
            #expect(try echoed.int("big") == Int.min)
            #expect(try echoed.double("inf") == .infinity)

            try await pool.withConnection { connection in try connection.simpleQuery("DROP TABLE \(table)") }
        }
    }

    @Test("typed readers reject unknown columns, NULLs and text of another type")
    func decodingErrors() async throws {
        let row = try await ClientTestDatabase.withPool(size: 1) { pool in
            try await pool.withConnection { connection in
                try connection.query("SELECT 'abc'::text AS word, NULL::bigint AS nothing, 'yes'::text AS flag")[0]
            }
        }
        #expect(throws: PostgresError.self) { try row.int("word") }
        #expect(throws: PostgresError.self) { try row.int("nothing") }
        #expect(throws: PostgresError.self) { try row.string("missing") }
        #expect(throws: PostgresError.self) { try row.bool("flag") }
        #expect(try row.optionalInt("nothing") == nil)
        do {
            _ = try row.int("word")
        } catch {
            guard case .decoding(let message) = error else {
                Issue.record("expected a decoding error, got \(error)")
                return
            }
            #expect(message.contains("word"))
        }
    }

    @Test("a result read in place checks its columns' names and order, and gives integers, NULLs, text and exact matches as the typed rows do")
    func resultReadInPlace() async throws {
        let read = try await ClientTestDatabase.withPool(size: 1) { pool in
            try await pool.withConnection { connection in
                try connection.query(
                    "SELECT o AS outcome, n AS number, t AS note FROM (VALUES ('committed', $1::bigint, NULL::text), ('stale', $2::bigint, 'ü \"quoted\"'), ('committed!', NULL, ''), ('x', 0, 'x')) AS v (o, n, t)",
                    [.int(Int.min), .int(Int.max)]
                ) { result throws(PostgresError) in
                    try result.expectColumns(["outcome", "number", "note"])
                    // Another name, order or count is not the layout read by position.
                    #expect(throws: PostgresError.self) { try result.expectColumns(["outcome", "number", "notes"]) }
                    #expect(throws: PostgresError.self) { try result.expectColumns(["outcome", "note", "number"]) }
                    #expect(throws: PostgresError.self) { try result.expectColumns(["outcome", "number", "not"]) }
                    #expect(throws: PostgresError.self) { try result.expectColumns(["outcome", "number"]) }
                    let (outcome, number, note): (Int32, Int32, Int32) = (0, 1, 2)
                    return try (0..<result.rowCount).map { row throws(PostgresError) in
                        (result.value(row: row, column: outcome, is: "committed"), try result.int(row: row, column: number), result.text(row: row, column: note))
                    }
                }
            }
        }
        #expect(read.map(\.0) == [true, false, false, false])
        #expect(read.map(\.1) == [Int.min, Int.max, nil, 0])
        #expect(read.map(\.2) == [nil, "ü \"quoted\"", "", "x"])
    }

    @Test("integers are read from libpq's text exactly, and anything else is not an integer",
          arguments: [("0", 0), ("-0", 0), ("42", 42), ("-42", -42), ("9223372036854775807", Int.max), ("-9223372036854775808", Int.min),
                      ("9223372036854775808", nil), ("-9223372036854775809", nil), ("", nil), ("-", nil), ("4 2", nil), ("+1", nil), ("1.5", nil),
                      ("1764553200123456", 1_764_553_200_123_456), ("999999999999999999", 999_999_999_999_999_999),
                      ("-999999999999999999", -999_999_999_999_999_999), ("1000000000000000000", 1_000_000_000_000_000_000),
                      ("12345678901234567a", nil), ("/", nil), (":", nil), ("0000000000000000000001", 1)] as [(String, Int?)])
    func decimalText(text: String, number: Int?) {
        let read = Array(text.utf8).withUnsafeBytes { PostgresResultReader.decimal($0) }
        #expect(read == number)
    }

    @Test("columns are found by name in narrow and wide results, a repeated name at its first column")
    func columnsByName() async throws {
        let (narrow, wide) = try await ClientTestDatabase.withPool(size: 1) { pool in
            try await pool.withConnection { connection in
                let narrow = try connection.query("SELECT 1 AS a, 2 AS a, 3 AS b")[0]
                let columns = (1...12).map { "\($0) AS c\($0)" } + ["13 AS c1", "14 AS last"]
                let wide = try connection.query("SELECT " + columns.joined(separator: ", "))[0]
                return (narrow, wide)
            }
        }
        #expect(try narrow.int("a") == 1)
        #expect(try narrow.int("b") == 3)
        #expect(narrow["c"] == nil)
        #expect(try wide.int("c1") == 1)
        #expect(try wide.int("c12") == 12)
        #expect(try wide.int("last") == 14)
        #expect(throws: PostgresError.self) { try wide.int("c13") }
    }

    @Test("a duplicate key surfaces as SQLSTATE 23505 with its constraint")
    func uniqueViolation() async throws {
        let table = ClientTestDatabase.uniqueName("client_unique")
        try await ClientTestDatabase.withPool(size: 1) { pool in
            let error = await #expect(throws: PostgresError.self) {
                try await pool.withConnection { connection in
                    try connection.simpleQuery("CREATE TABLE \(table) (id bigint PRIMARY KEY)")
                    try connection.execute("INSERT INTO \(table) VALUES ($1::bigint)", [7])
                    try connection.execute("INSERT INTO \(table) VALUES ($1::bigint)", [7])
                }
            }
            #expect(error?.isUniqueViolation == true)
            #expect(error?.sqlState == "23505")
            #expect(error?.isConnectionError == false)
            if case .server(_, _, let detail, let constraint) = error {
                #expect(constraint == "\(table)_pkey")
                #expect(detail?.contains("(id)=(7)") == true)
            } else {
                Issue.record("expected a server error, got \(String(describing: error))")
            }
            // The connection stays usable after a statement error.
            let count = try await pool.withConnection { connection in
                try connection.query("SELECT count(*) AS n FROM \(table)")[0].int("n")
            }
            #expect(count == 1)
            try await pool.withConnection { connection in try connection.simpleQuery("DROP TABLE \(table)") }
        }
    }

    @Test("transactions commit, roll back on a thrown error, and nest with savepoints")
    func transactions() async throws {
        let table = ClientTestDatabase.uniqueName("client_tx")
        try await ClientTestDatabase.withPool { pool in
            try await pool.withConnection { connection in
                try connection.simpleQuery("CREATE TABLE \(table) (id bigint PRIMARY KEY)")
            }
            try await pool.transaction { connection in
                try connection.execute("INSERT INTO \(table) VALUES (1)")
            }
            await #expect(throws: DeliberateFailure.self) {
                try await pool.transaction { connection in
                    try connection.execute("INSERT INTO \(table) VALUES (2)")
                    throw DeliberateFailure()
                }
            }
            // The inner transaction fails alone on its savepoint; the outer one commits.
            let innerFailed = try await pool.transaction { connection in
                try connection.execute("INSERT INTO \(table) VALUES (3)")
                do {
                    try connection.transaction { inner in
                        try inner.execute("INSERT INTO \(table) VALUES (1)")
                    }
                    return false
                } catch let error as PostgresError {
                    return error.isUniqueViolation
                }
            }
            #expect(innerFailed)
            // A statement error swallowed without a savepoint makes COMMIT roll back, which must not pass silently.
            let swallowed = await #expect(throws: PostgresError.self) {
                try await pool.transaction { connection in
                    try connection.execute("INSERT INTO \(table) VALUES (4)")
                    _ = try? connection.execute("INSERT INTO \(table) VALUES (1)")
                }
            }
            #expect(swallowed?.sqlState == "25P02")

            let ids = try await pool.withConnection { connection in
                try connection.query("SELECT id FROM \(table) ORDER BY id").map { try $0.int("id") }
            }
            #expect(ids == [1, 3])
            try await pool.withConnection { connection in try connection.simpleQuery("DROP TABLE \(table)") }
        }
    }

    @Test("a statement is prepared once per connection and then reused")
    func preparedStatementReuse() async throws {
        try await ClientTestDatabase.withPool(size: 1) { pool in
            let sql = "SELECT $1::bigint * 2 AS doubled -- \(ClientTestDatabase.uniqueName("reuse"))"
            let (results, prepared) = try await pool.withConnection { connection in
                let results = try (1...3).map { try connection.query(sql, [.int($0)])[0].int("doubled") }
                let prepared = try connection.query(
                    "SELECT count(*) AS n FROM pg_prepared_statements WHERE statement = $1::text", [.text(sql)]
                )[0].int("n")
                return (results, prepared)
            }
            #expect(results == [2, 4, 6])
            #expect(prepared == 1)
        }
    }

    @Test("cached statements are prepared again after their table changes or they are deallocated")
    func preparedStatementsSurviveSchemaChanges() async throws {
        let table = ClientTestDatabase.uniqueName("client_reprepare")
        try await ClientTestDatabase.withPool(size: 1) { pool in
            let values = try await pool.withConnection { connection in
                try connection.simpleQuery("CREATE TABLE \(table) (value int); INSERT INTO \(table) VALUES (5)")
                let select = "SELECT * FROM \(table)"
                let before = try connection.query(select)[0].string("value")
                try connection.simpleQuery("ALTER TABLE \(table) ALTER COLUMN value TYPE text USING 'v' || value")
                let afterAlter = try connection.query(select)[0].string("value")
                try connection.simpleQuery("DEALLOCATE ALL")
                let afterDeallocate = try connection.query(select)[0].string("value")
                try connection.simpleQuery("DROP TABLE \(table)")
                return [before, afterAlter, afterDeallocate]
            }
            #expect(values == ["5", "v5", "v5"])
        }
    }

    @Test("simpleQuery runs multi-statement scripts and reports the failing statement")
    func simpleQueryScripts() async throws {
        let table = ClientTestDatabase.uniqueName("client_script")
        try await ClientTestDatabase.withPool(size: 1) { pool in
            let count = try await pool.withConnection { connection in
                try connection.simpleQuery("""
                    CREATE TABLE \(table) (id int);
                    INSERT INTO \(table) VALUES (1), (2);
                    DROP TABLE IF EXISTS \(table)_absent;
                    """)
                return try connection.query("SELECT count(*) AS n FROM \(table)")[0].int("n")
            }
            #expect(count == 2)
            let error = await #expect(throws: PostgresError.self) {
                try await pool.withConnection { connection in
                    try connection.simpleQuery("INSERT INTO \(table) VALUES (3); SELECT * FROM \(table)_absent;")
                }
            }
            #expect(error?.sqlState == "42P01")
            try await pool.withConnection { connection in try connection.simpleQuery("DROP TABLE \(table)") }
        }
    }

    @Test("a NUL character in a parameter is rejected, not truncated")
    func nulCharacterRejected() async throws {
        try await ClientTestDatabase.withPool(size: 1) { pool in
            let error = await #expect(throws: PostgresError.self) {
                try await pool.withConnection { connection in
                    try connection.query("SELECT $1::text AS t", [.text("before\u{0}after")])
                }
            }
            #expect(error?.sqlState == "22021")
            // The same for text handed over as UTF-8 bytes (a commit batch).
            let bytesError = await #expect(throws: PostgresError.self) {
                try await pool.withConnection { connection in
                    try connection.query("SELECT $1::text AS t", [.utf8(Array("before\u{0}after".utf8))])
                }
            }
            #expect(bytesError?.sqlState == "22021")
        }
    }

    @Test("binary parameters reach the server byte for byte, NUL bytes and empty values included, beside text ones")
    func binaryParametersReadInPlace() async throws {
        let table = ClientTestDatabase.uniqueName("client_binary")
        let bytes: [UInt8] = [0, 1, 0, 255, 10, 0]
        let larger = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let largerHex = larger.map { byte in
            let digits = Array("0123456789abcdef")
            return String([digits[Int(byte >> 4)], digits[Int(byte & 15)]])
        }.joined()
        try await ClientTestDatabase.withPool(size: 1) { pool in
            let (rows, afterAlter, digest) = try await pool.withConnection { connection in
                try connection.simpleQuery("CREATE TABLE \(table) (value int)")
                // Two binary values (bytea's binary format is its bytes) and a text one in one statement.
                let sql = """
                    SELECT length($1::bytea) AS first, encode($1::bytea, 'hex') AS hex, $1::bytea IS NULL AS first_null,
                           length($2::bytea) AS second, md5($2::bytea) AS digest, $3::text AS label,
                           (SELECT max(value) FROM \(table)) AS latest
                    """
                let rows = try [bytes, [], larger].map { value in
                    try connection.query(sql, [.binary(value), .binary(larger), .text("after")])[0]
                }
                // The cached statement's result changes type ("cached plan must not change result type"): it is
                // prepared again and the same values sent again.
                try connection.simpleQuery("ALTER TABLE \(table) ALTER COLUMN value TYPE text")
                let afterAlter = try connection.query(sql, [.binary(bytes), .binary([]), .text("again")])[0]
                try connection.simpleQuery("DROP TABLE \(table)")
                let digest = try connection.query("SELECT md5(decode($1::text, 'hex')) AS digest", [.text(largerHex)])[0].string("digest")
                return (rows, afterAlter, digest)
            }
            #expect(try rows.map { try $0.int("first") } == [6, 0, 300_000])
            #expect(try rows[0].string("hex") == "000100ff0a00")
            #expect(try rows.map { try $0.bool("first_null") } == [false, false, false])
            #expect(try rows.map { try $0.int("second") } == [300_000, 300_000, 300_000])
            #expect(try rows.map { try $0.string("digest") } == [digest, digest, digest])
            #expect(try rows.map { try $0.string("label") } == ["after", "after", "after"])
            #expect(try afterAlter.string("hex") == "000100ff0a00")
            #expect(try afterAlter.int("second") == 0)
            #expect(try afterAlter.string("label") == "again")
        }
    }
}

/// An error a test's closure throws on purpose.
private struct DeliberateFailure: Error, Equatable {}
