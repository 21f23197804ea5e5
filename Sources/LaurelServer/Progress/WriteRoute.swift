import Foundation
import LaurelCore
import LaurelProtocol
import LaurelStore

/// The route every write of a user takes (docs/write-path.md): decided by the one evaluator (``ProgressEvaluator``)
/// against the progress the session holds, and committed in one statement at the session's version. What the
/// progress lacks for a decision (a past period's challenges, a new log's neighbours, a stored fact for a retry) is
/// read at that version and the same decision is made again. A commit that finds the version moved on catches up and
/// decides again; when that keeps happening (another instance writing the same user all the time), the write takes
/// the user's lock and runs the same decision and the same commit under it.
struct WriteRoute {
    let context: RequestContext

    /// How many commits at the session's version a write tries before it takes the user's lock.
    static let attemptsBeforeLock = 3

    /// What a write came to once committed, or decided to store nothing.
    struct Performed: Sendable {
        /// The decision; when it stored anything, its writes went to the commit, and `writes` is empty here.
        let decision: Decision
        /// Whether the decision stored anything (asked of the writes once: reading them from here copied them).
        var stored: Bool
        /// The pushes it stored, with their seqs.
        var pushes: [StoredPush]
        /// The answer rendered for the decision, its JSON text's UTF-8 (kept with a new fact, so that a retry gets
        /// it back).
        var answer: [UInt8]?
    }

    /// Decides and commits `change`, decided at `now`.
    /// - Parameter answer: renders the verb's answer from the decision, before the commit (a new fact keeps it).
    func perform(
        _ change: UserChange, now: Date, answer: @escaping @Sendable (Decision, _ pushes: [PushDraft]) -> [UInt8]? = { _, _ in nil }
    ) async throws -> Performed {
        let store = context.store
        for _ in 1...Self.attemptsBeforeLock {
            if let performed = try await attempt(change, now: now, answer: answer, via: store.access(to: context.user.id), verified: false) {
                if performed.stored { context.services.metrics.countWrite(underLock: false) }
                return performed
            }
            context.services.metrics.countStaleCommit()
        }
        let performed = try await store.withUserLocked(context.user.id) { locked in
            // Under the lock nobody else writes the user: a stale commit here is a broken invariant, not contention.
            guard let performed = try await attempt(change, now: now, answer: answer, via: locked, verified: true) else {
                throw StoreError.failed("a write under the user's lock found the user's version moved on")
            }
            return performed
        }
        if performed.stored { context.services.metrics.countWrite(underLock: true) }
        return performed
    }

    /// One decision and its commit; nil when the commit found the version moved on.
    /// - Parameter verified: the progress held is checked against the store before deciding (under the lock, where
    ///   that is the last chance to see a write that has not been announced yet).
    private func attempt(
        _ change: UserChange, now: Date, answer: @Sendable (Decision, _ pushes: [PushDraft]) -> [UInt8]?, via access: any UserAccess, verified: Bool
    ) async throws -> Performed? {
        let evaluator = ProgressEvaluator(rules: context.services.rules, user: context.user.id)
        var pieces = LoadedPieces()
        var held = try await context.progress(now: now, via: access, verified: verified)
        // In place only where no other instance writes the user: there a commit found stale catches up from the
        // progress the session held before, where a decision in place leaves it nothing to catch up from.
        let inPlace = ProgressEvaluator.decidesInPlace(change) && !context.services.othersMayHoldSessions
        while true {
            let (evaluation, taken) = evaluate(change, on: &held, with: pieces, inPlace: inPlace, by: evaluator, now: now)
            switch consume evaluation {
            case .needs(let wanted):
                guard try await load(wanted, into: &pieces, for: &held, via: access, now: now) else {
                    // The store has moved on from the progress held: catch up, and read again what is needed then.
                    context.session.progress.markBehind()
                    (held, pieces) = (try await context.progress(now: now, via: access, verified: true), LoadedPieces())
                    continue
                }
            case .refused(let refusal):
                throw ProtocolError(refusal)
            case .decided(let decision):
                // The pushes before the answer: an answer shows the unlocks their UNLOCK pushes carry, written once.
                let pushes = PushRendering.drafts(for: decision, rules: context.services.rules, rarity: context.services.rarity)
                let rendered = answer(decision, pushes)
                guard !decision.storesNothing else {
                    // Nothing to store (a retry answered as stored): a progress taken is held again as it was decided.
                    if taken { context.session.progress.keep(held.with(decision.shared)) }
                    return Performed(decision: decision, stored: false, pushes: [], answer: rendered)
                }
                let othersMayHold = context.services.othersMayHoldSessions
                let announces = context.session.progress.beginCommit(from: held.version, othersMayHold: othersMayHold)
                defer { context.session.progress.endCommit() }
                let snapshot = decision.writes.rebuilt ? ProgressSnapshot.encodedState(of: decision.progress.accumulator) : nil
                let (decidedAt, shared) = (decision.decidedAt, decision.shared)
                let commit = UserCommit(
                    // The writes go to the commit, not a copy of them (nor through a local of this task's frame);
                    // what follows reads them there.
                    user: context.user.id, expectedVersion: held.version, writes: decision.takeWrites(),
                    decidedAt: decidedAt, pushes: pushes, answer: rendered, snapshot: snapshot, scoresBefore: held.latestScores,
                    // A user another instance writes too: that instance adds what this write changes instead of
                    // reading it.
                    announcing: { writes, scores in
                        guard announces else { return nil }
                        return AnnouncedChange(writes: writes, decidedAt: decidedAt, progress: shared.progress, latestScores: scores)
                    },
                    // The user's connections elsewhere get the pushes as they come with the commit.
                    announcingPushes: othersMayHold)
                switch try await commitOrCompare(commit, via: access) {
                case .committed(let version, let lastSeq, let factSeq, let pushes):
                    keep(decision, writes: commit.writes, after: held, scores: commit.scoreRows, version: version, lastSeq: lastSeq, factSeq: factSeq)
                    return Performed(decision: decision, stored: true, pushes: pushes, answer: rendered)
                case .stale:
                    context.session.progress.markBehind()
                    return nil
                case .duplicate:
                    // The new fact's id is taken: a retry, answered from what is stored (or a conflict).
                    guard case .report(let fact) = change, let id = fact.id, pieces.storedFacts[.init(fact.kind, id)] == nil else {
                        throw StoreError.failed("a commit found its fact's id taken twice")
                    }
                    if taken {
                        // The decision changed the progress it took from the session: the user is read again.
                        let version = held.version
                        held = try await context.progress(now: now, via: access, verified: true)
                        if held.version != version { pieces = LoadedPieces() }
                    }
                    guard try await load([.storedFact(fact.kind, id: id)], into: &pieces, for: &held, via: access, now: now) else {
                        context.session.progress.markBehind()
                        (held, pieces) = (try await context.progress(now: now, via: access, verified: true), LoadedPieces())
                        continue
                    }
                }
            }
        }
    }

    /// Evaluates `change` against `held`: in place when `inPlace` and the session's progress is held by nobody else
    /// (``HeldProgress/take(_:)``; `taken` is then true), on a copy otherwise. A progress taken and not decided is
    /// held by the session again at once; a decided one goes with its decision, and the session holds nothing until
    /// the decision is kept (a failed commit leaves the user to be read again).
    private func evaluate(
        _ change: UserChange, on held: inout SessionProgress, with pieces: LoadedPieces, inPlace: Bool, by evaluator: ProgressEvaluator,
        now: Date
    ) -> (Evaluation, taken: Bool) {
        guard inPlace, var home = context.session.progress.take(&held) else {
            return (evaluator.evaluate(change, on: held.shared, with: pieces, now: now), false)
        }
        let evaluation = evaluator.evaluate(change, inPlace: &home, with: pieces, now: now)
        if case .decided = evaluation { return (evaluation, true) }
        held = held.with(home)
        context.session.progress.keep(held)
        return (evaluation, true)
    }

    /// Commits `commit`. A commit that fails may have been stored all the same (the connection broke after the
    /// database had it), and this instance passes over its own writes' announcements: the store is asked where the
    /// user stands, in the background, as an announcement would have told (``ServerResources/compareWithStore(_:)``).
    private func commitOrCompare(_ commit: UserCommit, via access: any UserAccess) async throws -> CommitOutcome {
        do {
            return try await access.commit(commit)
        } catch {
            let services = context.services, user = context.user.id
            services.metrics.countCommitInDoubt()
            Task { await services.compareWithStore([user]) }
            throw error
        }
    }

    /// The session takes on the decided progress at the version the commit left (`writes`: the decision's, which
    /// its commit holds).
    private func keep(
        _ decision: Decision, writes: ProgressWrites, after held: SessionProgress, scores: LatestDayScores.Rows, version: Int64,
        lastSeq: Int64, factSeq: Int64?
    ) {
        var position = held.position
        position.version = version
        position.lastSeq = lastSeq
        if let factSeq, let kind = writes.fact?.kind {
            switch kind {
            case .log: position.seqs.log = max(position.seqs.log, factSeq)
            case .lesson: position.seqs.lesson = max(position.seqs.lesson, factSeq)
            case .event: position.seqs.event = max(position.seqs.event, factSeq)
            case .reminder: position.seqs.reminder = max(position.seqs.reminder, factSeq)
            }
        }
        let next = SessionProgress(
            shared: decision.shared, position: position, snapshotVersion: writes.rebuilt ? version : held.snapshotVersion,
            latestScores: held.latestScores.after(scores))
        context.session.progress.keep(next)
        // What the commit's own announcement told the session before this instance passed over its own writes': the
        // newest version and push seq, so that another instance's later write without pushes is not taken for
        // pushes this instance has yet to deliver.
        context.session.progress.noteCommitted(version: version, lastSeq: lastSeq)
        context.services.boards.committed(context.user.id, version: version, decision: decision, writes: writes)
        // The interval first: making the snapshot copies the running state.
        if version - next.snapshotVersion >= SessionProgress.snapshotInterval, let snapshot = next.snapshot {
            context.session.storeSnapshot(snapshot, in: context.store)
        }
    }

    /// Reads the pieces at the version held: the challenges of a period go to the session's progress for good, the
    /// rest to this decision. False when the store is at another version (nothing is taken then).
    private func load(
        _ wanted: Set<ProgressPiece>, into pieces: inout LoadedPieces, for held: inout SessionProgress, via access: any UserAccess, now: Date
    ) async throws -> Bool {
        let (version, loaded) = try await access.read { reader in
            (try reader.standing().version, try PieceReading.read(wanted, from: reader, now: now))
        }
        guard version == held.version else { return false }
        context.services.metrics.countPiecesRead(wanted)
        if !loaded.challenges.isEmpty {
            var progress = held.progress
            for (period, stored) in loaded.challenges { progress.challenges.know(period, stored: stored) }
            held = held.with(progress)
        }
        pieces.merge(loaded.pieces)
        context.session.progress.keep(held)
        return true
    }
}
