import Foundation
import LaurelJSON

// The parts of the running state that a snapshot stores inside it (see ProgressAccumulator+Snapshot.swift).

extension ActivityTally {
    /// `{"total", "logs", "best_day", "best_week", "daily": [day, amount, logs, ...], "weekly": [year, week, amount,
    /// ...], "monthly": {month number: amount}, "streak"}`.
    func writeSnapshot(into json: inout JSONWriter) {
        json.beginObject()
        json.field("total", total)
        json.field("logs", logs)
        json.field("best_day", bestDay)
        json.field("best_week", bestWeek)
        json.key("daily")
        json.beginArray()
        daily.forEach { day, figures in
            json.dayNumber(day)
            json.int(figures.amount)
            json.int(figures.logs)
        }
        json.endArray()
        json.key("weekly")
        ProgressAccumulator.write(weeklyAmounts, into: &json)
        json.key("monthly")
        json.beginArray()
        for (month, amount) in monthlyAmounts {
            json.int(month)
            json.int(amount)
        }
        json.endArray()
        json.key("streak")
        streak.writeSnapshot(into: &json)
        json.endObject()
    }

    init(snapshot value: JSONValue, cutoffs: TableCutoffs<LocalDay>) throws(SnapshotFields.Malformed) {
        let fields = try SnapshotFields(value)
        self.init()
        total = try fields.int("total")
        logs = try fields.int("logs")
        bestDay = try fields.int("best_day")
        bestWeek = try fields.int("best_week")
        for row in try SnapshotFields.rows(fields.value("daily"), width: 3) {
            let start = row.startIndex
            let figures = ActivityDay(amount: try SnapshotFields.int(row[start + 1]), logs: try SnapshotFields.int(row[start + 2]))
            daily.update(try SnapshotFields.day(row[start]), cutoffs: cutoffs, initial: figures) { _ in }
        }
        for (week, amount) in try ProgressAccumulator.weeks(fields.value("weekly")) {
            weeklyAmounts.update(week, cutoffs: cutoffs.weeks, initial: amount) { _ in }
        }
        for row in try SnapshotFields.rows(fields.value("monthly"), width: 2) {
            monthlyAmounts[try SnapshotFields.int(row[row.startIndex])] = try SnapshotFields.int(row[row.startIndex + 1])
        }
        streak = try StreakWalker(snapshot: fields.value("streak"))
    }
}

extension StreakWalker {
    /// `[uses freezes, current, longest, freezes, last active day]`.
    func writeSnapshot(into json: inout JSONWriter) {
        json.beginArray()
        json.bool(usesFreezes)
        json.int(current)
        json.int(longest)
        json.int(freezes)
        json.dayNumber(lastActiveDay)
        json.endArray()
    }

    init(snapshot value: JSONValue) throws(SnapshotFields.Malformed) {
        let values = try SnapshotFields.array(value)
        guard values.count == 5 else { throw SnapshotFields.Malformed() }
        self.init(usesFreezes: try SnapshotFields.bool(values[0]))
        current = try SnapshotFields.int(values[1])
        longest = try SnapshotFields.int(values[2])
        freezes = try SnapshotFields.int(values[3])
        lastActiveDay = try SnapshotFields.optionalDay(values[4])
    }
}

extension ReminderTally {
    /// `{"facts": [[id, at, day, window minutes, answered], ...], "per_day": [day, count, ...], "settled": [count,
    /// current, longest, by], "settled_vacations": [day, on vacation, ...], "latest"}`.
    func writeSnapshot(into json: inout JSONWriter) {
        json.beginObject()
        json.key("facts")
        json.beginArray()
        for reminder in reminders {
            json.beginArray()
            json.string(reminder.id)
            json.date(reminder.at)
            json.dayNumber(reminder.day)
            json.int(reminder.windowMinutes)
            json.bool(reminder.answered)
            json.endArray()
        }
        json.endArray()
        json.key("per_day")
        json.beginArray()
        for (day, count) in perDay {
            json.dayNumber(day)
            json.int(count)
        }
        json.endArray()
        json.key("settled")
        json.beginArray()
        json.int(settledCount)
        json.int(settledCurrent)
        json.int(settledLongest)
        json.date(settledBy)
        json.endArray()
        json.key("settled_vacations")
        json.beginArray()
        for change in settledVacations {
            json.dayNumber(change.effective)
            json.bool(change.value)
        }
        json.endArray()
        json.key("latest")
        json.date(latest)
        json.endObject()
    }

    init(snapshot value: JSONValue) throws(SnapshotFields.Malformed) {
        let fields = try SnapshotFields(value)
        self.init()
        reminders = try fields.array("facts").map { fact throws(SnapshotFields.Malformed) in
            let values = try SnapshotFields.array(fact)
            guard values.count == 5 else { throw SnapshotFields.Malformed() }
            return ReminderFact(
                id: try SnapshotFields.string(values[0]), at: try SnapshotFields.date(values[1]), day: try SnapshotFields.day(values[2]),
                windowMinutes: try SnapshotFields.int(values[3]), answered: try SnapshotFields.bool(values[4]))
        }
        for row in try SnapshotFields.rows(fields.value("per_day"), width: 2) {
            perDay[try SnapshotFields.day(row[row.startIndex])] = try SnapshotFields.int(row[row.startIndex + 1])
        }
        let settled = try fields.array("settled")
        guard settled.count == 4 else { throw SnapshotFields.Malformed() }
        settledCount = try SnapshotFields.int(settled[0])
        settledCurrent = try SnapshotFields.int(settled[1])
        settledLongest = try SnapshotFields.int(settled[2])
        settledBy = try SnapshotFields.date(settled[3])
        settledVacations = try SnapshotFields.rows(fields.value("settled_vacations"), width: 2).map { row throws(SnapshotFields.Malformed) in
            DatedSetting(effective: try SnapshotFields.day(row[row.startIndex]), value: try SnapshotFields.bool(row[row.startIndex + 1]))
        }
        latest = try fields.date("latest")
    }
}
