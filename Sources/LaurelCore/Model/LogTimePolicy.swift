import Foundation

/// How far from now a log's `at` may lie: a little in the future (clocks differ), and back to the backfill
/// window so devices can sync what they logged offline.
public struct LogTimePolicy: Sendable, Equatable {
    public var futureTolerance: TimeInterval
    public var backfillWindow: TimeInterval

    public init(futureTolerance: TimeInterval = 5 * 60, backfillWindow: TimeInterval = 30 * 24 * 3600) {
        self.futureTolerance = futureTolerance
        self.backfillWindow = backfillWindow
    }

    public enum Problem: Sendable, Equatable {
        case inFuture
        case beforeBackfillWindow
    }

    public func problem(with at: Date, now: Date) -> Problem? {
        if at.timeIntervalSince(now) > futureTolerance { return .inFuture }
        if now.timeIntervalSince(at) > backfillWindow { return .beforeBackfillWindow }
        return nil
    }
}
