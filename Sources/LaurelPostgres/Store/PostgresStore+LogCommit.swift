import LaurelCore
import LaurelJSON
import LaurelStore

/// LOGs evaluated in the user's session are stored through `laurel.record_logs` (sql/0009): one statement per
/// batch of users, each user's part checked against the version it was evaluated at and isolated from the rest.
extension PostgresStore {
    public func commitLog(_ commit: LogCommit) async throws(StoreError) -> LogCommit.Outcome {
        let result: Result<LogCommit.Outcome, StoreError>
        do {
            result = try await logCommits.submit(commit)
        } catch {
            throw StoreError(error)
        }
        return try result.get()
    }

    public func saveProgressState(user: UserID, state: String, version: Int64) async throws(StoreError) {
        do {
            try await pool.withConnection { connection in
                // An older state never replaces a newer one. One older than the user's version is still of use: a
                // reader adds the logs stored after it (see EngineState.lastLogSeq).
                try connection.execute(
                    """
                    UPDATE laurel.progress SET state = $2::json, state_version = $3::bigint
                     WHERE user_id = $1::bigint AND state_version < $3::bigint
                    """,
                    [.int(Int(user.rawValue)), .text(state), .int(Int(version))])
            }
        } catch {
            throw StoreError(error)
        }
    }

    /// Stores one batch; one result per commit, in order. The batch runs first as one plain statement, and only if
    /// that fails (a part raised) again with each part isolated, so that one user's failure fails only that user.
    static func storeLogs(_ commits: [LogCommit], on connection: PostgresConnection) throws -> [Result<LogCommit.Outcome, StoreError>] {
        // Ordered by user, so that concurrent batches take users' row locks in one order.
        let order = commits.indices.sorted { commits[$0].user.rawValue < commits[$1].user.rawValue }
        let batch = JSONValue.array(order.map { batchElement(commits[$0]) }).serialized()
        let sql = "SELECT outcome, new_version, new_last_seq, log_seq, committed_us, detail FROM laurel.record_logs($1::jsonb, $2::boolean)"
        // Set by set needs one LOG per user (one session writes one at a time, so this is the rule).
        let onePerUser = Set(commits.map(\.user)).count == commits.count
        let rows: PostgresRows
        do {
            rows = try connection.query(sql, [.text(batch), .bool(!onePerUser)])
        } catch {
            guard onePerUser, !error.isConnectionError else { throw error }
            rows = try connection.query(sql, [.text(batch), .bool(true)])
        }
        guard rows.count == commits.count else {
            throw PostgresError.decoding("a batch of \(commits.count) logs got \(rows.count) outcomes")
        }
        var results = [Result<LogCommit.Outcome, StoreError>](repeating: .failure(.failed("not stored")), count: commits.count)
        for (index, row) in zip(order, rows) {
            results[index] = try outcome(of: commits[index], row)
        }
        return results
    }

    private static func outcome(of commit: LogCommit, _ row: PostgresRow) throws -> Result<LogCommit.Outcome, StoreError> {
        switch try row.string("outcome") {
        case "committed":
            let lastSeq = Int64(try row.int("new_last_seq"))
            let at = PostgresTimestamp.date(microseconds: try row.int("committed_us"))
            let firstSeq = lastSeq - Int64(commit.pushes.count) + 1
            let pushes = commit.pushes.enumerated().map { index, draft in draft.stored(seq: firstSeq + Int64(index), at: at) }
            return .success(.committed(version: Int64(try row.int("new_version")), logSeq: Int64(try row.int("log_seq")), pushes: pushes))
        case "stale":
            return .success(.stale)
        case "duplicate":
            return .success(.duplicate)
        case "rate_limited":
            return .success(.rateLimited)
        case "unknown_user":
            return .failure(.unknownUser)
        default:
            return .failure(.failed(try row.optionalString("detail") ?? "the log could not be stored"))
        }
    }

    /// One `laurel.log_commit` (sql/0009, 0011, 0012, 0014, 0015) as a JSON object; JSON values travel as text, stored as sent.
    private static func batchElement(_ commit: LogCommit) -> JSONValue {
        let log = commit.log
        let figures = commit.figures
        var element: JSONObject = [
            "user_id": .int(Int(commit.user.rawValue)), "version": .int(Int(commit.expectedVersion)),
            "id": .string(log.id), "activity": .string(log.activityID), "amount": .int(log.amount),
            "at_us": .int(PostgresTimestamp.microseconds(log.at)), "day": .string(log.day.description),
            "xp": .int(figures.xp), "level": .int(figures.level), "max_level": .int(figures.maxLevel),
            "current_streak": .int(figures.currentStreak), "longest_streak": .int(figures.longestStreak),
        ]
        if let streak = figures.shownStreak { element["shown_streak"] = .string(JSONValue.object(streak.json).serialized()) }
        if let held = figures.streakHoldsThrough { element["streak_holds_through"] = .string(held.description) }
        if let note = log.note { element["note"] = .string(note) }
        if let requestedAt = log.requestedAt { element["requested_us"] = .int(PostgresTimestamp.microseconds(requestedAt)) }
        if let hour = log.localHour { element["local_hour"] = .int(hour) }
        if let limit = commit.rateLimit {
            element["rate"] = .double(limit.logsPerSecond)
            element["burst"] = .int(limit.logBurst)
        }
        if let response = log.response { element["response"] = .string(response.serialized()) }
        if !commit.unlocks.isEmpty { element["unlocks"] = .array(commit.unlocks.map(JSONValue.string)) }
        // A challenge chosen and completed by this LOG is stored completed; the others completed are marked so.
        let chosen = commit.challengesChosen
        if !chosen.isEmpty {
            let completedIDs = Set(commit.challengesCompleted.map(\.id))
            element["challenges_chosen"] = .array(chosen.map { choice in
                .object(challengeRow(choice, completedAt: completedIDs.contains(choice.id) ? commit.decidedAt : nil))
            })
        }
        let chosenIDs = Set(chosen.map(\.id))
        let completed = commit.challengesCompleted.filter { !chosenIDs.contains($0.id) }
        if !completed.isEmpty {
            element["challenge_periods"] = .array(completed.map { .string($0.period.rawValue) })
            element["challenge_starts"] = .array(completed.map { .string($0.periodStart.description) })
            element["challenge_slots"] = .array(completed.map { .int($0.slot) })
        }
        // The moment of the unlocks and the completions (sql/0014).
        if !commit.unlocks.isEmpty || !commit.challengesCompleted.isEmpty {
            element["unlocked_us"] = .int(PostgresTimestamp.microseconds(commit.decidedAt))
        }
        if !commit.pushes.isEmpty {
            element["push_kinds"] = .array(commit.pushes.map { .string($0.kind.rawValue) })
            element["push_data"] = .array(commit.pushes.map { .string(JSONValue.object($0.data).serialized()) })
        }
        return .object(element)
    }
}
