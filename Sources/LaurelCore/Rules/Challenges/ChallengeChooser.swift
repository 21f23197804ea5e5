/// Chooses a user's challenges for one period from the catalog's pool (rules.md, "Challenges").
///
/// The choice is a function of the user, the period, its start, the history before it and the local hour at
/// choosing, so it can be re-derived; it is stored when first made and never changes for the period.
public enum ChallengeChooser {
    /// Up to three challenges of different kinds for a day, one for a week; fewer only when the pool offers
    /// fewer kinds the user can do. Never returns an impossible challenge.
    ///
    /// - Parameter localHourNow: the user's local hour at choosing, or nil when choosing for a period that is
    ///   not the current one (then no `before_hour` is offered, since whether it is still possible is unknown).
    public static func choose(
        user: UserID, period: ChallengePeriod, start: LocalDay, pool: [ChallengePoolEntry],
        history: ChallengeHistory, localHourNow: Int?
    ) -> [ChallengeChoice] {
        choose(
            user: user, period: period, start: start, candidates: candidates(in: pool, for: period), history: history,
            localHourNow: localHourNow)
    }

    /// The same choice from the period's ``candidates(in:for:)``, which a catalog works out once (every user's first
    /// fact of a day chooses, and sorting the pool each time cost a quarter of choosing).
    public static func choose(
        user: UserID, period: ChallengePeriod, start: LocalDay, candidates: [ChallengePoolEntry],
        history: ChallengeHistory, localHourNow: Int?
    ) -> [ChallengeChoice] {
        var dice = ChallengeDice(user: user, period: period, start: start)
        let live = history.liveActivities.contains(where: \.deleted) ? history.liveActivities.filter { !$0.deleted } : history.liveActivities
        let drawn = dice.shuffled(candidates).filter { isPossible($0, history: history, live: live, localHourNow: localHourNow) }
        return drawn.prefix(period.challengeCount).enumerated().map { slot, entry in
            let activity = entry.kind == .amountToday ? amountActivity(history: history, live: live, dice: &dice) : entry.activity
            let target = target(of: entry, activity: activity, history: history, live: live)
            let activityName = activity.flatMap { id in live.first { $0.id == id }?.name } ?? ""
            return ChallengeChoice(
                slot: slot, kind: entry.kind, period: period, periodStart: start, target: target, xp: entry.xp,
                title: render(entry.title, target: target, activityName: activityName), activity: activity,
                hour: entry.kind == .beforeHour ? entry.hour : nil)
        }
    }

    /// What a period's draw shuffles: the pool's first entry of each kind of the period, in a fixed kind order.
    /// Shuffling the whole pool in that order (not catalog order, not only the possible kinds) keeps a user's draw
    /// the same when the catalog is reordered or one kind is ruled out.
    public static func candidates(in pool: [ChallengePoolEntry], for period: ChallengePeriod) -> [ChallengePoolEntry] {
        distinctKinds(pool.filter { $0.kind.period == period }).sorted { kindOrder($0.kind) < kindOrder($1.kind) }
    }

    /// The title with `{n}` and `{activity}` filled in (what is filled in is not looked at again).
    public static func render(_ title: String, target: Int, activityName: String) -> String {
        // One scan of the title's UTF-8 by hand: the standard library's generic `replacing` cost three times the rest
        // of choosing a day's challenges (which every user's first LOG of a day does), and a scan of its characters
        // (grapheme breaking at every step) some 17,000 instructions a title.
        guard title.utf8.contains(UInt8(ascii: "{")) else { return title }
        var title = title
        return title.withUTF8 { bytes in
            var rendered: [UInt8] = []
            rendered.reserveCapacity(bytes.count + activityName.utf8.count + 8)
            // The text between placeholders is copied a stretch at a time, not a byte at a time.
            var copied = 0
            var index = 0
            while let brace = bytes[index...].firstIndex(of: UInt8(ascii: "{")) {
                let filled: (placeholder: StaticString, text: String)
                if Self.placeholder("{n}", at: brace, in: bytes) {
                    filled = ("{n}", String(target))
                } else if Self.placeholder("{activity}", at: brace, in: bytes) {
                    filled = ("{activity}", activityName)
                } else {
                    index = brace + 1
                    continue
                }
                rendered.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied..<brace]))
                rendered.append(contentsOf: filled.text.utf8)
                copied = brace + filled.placeholder.utf8CodeUnitCount
                index = copied
            }
            rendered.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied...]))
            return String(decoding: rendered, as: UTF8.self)
        }
    }

    /// Whether `bytes` holds the ASCII `name` from `index` on.
    private static func placeholder(_ name: StaticString, at index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count - index >= name.utf8CodeUnitCount else { return false }
        for offset in 0..<name.utf8CodeUnitCount where bytes[index + offset] != name.utf8Start[offset] { return false }
        return true
    }

    static func isPossible(_ entry: ChallengePoolEntry, history: ChallengeHistory, live: [Activity], localHourNow: Int?) -> Bool {
        if let named = entry.activity, !live.contains(where: { $0.id == named }) { return false }
        switch entry.kind {
        case .beforeHour:
            guard let localHourNow, let hour = entry.hour else { return false }
            return localHourNow < hour
        case .keepStreak: return history.currentStreak >= 1
        case .amountToday: return !live.isEmpty
        case .distinctToday: return live.count >= 2
        case .logsToday, .sessionsToday, .minutesToday, .lessonToday, .activeDaysWeek: return true
        }
    }

    /// The activity an `amount_today` names: one the user logged recently if any is still live, else any live one.
    private static func amountActivity(history: ChallengeHistory, live: [Activity], dice: inout ChallengeDice) -> String {
        let recent = Set(history.recentActivities)
        let preferred = live.filter { recent.contains($0.id) }
        let choices = preferred.isEmpty ? live : preferred
        return choices[dice.index(below: choices.count)].id
    }

    private static func target(of entry: ChallengePoolEntry, activity: String?, history: ChallengeHistory, live: [Activity]) -> Int {
        let days = history.activeDays
        switch entry.kind {
        case .activeDaysWeek:
            return ChallengeTarget.weekly(history: history, entry: entry)
        case .beforeHour, .keepStreak, .lessonToday:
            return 1
        case .logsToday, .sessionsToday:
            let figures = days.map { day in activity.map { day.logsByActivity[$0] ?? 0 } ?? day.logs }
            return ChallengeTarget.daily(figures: figures, entry: entry)
        case .minutesToday:
            let figures = days.map { day in activity.map { day.amounts[$0] ?? 0 } ?? day.amounts.values.reduce(0, +) }
            return ChallengeTarget.daily(figures: figures, entry: entry)
        case .amountToday:
            // Only the days the activity was logged: its own level, not diluted by days spent on others.
            let figures = days.compactMap { day in activity.flatMap { day.amounts[$0] }.flatMap { $0 > 0 ? $0 : nil } }
            return ChallengeTarget.daily(figures: figures, entry: entry)
        case .distinctToday:
            let figures = days.map { day in day.amounts.values.count(where: { $0 > 0 }) }
            // More distinct activities than the user has could never be logged.
            return Swift.min(ChallengeTarget.daily(figures: figures, entry: entry), live.count)
        }
    }

    /// The first entry of each kind: a pool offers a kind once.
    private static func distinctKinds(_ entries: [ChallengePoolEntry]) -> [ChallengePoolEntry] {
        var seen: Set<ChallengeKind> = []
        return entries.filter { seen.insert($0.kind).inserted }
    }

    private static func kindOrder(_ kind: ChallengeKind) -> Int {
        ChallengeKind.allCases.firstIndex(of: kind) ?? 0
    }
}
