import Foundation
import LaurelCore
import LaurelStore

/// A user's progress as a session holds it: what the rules read (``UserProgress``) and where that stands in the store
/// (the version, the last push, the newest facts counted), so that a write is decided without reading anything and
/// committed at that version.
///
/// An object that never changes while others hold it, held by the session and handed to each request as one
/// reference: every LOG starts from it, and a copy of a progress would retain every table in it (a change makes a new
/// one). The one change, ``takeShared(from:)``, moves the progress out through a reference held alone (which is why
/// the class may be `Sendable` with a stored `var`).
final class SessionProgress: @unchecked Sendable {
    /// The progress, as the decisions that start from it and the one that made it hand it on (without a copy); nil
    /// once taken for a decision in place. (Spelled out: `SharedProgress?` would start as nil and be assigned over.)
    private var held: Optional<SharedProgress>
    /// The progress's object; not to be read once taken.
    var shared: SharedProgress { held.unsafelyUnwrapped }
    let position: StoredPosition
    /// The version of the snapshot the store keeps for the user, as far as the session knows.
    let snapshotVersion: Int64
    /// The latest day's board scores stored at this version: a commit stores its score changes on top of them.
    let latestScores: LatestDayScores

    var version: Int64 { position.version }

    /// The progress, read in place.
    var progress: UserProgress {
        _read { yield shared.progress }
    }

    /// How many versions a session lets the stored snapshot fall behind before it stores one again (a device connected
    /// for days), so that a restart adds a bounded number of facts.
    static let snapshotInterval: Int64 = 1000

    init(shared: SharedProgress, position: StoredPosition, snapshotVersion: Int64, latestScores: LatestDayScores) {
        self.held = shared
        self.position = position
        self.snapshotVersion = snapshotVersion
        self.latestScores = latestScores
    }

    /// Everything the rules read about the user, from one snapshot of the store: the running state from the stored
    /// snapshot and the facts stored after it (from every fact when there is no usable snapshot), the speed windows
    /// the user's achievements need, today's and this week's challenges, and the ended weeks' standings.
    init(reading reader: any UserReader, rules: Rulebook, now: Date) throws {
        let standing = try reader.standing()
        let (settings, history) = try reader.settings()
        let activities = try reader.customActivities()
        let templates = try reader.templates()
        let unlocks = try reader.unlocks()
        let achievements = rules.achievements(
            templates: templates, activities: activities, unlocks: unlocks,
            today: LocalDay(of: now, in: TimeZone(identifier: settings.timeZone) ?? .gmt))
        var accumulator = ProgressAccumulator()
        var seqs = FactSeqs()
        var logged: Set<String> = []
        var snapshotVersion: Int64 = -1
        if let snapshot = try reader.snapshot(), snapshot.version >= standing.rebuiltVersion, snapshot.version <= standing.version {
            let (facts, newest) = try reader.facts(after: snapshot.seqs)
            accumulator = snapshot.accumulator
            accumulator.add(facts, settings: history)
            (seqs, snapshotVersion, logged) = (newest, snapshot.version, Set(facts.logs.map(\.activity)))
        } else {
            let (facts, newest) = try reader.facts(after: FactSeqs())
            accumulator = ProgressAccumulator(rebuildingFrom: facts, settings: history, speedWindows: achievements.speedWindows)
            seqs = newest
        }
        // A window no achievement needs goes; one that is new, or whose activity got logs since the snapshot, is
        // measured from all its logs.
        for window in accumulator.speedWindows.subtracting(achievements.speedWindows) { accumulator.untrack(window) }
        for parts in accumulator.trackedCombos.subtracting(achievements.combos) { accumulator.untrack(combo: parts) }
        for parts in achievements.combos { accumulator.track(combo: parts) }
        for window in achievements.speedWindows where !accumulator.speedWindows.contains(window) || logged.contains(window.activity) {
            accumulator.track(window, logs: try reader.logFacts(activity: window.activity, from: .distantPast, through: .distantFuture))
        }
        var progress = UserProgress(
            settings: settings, settingsHistory: history, subscription: try reader.subscription(), customActivities: activities,
            templates: templates, achievements: achievements, unlocks: unlocks, accumulator: accumulator,
            figures: standing.figures, challenges: ChallengeBook(), allowance: standing.allowance)
        let today = progress.today(at: now)
        let current = rules.catalog.offeredChallengePeriods.map { ChallengeBook.Period($0, containing: today) }
        for (period, stored) in try reader.challenges(of: current) { progress.challenges.know(period, stored: stored) }
        // Read with the rest, so that a session's first decision does not ask for them.
        let boards = progress.lockedGoalBoards
        if !boards.isEmpty {
            let weeks = EndedWeeks.latest(at: now)
            progress.weekStandings = WeekStandings(
                weeks: weeks, boards: boards, standings: try reader.weekStandings(weeks: weeks, boards: boards), readAt: now)
        }
        held = SharedProgress(progress)
        position = StoredPosition(version: standing.version, lastSeq: standing.lastSeq, seqs: seqs)
        self.snapshotVersion = snapshotVersion
        latestScores = standing.latestScores
    }

    /// This progress brought up to what was committed since (only facts, unlocks, challenges and figures, or the
    /// store would not have answered): the facts added to the running state, the rest taken as it is now. Nil when a
    /// new log belongs to a tracked speed window, which needs all of its activity's logs: the session loads again.
    func caughtUp(with changes: ProgressChanges) -> SessionProgress? {
        let windows = progress.accumulator.speedWindows
        guard !changes.logs.contains(where: { log in windows.contains { $0.activity == log.activity } }) else { return nil }
        var next = progress
        next.accumulator.add(
            ProgressFacts(logs: changes.logs, lessons: changes.lessons, events: changes.events), settings: progress.settingsHistory)
        // Assigned only when they differ (equal storage compares at once): assigning forgets what the unlocks mean
        // for evaluation, which the next decision would work out again.
        if next.unlocks != changes.unlocks { next.unlocks = changes.unlocks }
        for (period, stored) in changes.challenges { next.challenges.know(period, stored: stored) }
        next.figures = changes.figures
        next.allowance = changes.allowance
        return SessionProgress(
            shared: SharedProgress(next), position: StoredPosition(version: changes.version, lastSeq: max(position.lastSeq, changes.lastSeq), seqs: changes.seqs),
            snapshotVersion: snapshotVersion, latestScores: changes.latestScores)
    }

    /// This progress with the change the write after it announced, as a catch-up that read it would make it: nil
    /// unless the write made `version` right after this one (or when the catch-up would load instead).
    func caughtUp(with change: AnnouncedChange, version: Int64, lastSeq: Int64) -> SessionProgress? {
        guard version == self.version + 1 else { return nil }
        var seqs = position.seqs
        var (logs, lessons, events) = ([LoggedFact](), [LessonCompletion](), [ReportedEvent]())
        if let fact = change.fact {
            guard let seq = change.factSeq else { return nil }
            switch fact {
            case .log(let log): (logs, seqs.log) = ([log], max(seqs.log, seq))
            case .lesson(let lesson): (lessons, seqs.lesson) = ([lesson], max(seqs.lesson, seq))
            case .event(let event): (events, seqs.event) = ([event], max(seqs.event, seq))
            }
        }
        return caughtUp(with: ProgressChanges(
            version: version, lastSeq: lastSeq, logs: logs, lessons: lessons, events: events, seqs: seqs,
            unlocks: change.unlocked.isEmpty ? progress.unlocks : progress.unlocks.merging(change.unlocked) { _, announced in announced },
            challenges: change.challenges,
            figures: change.figures, allowance: change.allowance, latestScores: change.latestScores))
    }

    /// The same position with `progress` (pieces read at this version added to it).
    func with(_ progress: consuming UserProgress) -> SessionProgress {
        with(SharedProgress(progress))
    }

    /// The same position with the progress `shared` holds.
    func with(_ shared: SharedProgress) -> SessionProgress {
        SessionProgress(shared: shared, position: position, snapshotVersion: snapshotVersion, latestScores: latestScores)
    }

    /// Moves the progress's object out of `session` for a decision that changes it in place
    /// (``ProgressEvaluator/evaluate(_:inPlace:with:now:)``), when the caller's reference is the only one to the
    /// session's progress and to its object; nil (nothing changed) otherwise. What is left holds no progress: only its
    /// position is to be read.
    static func takeShared(from session: inout SessionProgress) -> SharedProgress? {
        guard isKnownUniquelyReferenced(&session), var shared = session.held.take() else { return nil }
        guard isKnownUniquelyReferenced(&shared) else {
            session.held = shared
            return nil
        }
        return shared
    }

    /// The same, knowing that the store keeps a snapshot of `snapshotVersion`.
    func with(snapshotVersion: Int64) -> SessionProgress {
        SessionProgress(shared: shared, position: position, snapshotVersion: snapshotVersion, latestScores: latestScores)
    }

    /// The snapshot of this progress, to store when the session ends or when the stored one has fallen far behind.
    var snapshot: ProgressSnapshot? {
        guard version > snapshotVersion else { return nil }
        return ProgressSnapshot(version: version, seqs: position.seqs, accumulator: progress.accumulator)
    }
}
