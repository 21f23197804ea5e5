import Foundation

/// Explains one of a user's achievements at a moment (`explain` of ACHIEVEMENT), from the figures the evaluator keeps
/// in ``UserProgress``: the measures at that moment, the current streaks and how long they hold.
public struct AchievementExplainer: Sendable {
    public let progress: UserProgress
    public let catalog: Catalog
    public let now: Date

    public init(progress: UserProgress, catalog: Catalog, now: Date) {
        self.progress = progress
        self.catalog = catalog
        self.now = now
    }

    public func explain(_ entry: UserAchievements.Entry) -> AchievementExplanation {
        let definition = entry.definition
        let (measure, deadline) = figure(of: definition.rule)
        let unlocked = progress.unlocks[definition.id] != nil
        let remaining = unlocked ? 0 : max(0, definition.target - measure)
        return AchievementExplanation(
            rule: definition.rule.kind.rawValue, measure: measure, target: definition.target, remaining: remaining,
            text: unlocked ? "Unlocked." : sentence(definition.rule, remaining: remaining, target: definition.target, unit: entry.unit),
            deadline: unlocked ? nil : deadline, blocked: blocked(entry, unlocked: unlocked))
    }

    /// The measure to reach (the current run for the streak kinds) and when it would fall back.
    private func figure(of rule: AchievementRule) -> (Int, Date?) {
        let today = progress.today(at: now)
        let settings = progress.settingsHistory
        switch rule {
        case .streak:
            let streak = progress.streak(at: now)
            let holds = streak.current > 0 ? progress.accumulator.streakHoldsThrough(settings: settings) : nil
            return (streak.current, holds.map { $0.next.start(in: progress.zone) })
        case .activityStreak(let activity):
            guard let walker = progress.accumulator.activities[activity]?.streak else { return (0, nil) }
            var ignored: [StreakEvent] = []
            let current = walker.state(today: today, settings: settings, events: &ignored).current
            let holds = current > 0 ? walker.holdsThrough(settings: settings) : nil
            return (current, holds.map { $0.next.start(in: progress.zone) })
        case .weeklyStreak:
            let weekly = progress.weeklyGoalStreak(at: now)
            guard weekly.current > 0 else { return (0, nil) }
            // A week met holds the run through the next week; one not met yet, through this one.
            let sunday = today.monday.adding(days: weekly.met ? 13 : 6)
            return (weekly.current, sunday.next.start(in: progress.zone))
        case .reminderStreak:
            let reminders = progress.reminderStreak(at: now)
            // The run falls when a pending reminder's window ends unanswered.
            let pending = progress.accumulator.reminders.reminders.first {
                !$0.answered && $0.windowEndsAt >= now && !settings.isVacation($0.day)
            }
            return (reminders.current, reminders.current > 0 ? pending?.windowEndsAt : nil)
        case .monthTotal(_, let month):
            // The month's total is gone when the month ends.
            let measure = progress.measures(at: now).measure(of: rule, level: progress.figures.highestLevel)
            return (measure, month == today.monthKey ? today.nextMonthStart.start(in: progress.zone) : nil)
        default:
            return (progress.measures(at: now).measure(of: rule, level: progress.figures.highestLevel), nil)
        }
    }

    private func blocked(_ entry: UserAchievements.Entry, unlocked: Bool) -> AchievementExplanation.Blocked? {
        // A comparative goal counts only when a week has ended: nothing logged can meet it now.
        if case .topPercent = entry.definition.rule { return unlocked ? nil : .notThisPeriod }
        guard let template = entry.template else { return nil }
        if !template.active { return template.inactiveReason == AchievementTemplate.activityDeleted ? .activityDeleted : .templateInactive }
        return progress.subscription.isPremium(at: now) ? nil : .premiumLapsed
    }

    private func name(of activity: String) -> String {
        catalog.builtinActivity(named: activity)?.name ?? progress.customActivity(activity)?.name ?? activity
    }

    private func sentence(_ rule: AchievementRule, remaining n: Int, target: Int, unit: String) -> String {
        func plural(_ count: Int, _ one: String, _ many: String) -> String { count == 1 ? "\(count) \(one)" : "\(count) \(many)" }
        func amount(_ activity: String) -> String { "\(n) more \(unit) of \(name(of: activity))" }
        switch rule {
        case .totalLogs: return "\(plural(n, "more log", "more logs")) of any activity"
        case .activityTotal(let activity): return "\(amount(activity)) in total"
        case .streak: return "\(plural(n, "more active day", "more active days")) in a row"
        case .weeklyStreak: return "\(plural(n, "more week", "more weeks")) in a row meeting your weekly goal"
        case .reminderStreak: return "\(plural(n, "more reminder", "more reminders")) answered in a row"
        case .activityStreak(let activity): return "\(plural(n, "more day", "more days")) in a row with \(name(of: activity))"
        case .bestDay(let activity): return "\(amount(activity)) than your best day, in one day (\(target) in all)"
        case .bestWeek(let activity): return "\(amount(activity)) than your best week, in one week (\(target) in all)"
        case .monthTotal(let activity, let month): return "\(amount(activity)) in \(AchievementTemplate.monthName(month))"
        case .comboDays(let parts):
            let combo = parts.map { "\($0.amount) \(name(of: $0.activityID))" }.joined(separator: " and ")
            return "\(plural(n, "more day", "more days")) with \(combo)"
        case .speed(let activity, let minutes): return "\(target) \(unit) of \(name(of: activity)) within \(minutes) minutes, \(n) more than your best"
        case .dayVariety: return "\(plural(target, "different activity", "different activities")) in one day, \(n) more than your best"
        case .distinctActivities(let set):
            let missing = set.filter { (progress.accumulator.activities[$0]?.logs ?? 0) == 0 }.map(name(of:)).sorted()
            return "Log \(missing.joined(separator: ", ")) once"
        case .logsBefore(let hour): return "Log anything before \(hour):00 local time"
        case .logsAfter(let hour): return "Log anything at or after \(hour):00 local time"
        case .perfectWeeks: return "\(plural(n, "more week", "more weeks")) with all 7 days active"
        case .busiestDay: return "\(plural(target, "log", "logs")) in one day, \(n) more than your busiest"
        case .lessons(let category): return "\(plural(n, "more lesson", "more lessons"))\(category.map { " in \($0)" } ?? "") to complete"
        case .events(let name): return "\(plural(n, "more \"\(name)\" event", "more \"\(name)\" events")) to report"
        case .level: return "\(plural(n, "more level", "more levels")) to reach level \(target)"
        case .topPercent(let goal):
            let board = switch goal.board {
            case .xp: "XP"
            case .logs: "logs"
            case .challenges: "challenges"
            case .activity(let activity): name(of: activity)
            }
            return "Finish a week in the top \(goal.percent)% of the \(board) board, with at least \(TopPercentRule.minimumBoard) users on it"
        }
    }
}
