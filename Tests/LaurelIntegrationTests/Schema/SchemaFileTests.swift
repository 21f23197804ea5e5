import Foundation
import LaurelPostgres
import Testing

/// `sql/schema.sql` is the whole schema as a freshly migrated database has it (the migrations' tables with every
/// function and view applied): a newcomer reads the schema there instead of replaying migrations in their head. It
/// must say what the migrations make; `scripts/schema-dump` writes it again after a change.
@Suite struct SchemaFileTests {
    @Test func theCheckedInSchemaIsWhatTheMigrationsMake() async throws {
        _ = try await LaurelTestDatabase.admin()  // migrated
        let dumped = try Self.dump(url: try LaurelTestDatabase.url())
        let file = try SchemaFiles.shippedDirectory().appendingPathComponent("schema.sql")
        if ProcessInfo.processInfo.environment["LAUREL_RECORD_SCHEMA"] == "1" {
            try dumped.write(to: file, atomically: true, encoding: .utf8)
            return
        }
        let checkedIn = try String(contentsOf: file, encoding: .utf8)
        let (dumpedLines, checkedInLines) = (dumped.split(separator: "\n", omittingEmptySubsequences: false), checkedIn.split(separator: "\n", omittingEmptySubsequences: false))
        let firstDifference = zip(dumpedLines, checkedInLines).enumerated().first { $0.element.0 != $0.element.1 }
        #expect(dumped == checkedIn, """
            sql/schema.sql is not what the migrations make (run scripts/schema-dump): \
            first difference at line \((firstDifference?.offset ?? min(dumpedLines.count, checkedInLines.count)) + 1): \
            migrated "\(firstDifference?.element.0 ?? "")", checked in "\(firstDifference?.element.1 ?? "")"
            """)
    }

    /// `pg_dump --schema-only` of schema `laurel`, without what changes from one dump to the next (the server's
    /// version in comments, session settings, the random key of psql's `\restrict`).
    static func dump(url: String) throws -> String {
        let pgDump = Process()
        pgDump.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        pgDump.arguments = ["pg_dump", "--schema-only", "--schema=laurel", "--no-owner", "--no-privileges", "--dbname=\(url)"]
        let output = Pipe()
        pgDump.standardOutput = output
        try pgDump.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        pgDump.waitUntilExit()
        try #require(pgDump.terminationStatus == 0, "pg_dump failed")
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).filter { line in
            !line.hasPrefix("--") && !line.hasPrefix("SET ") && !line.hasPrefix("SELECT pg_catalog.set_config")
                && !line.hasPrefix("\\restrict") && !line.hasPrefix("\\unrestrict")
        }
        // Runs of blank lines (where comments were) become one.
        var kept: [Substring] = []
        for line in lines where !(line.isEmpty && (kept.last?.isEmpty ?? true)) { kept.append(line) }
        return "-- The schema `laurel` as a freshly migrated database has it (pg_dump --schema-only), written by\n"
            + "-- scripts/schema-dump and checked by a test: read it, do not edit it (tables change in sql/migrations, functions\n"
            + "-- and views in their files under sql/functions and sql/views).\n\n"
            + kept.joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines) + "\n"
    }
}
