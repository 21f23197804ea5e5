/// An (activity, window) pair a `speed` rule asks about. Speed is the one measure that needs the logs
/// themselves rather than running sums, so only the windows some definition uses are tracked.
public struct SpeedWindow: Hashable, Sendable, Codable {
    public var activity: String
    /// 1...1440.
    public var minutes: Int

    public init(activity: String, minutes: Int) {
        self.activity = activity
        self.minutes = minutes
    }

    /// The windows the `speed` rules among `definitions` use.
    public static func required(by definitions: some Sequence<AchievementDefinition>) -> Set<SpeedWindow> {
        var windows: Set<SpeedWindow> = []
        for definition in definitions {
            if case .speed(let activity, let minutes) = definition.rule {
                windows.insert(SpeedWindow(activity: activity, minutes: minutes))
            }
        }
        return windows
    }

    var milliseconds: Int64 { Int64(minutes) * 60_000 }

    /// The largest sum of `amount` of logs of this activity whose `at` all lie in one closed interval of
    /// `minutes` minutes.
    /// - Parameter logs: logs of any activities; only this window's activity counts.
    public func best(in logs: some Sequence<LoggedFact>) -> Int {
        let points = logs.filter { $0.activity == activity }
            .map { (time: $0.millisecondsSince1970, amount: $0.amount) }
            .sorted { $0.time < $1.time }
        var best = 0
        var sum = 0
        var end = 0
        for start in points.indices {
            while end < points.count, points[end].time - points[start].time <= milliseconds {
                sum += points[end].amount
                end += 1
            }
            best = max(best, sum)
            sum -= points[start].amount
        }
        return best
    }

    /// The largest sum over the intervals that contain `log`, which is all that can grow when `log` is added.
    /// - Parameters:
    ///   - log: the new log.
    ///   - neighbours: the live logs of the activity whose `at` lies within `minutes` before or after the
    ///     log's `at`; more logs do no harm, and the log itself may be among them (matched by id).
    public func bestContaining(_ log: LoggedFact, neighbours: some Sequence<LoggedFact>) -> Int {
        guard log.activity == activity else { return 0 }
        let time = log.millisecondsSince1970
        var points = [(time: time, amount: log.amount)]
        for neighbour in neighbours where neighbour.activity == activity && neighbour.id != log.id {
            let neighbourTime = neighbour.millisecondsSince1970
            if abs(neighbourTime - time) <= milliseconds {
                points.append((neighbourTime, neighbour.amount))
            }
        }
        points.sort { $0.time < $1.time }
        // An interval holding the log can always be shifted right to start at its first log, which lies
        // between `time - window` and `time`; so those starts are the only candidates.
        var best = 0
        for start in points where start.time <= time {
            let sum = points.lazy.filter { $0.time >= start.time && $0.time - start.time <= milliseconds }
                .reduce(0) { $0 + $1.amount }
            best = max(best, sum)
        }
        return best
    }
}
