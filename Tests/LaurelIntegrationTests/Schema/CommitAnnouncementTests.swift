import LaurelPostgres
import Testing

/// How a committed batch is announced to the instances costs the batch little: `laurel.announced_commit`, called for
/// every committed part of every batch, is inlined into `laurel.commit_changes`'s expression rather than run as a
/// query of its own (which PostgreSQL parses and plans again in every batch).
@Suite struct CommitAnnouncementTests {
    @Test func eachCommitsAnnouncementIsInlinedIntoItsCaller() async throws {
        let plan = try await LaurelTestDatabase.admin().withConnection { connection in
            // Of columns, not constants (which the planner folds into the answer).
            try connection.query(
                "EXPLAIN (VERBOSE, COSTS OFF) SELECT laurel.announced_commit(g.user_id, g.version, g.last_seq, 4, NULL::text) FROM laurel.progress g", []
            ).compactMap { $0[0] }
        }.joined(separator: "\n")
        #expect(plan.contains("||"), "the function's body is in the plan: \(plan)")
        #expect(!plan.contains("announced_commit"), "no call of the function is left: \(plan)")
    }

    @Test func anAnnouncementSaysTheCommitAndTheChangeWhenThereIsOne() async throws {
        #expect(try await LaurelTestDatabase.scalar("SELECT laurel.announced_commit(7, 3, 12, NULL, NULL)") == "[7,3,12]")
        #expect(try await LaurelTestDatabase.scalar(#"SELECT laurel.announced_commit(7, 3, 12, 40, '{"xp":5}')"#)
            == #"[7,3,12,40,{"xp":5}]"#)
    }
}
