import Foundation
import LaurelCore

/// What one write added to a user's progress, announced with its commit to every instance: a session elsewhere that
/// holds the version right before adds it to what it holds, as it adds what a catch-up reads, instead of reading
/// what was committed since. A user whose devices are connected to two instances then costs no read per write.
///
/// Only a change sessions may add to what they hold is announced (new facts, unlocks, challenges, figures): a write
/// that reloads sessions or recomputed the running state is not (``init(writes:decidedAt:progress:latestScores:)``).
///
/// An object that never changes: every commit and every event about a commit holds an optional one, a reference
/// there rather than all of its fields inline (nearly always it is nil).
public final class AnnouncedChange: Sendable, Equatable {
    /// The new fact, as a catch-up would read it.
    public enum Fact: Sendable, Equatable {
        case log(LoggedFact)
        case lesson(LessonCompletion)
        case event(ReportedEvent)
    }

    public let fact: Fact?
    /// The seq the store gave the new fact: known once committed, so the store fills it in when it hears the
    /// announcement (``with(factSeq:)``).
    public let factSeq: Int64?
    /// Achievements unlocked by the write, and when.
    public let unlocked: [String: Date]
    /// Every stored challenge of the periods the write chose or completed challenges in, as they are after it.
    public let challenges: [ChallengeBook.Period: [StoredChallenge]]
    public let figures: ProgressFigures
    public let allowance: LogAllowance
    public let latestScores: LatestDayScores

    public init(
        fact: Fact?, factSeq: Int64? = nil, unlocked: [String: Date], challenges: [ChallengeBook.Period: [StoredChallenge]],
        figures: ProgressFigures, allowance: LogAllowance, latestScores: LatestDayScores
    ) {
        self.fact = fact
        self.factSeq = factSeq
        self.unlocked = unlocked
        self.challenges = challenges
        self.figures = figures
        self.allowance = allowance
        self.latestScores = latestScores
    }

    /// The same change, with the seq the store gave its fact.
    public func with(factSeq: Int64?) -> AnnouncedChange {
        AnnouncedChange(
            fact: fact, factSeq: factSeq, unlocked: unlocked, challenges: challenges, figures: figures, allowance: allowance,
            latestScores: latestScores)
    }

    public static func == (lhs: AnnouncedChange, rhs: AnnouncedChange) -> Bool {
        lhs.fact == rhs.fact && lhs.factSeq == rhs.factSeq && lhs.unlocked == rhs.unlocked && lhs.challenges == rhs.challenges
            && lhs.figures == rhs.figures && lhs.allowance == rhs.allowance && lhs.latestScores == rhs.latestScores
    }

    /// The change of a write that stores `writes`, decided at `decidedAt`, leaving `progress` and the latest day's
    /// scores `latestScores`; nil when sessions elsewhere load the user again rather than add it.
    public convenience init?(writes: ProgressWrites, decidedAt: Date, progress: UserProgress, latestScores: LatestDayScores) {
        guard !writes.reloadsSessions, !writes.rebuilt else { return nil }
        let fact: Fact?
        if let new = writes.fact {
            switch new.content {
            case .log(let activity, let amount, let localHour, _):
                fact = .log(LoggedFact(id: new.id, activity: activity, amount: amount, at: new.at, day: new.day, localHour: localHour))
            case .lesson(let lesson):
                fact = .lesson(LessonCompletion(lesson: lesson.id, category: lesson.category, day: new.day))
            case .event(let name):
                fact = .event(ReportedEvent(name: name, at: new.at))
            case .reminder:
                return nil
            }
        } else {
            fact = nil
        }
        var unlocked: [String: Date] = [:]
        for id in writes.unlocks { unlocked[id] = progress.unlocks[id] ?? decidedAt }
        var challenges: [ChallengeBook.Period: [StoredChallenge]] = [:]
        let touched = writes.challengesChosen.map(\.choice) + writes.challengesCompleted
        for choice in touched {
            let period = ChallengeBook.Period(choice.period, start: choice.periodStart)
            guard let stored = progress.challenges.challenges(of: period) else { return nil }
            challenges[period] = stored
        }
        self.init(
            fact: fact, unlocked: unlocked, challenges: challenges, figures: progress.figures, allowance: progress.allowance,
            latestScores: latestScores)
    }
}
