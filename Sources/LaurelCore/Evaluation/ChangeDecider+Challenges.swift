import Foundation

/// Choosing a current period's challenges, the first time anything needs them (rules.md, "Choosing"), and
/// CHALLENGES, which needs today's and this week's.
extension ChangeDecider {
    /// CHALLENGES of today: the current periods nobody needed yet are chosen now; challenges their facts reach
    /// already are completed at once.
    mutating func chooseChallenges() throws(Undecided) -> ChangeOutcome {
        var missing: Set<ProgressPiece> = []
        let periods = catalog.offeredChallengePeriods.map { ChallengeBook.Period($0, containing: today) }
        for period in periods { noteUnknownChallenges(of: period, missing: &missing) }
        if !missing.isEmpty { throw .needs(missing) }
        for period in periods { chooseIfUnchosen(period) }
        try trackSpeedWindows()
        settle(removesFacts: false)
        return .challenges
    }

    /// Chooses the challenges of a current period that has none stored, from the history before it, the local hour
    /// now and the streak before today; the choice is stored with the change.
    mutating func chooseIfUnchosen(_ period: ChallengeBook.Period) {
        guard progress.challenges.knowsNone(of: period), catalog.offersChallenges(of: period.kind) else { return }
        let streak = progress.accumulator.streak(today: today, settings: progress.settingsHistory)
        let choices = ChallengeSelection.choose(
            period.kind, user: evaluator.user, today: today, localHour: localNow.hour,
            accumulator: progress.accumulator, streakBeforeToday: streak.current(before: today),
            liveActivities: progress.liveActivities(catalog: catalog), candidates: catalog.challengeCandidates(for: period.kind))
        guard !choices.isEmpty else { return }
        let stored = choices.map { StoredChallenge(choice: $0, completedAt: nil) }
        progress.challenges.know(period, stored: stored)
        writes.challengesChosen += stored
    }
}
