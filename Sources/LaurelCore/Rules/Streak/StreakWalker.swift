/// The streak walk of the rules, one day at a time, as a small state that can be stored and resumed.
///
/// The walk covers every day from the first active day to the last active day, and then the days after it
/// up to yesterday; today itself never breaks anything (it is only "at risk"). Because the state at the
/// last active day does not depend on today, it can be kept and resumed when a newer active day arrives.
public struct StreakWalker: Hashable, Sendable {
    /// Freezes are earned every `freezeInterval` days of `current`, and at most `maximumFreezes` are held.
    public static let freezeInterval = 7
    public static let maximumFreezes = 2

    /// Whether this walk earns and spends freezes (the daily streak) or not (per-activity streaks).
    public let usesFreezes: Bool
    public internal(set) var current = 0
    public internal(set) var longest = 0
    public internal(set) var freezes = 0
    public internal(set) var lastActiveDay: LocalDay?

    public init(usesFreezes: Bool) {
        self.usesFreezes = usesFreezes
    }

    /// Walks the inactive days after the last active day and then counts `day` as active.
    /// - Parameters:
    ///   - day: a day later than `lastActiveDay`; an earlier or equal day is ignored (a backfill before
    ///     the last active day needs a walk from the start, see `StreakCalculator`).
    ///   - settings: the rest-day and vacation history.
    ///   - events: receives what happened on each walked day.
    public mutating func recordActive(_ day: LocalDay, settings: StreakSettingsHistory, events: inout [StreakEvent]) {
        if let last = lastActiveDay {
            guard day > last else { return }
            walkInactive(from: last.next, before: day, settings: settings, events: &events)
        }
        current += 1
        longest = max(longest, current)
        events.append(StreakEvent(kind: .extended, day: day))
        if usesFreezes, current % StreakWalker.freezeInterval == 0, freezes < StreakWalker.maximumFreezes {
            freezes += 1
            events.append(StreakEvent(kind: .freezeEarned, day: day))
        }
        lastActiveDay = day
    }

    /// The state on `today`: the days after the last active day up to yesterday are walked as inactive.
    /// - Parameters:
    ///   - today: the user's local date now.
    ///   - settings: the rest-day and vacation history.
    ///   - events: receives what happened on the walked days.
    public func state(today: LocalDay, settings: StreakSettingsHistory, events: inout [StreakEvent]) -> StreakState {
        guard let last = lastActiveDay else { return StreakState() }
        var tail = self
        tail.walkInactive(from: last.next, before: today, settings: settings, events: &events)
        let atRisk = today > last && tail.current > 0 && !settings.excuses(today)
        return StreakState(
            current: tail.current, longest: tail.longest, freezes: tail.freezes, atRisk: atRisk, lastActiveDay: last
        )
    }

    /// The last day through which the streak keeps `current` if no day after the last active day becomes active:
    /// the first ordinary inactive day with no freeze left to cover it (on that day the streak is only at risk; on
    /// the next it is 0). Rest days and vacation days are skipped, as the settings in force on each day say. Nil
    /// when nothing can break it: there is no streak, or a vacation is on with no later change of settings.
    /// - Parameter settings: the rest-day and vacation history.
    public func holdsThrough(settings: StreakSettingsHistory) -> LocalDay? {
        guard let last = lastActiveDay, current > 0 else { return nil }
        // After the latest change the settings stay as they are, so a vacation then lasts for good; a rest day
        // excuses one day a week at most, so the walk ends within a few weeks.
        let settled = settings.latestChangeDay ?? last
        var freezes = usesFreezes ? self.freezes : 0
        var day = last.next
        while true {
            if !settings.excuses(day) {
                guard freezes > 0 else { return day }
                freezes -= 1
            } else if day >= settled, settings.isVacation(day) {
                return nil
            }
            day = day.next
        }
    }

    private mutating func walkInactive(
        from start: LocalDay, before end: LocalDay, settings: StreakSettingsHistory, events: inout [StreakEvent]
    ) {
        var day = start
        // Once the streak is 0 no freeze is held either (freezes are earned only while current > 0 and
        // spent before a break), so the rest of the gap changes nothing and is skipped.
        while day < end, current > 0 {
            if !settings.excuses(day) {
                if usesFreezes, freezes > 0 {
                    freezes -= 1
                    events.append(StreakEvent(kind: .freezeUsed, day: day))
                } else {
                    current = 0
                    events.append(StreakEvent(kind: .broken, day: day))
                }
            }
            day = day.next
        }
    }
}
