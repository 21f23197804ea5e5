import Foundation
import LaurelJSON

/// The running state as a snapshot stores it: compact JSON written and read field by field. Days are day numbers,
/// instants the seconds `Date` holds, and each table one flat array of rows, so that a year of active days is a few
/// thousand numbers. (Through `Codable` and Foundation's JSON coders, reading a year-old user's snapshot took 31
/// million instructions at every session start and writing it 18 million at every session end: a hundred LOGs' worth.)
///
/// Every stored property of the state is written here: `AccumulatorSnapshotTests` fails when one is added without it.
extension ProgressAccumulator {
    /// Writes the state as one JSON object.
    public func writeSnapshot(into json: inout JSONWriter) {
        json.beginObject()
        json.field("total_logs", totalLogs)
        json.key("active_days")
        json.beginArray()
        for day in activeDays { json.dayNumber(day) }
        json.endArray()
        // [activity, minutes, best] for each window tracked.
        json.key("speeds")
        json.beginArray()
        for window in speedWindows.sorted(by: { ($0.activity, $0.minutes) < ($1.activity, $1.minutes) }) {
            json.string(window.activity)
            json.int(window.minutes)
            json.optionalInt(speeds[window])
        }
        json.endArray()
        json.key("activities")
        json.beginObject()
        for (id, tally) in activities {
            json.key(runtime: id)
            tally.writeSnapshot(into: &json)
        }
        json.endObject()
        // [day, logs, amount, activities, earliest hour, lessons] for each day with facts.
        json.key("days")
        json.beginArray()
        days.forEach { day, tally in
            json.dayNumber(day)
            json.int(tally.logs)
            json.int(tally.amount)
            json.int(tally.activities)
            json.optionalInt(tally.earliestLocalHour)
            json.int(tally.lessons)
        }
        json.endArray()
        json.key("active_days_by_week")
        Self.write(activeDaysByWeek, into: &json)
        json.field("perfect_weeks", perfectWeeks)
        json.field("busiest_day", busiestDay)
        json.field("day_variety", dayVariety)
        json.key("earliest_hour")
        json.optionalInt(earliestLocalHour)
        json.key("latest_hour")
        json.optionalInt(latestLocalHour)
        json.key("completed_lessons")
        json.beginObject()
        for (lesson, category) in completedLessons { json.key(runtime: lesson); json.string(category) }
        json.endObject()
        json.key("lessons_by_category")
        Self.write(lessonsByCategory, into: &json)
        json.key("events")
        Self.write(events, into: &json)
        // [[[activity, amount], ...], [day, ...]] for each combo tracked.
        json.key("combos")
        json.beginArray()
        for (parts, comboDays) in combos {
            json.beginArray()
            json.beginArray()
            for part in parts {
                json.beginArray()
                json.string(part.activityID)
                json.int(part.amount)
                json.endArray()
            }
            json.endArray()
            json.beginArray()
            for day in comboDays.sorted() { json.dayNumber(day) }
            json.endArray()
            json.endArray()
        }
        json.endArray()
        json.key("streak")
        streak.writeSnapshot(into: &json)
        json.key("weekly_goal")
        json.beginArray()
        json.int(weeklyGoal.current)
        json.int(weeklyGoal.longest)
        json.dayNumber(weeklyGoal.openMonday)
        json.endArray()
        json.key("reminders")
        reminders.writeSnapshot(into: &json)
        json.endObject()
    }

    /// The state a snapshot object holds (as ``writeSnapshot(into:)`` writes it); nil when it is not one.
    public init?(snapshot value: JSONValue) {
        do throws(SnapshotFields.Malformed) {
            let fields = try SnapshotFields(value)
            self.init()
            totalLogs = try fields.int("total_logs")
            activeDays = try fields.array("active_days").map { value throws(SnapshotFields.Malformed) in try SnapshotFields.day(value) }
            for row in try SnapshotFields.rows(fields.value("speeds"), width: 3) {
                let window = SpeedWindow(activity: try SnapshotFields.string(row[row.startIndex]), minutes: try SnapshotFields.int(row[row.startIndex + 1]))
                speedWindows.insert(window)
                speeds[window] = try SnapshotFields.optionalInt(row[row.startIndex + 2])
            }
            // Each day goes to the part of its table that the last active day puts it in (`DayTable`).
            let cutoffs = tableCutoffs
            activities = try fields.table("activities") { value throws(SnapshotFields.Malformed) in try ActivityTally(snapshot: value, cutoffs: cutoffs) }
            for row in try SnapshotFields.rows(fields.value("days"), width: 6) {
                let start = row.startIndex
                let tally = DayTally(
                    logs: try SnapshotFields.int(row[start + 1]), amount: try SnapshotFields.int(row[start + 2]),
                    activities: try SnapshotFields.int(row[start + 3]), earliestLocalHour: try SnapshotFields.optionalInt(row[start + 4]),
                    lessons: try SnapshotFields.int(row[start + 5]))
                days.update(try SnapshotFields.day(row[start]), cutoffs: cutoffs, initial: tally) { _ in }
            }
            activeDaysByWeek = try Self.weeks(fields.value("active_days_by_week"))
            perfectWeeks = try fields.int("perfect_weeks")
            busiestDay = try fields.int("busiest_day")
            dayVariety = try fields.int("day_variety")
            earliestLocalHour = try fields.optionalInt("earliest_hour")
            latestLocalHour = try fields.optionalInt("latest_hour")
            completedLessons = try fields.table("completed_lessons") { value throws(SnapshotFields.Malformed) in try SnapshotFields.string(value) }
            lessonsByCategory = try fields.table("lessons_by_category") { value throws(SnapshotFields.Malformed) in try SnapshotFields.int(value) }
            events = try fields.table("events") { value throws(SnapshotFields.Malformed) in try SnapshotFields.int(value) }
            for combo in try fields.array("combos") {
                let pair = try SnapshotFields.array(combo)
                guard pair.count == 2 else { throw SnapshotFields.Malformed() }
                let parts = try SnapshotFields.array(pair[0]).map { part throws(SnapshotFields.Malformed) in
                    let values = try SnapshotFields.array(part)
                    guard values.count == 2 else { throw SnapshotFields.Malformed() }
                    return ComboPart(activityID: try SnapshotFields.string(values[0]), amount: try SnapshotFields.int(values[1]))
                }
                combos[parts] = Set(try SnapshotFields.array(pair[1]).map { day throws(SnapshotFields.Malformed) in try SnapshotFields.day(day) })
            }
            streak = try StreakWalker(snapshot: fields.value("streak"))
            let weekly = try fields.array("weekly_goal")
            guard weekly.count == 3 else { throw SnapshotFields.Malformed() }
            weeklyGoal = WeeklyGoalWalker()
            weeklyGoal.current = try SnapshotFields.int(weekly[0])
            weeklyGoal.longest = try SnapshotFields.int(weekly[1])
            weeklyGoal.openMonday = try SnapshotFields.optionalDay(weekly[2])
            reminders = try ReminderTally(snapshot: fields.value("reminders"))
        } catch {
            return nil
        }
    }

    /// A week-keyed table as `[year, week, value, ...]`.
    static func write(_ weeks: [ISOWeek: Int], into json: inout JSONWriter) {
        json.beginArray()
        for (week, value) in weeks { write(week, value, into: &json) }
        json.endArray()
    }

    /// The same for a week table: `[year, week, value, ...]`.
    static func write(_ weeks: WeekTable<Int>, into json: inout JSONWriter) {
        json.beginArray()
        weeks.forEach { week, value in write(week, value, into: &json) }
        json.endArray()
    }

    private static func write(_ week: ISOWeek, _ value: Int, into json: inout JSONWriter) {
        json.int(week.year)
        json.int(week.week)
        json.int(value)
    }

    static func weeks(_ value: JSONValue) throws(SnapshotFields.Malformed) -> [ISOWeek: Int] {
        var weeks: [ISOWeek: Int] = [:]
        for row in try SnapshotFields.rows(value, width: 3) {
            let start = row.startIndex
            weeks[ISOWeek(year: try SnapshotFields.int(row[start]), week: try SnapshotFields.int(row[start + 1]))] = try SnapshotFields.int(row[start + 2])
        }
        return weeks
    }

    /// A string-keyed count table as an object.
    static func write(_ counts: [String: Int], into json: inout JSONWriter) {
        json.beginObject()
        for (name, count) in counts {
            json.key(runtime: name)
            json.int(count)
        }
        json.endObject()
    }
}
