import Foundation
import LaurelCore
import LaurelStore

/// Today's challenges on the session's board, so that a fact of today is evaluated and committed from memory
/// with the challenges it completes. The first need of a day (or a week) chooses them in memory, from the history
/// the session read with its progress; a LOG stores the choice with its own commit, a CHALLENGES request in one
/// statement. Neither takes a transaction under the user's lock or makes a session load again.
extension RequestContext {
    /// The session's progress with today's and this week's challenges on its board, and the challenges chosen now
    /// for periods that had none and not stored yet (`storingChoices` false: the caller's LOG commit stores them,
    /// and the session keeps them once it has). A board of another day (the day changed during the session) is
    /// read first, in the snapshot of the session's version; when a writer elsewhere moved the version on in
    /// between, the session catches up and reads again (a few tries). Without a board the fact takes the
    /// transactional path, which chooses and completes under the user's lock.
    func sessionProgressWithChallenges(now: Date, storingChoices: Bool) async throws -> (progress: SessionProgress, unstored: [ChallengeChoice]) {
        let pool = catalog.challengePool
        for _ in 1...3 {
            var progress = try await sessionProgress(now: now)
            let today = LocalDay(of: now, in: progress.context.zone)
            guard progress.needsChallengeBoard(today: today, pool: pool) else { return (progress, []) }
            if progress.challengeBoard?.day != today {
                guard let board = try await todaysBoard(for: progress, today: today) else {
                    session.stateCache.noteBehind()
                    continue
                }
                progress.challengeBoard = board
                session.stateCache.keep(progress)
            }
            services.metrics.countChallengeBoardLoad()
            guard var board = progress.challengeBoard, !board.unchosen.isEmpty else { return (progress, []) }
            // The chooser offers keep_streak only to a streak there is to keep before today.
            let streak = progress.state.accumulator.streak(today: today, settings: progress.context.history).current(before: today)
            let choices = board.choices(
                user: user.id, localHour: LocalDateTime(of: now, in: progress.context.zone).hour, currentStreak: streak,
                liveActivities: catalog.activities + progress.customActivities.filter { !$0.deleted }, pool: pool)
            guard storingChoices || choices.isEmpty else {
                board.takeChosen(choices.map { StoredChallenge(choice: $0, completedAt: nil) })
                progress.challengeBoard = board
                return (progress, choices)
            }
            board.takeChosen(choices.isEmpty ? [] : try await store.storeChallenges(user: user.id, choices))
            progress.challengeBoard = board
            session.stateCache.keep(progress)
            return (progress, [])
        }
        return (try await sessionProgress(now: now), [])
    }

    /// Today's board as stored, read at the session's version (nil when the user's version is another).
    private func todaysBoard(for progress: SessionProgress, today: LocalDay) async throws -> ChallengeBoard? {
        let pool = catalog.challengePool
        let (version, board) = try await read { records in
            (try records.stateVersion(), try ChallengeBoard.load(day: today, pool: pool, records: records))
        }
        return version == progress.version ? board : nil
    }
}
