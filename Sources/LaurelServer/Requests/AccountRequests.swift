import Foundation
import LaurelCore
import LaurelJSON
import LaurelProtocol
import LaurelStore

/// SETTINGS, PROFILE and NOTIFICATIONS: reading and adjusting the user's own account.
enum AccountRequests {
    /// A SETTINGS change: nil leaves a field as it is; `restDay` is doubly optional because `null` clears it.
    struct SettingsChange: Sendable {
        var timeZone: String?
        var restDay: Weekday??
        var vacation: Bool?

        var isEmpty: Bool { timeZone == nil && restDay == nil && vacation == nil }
    }

    static func settings(_ change: SettingsChange, in context: RequestContext) async throws -> RequestOutcome {
        if let zone = change.timeZone, TimeZone(identifier: zone) == nil {
            throw ProtocolError.invalidArgument(field: "time_zone", message: "\"\(zone)\" is not an IANA time zone")
        }
        let settings: UserSettings
        if change.isEmpty {
            settings = try await context.read { try $0.currentSettings() }
        } else {
            settings = try await context.write { records in
                let current = try records.currentSettings()
                var next = current
                if let zone = change.timeZone { next.timeZone = zone }
                if let restDay = change.restDay { next.restDay = restDay }
                if let vacation = change.vacation { next.vacation = vacation }
                if next != current { try records.appendSettings(next) }
                return next
            }
        }
        return RequestOutcome(SettingsRendering.json(settings))
    }

    static func profile(in context: RequestContext) async throws -> RequestOutcome {
        let user = context.user
        let value = try await context.read { records -> JSONValue in
            let progress = try records.progress()
            let totals = try records.logTotals()
            let subscription = try records.subscription()
            var byActivity = JSONObject()
            for (activity, amount) in totals.amountByActivity.sorted(by: { $0.key < $1.key }) { byActivity[activity] = .int(amount) }
            return [
                "user": .string(user.name), "tier": .string(subscription.tier), "xp": .int(progress.xp),
                "level": .int(progress.level), "xp_to_next_level": .int(LevelCurve.xpToNextLevel(forXP: progress.xp)),
                "streak": StreakRendering.json(progress),
                "totals": ["logs": .int(totals.logs), "active_days": .int(totals.activeDays), "by_activity": .object(byActivity)],
                "unlocked": 0,
            ]
        }
        return RequestOutcome(value)
    }

    static func notifications(after: Int64, limit: Int, in context: RequestContext) async throws -> RequestOutcome {
        let value = try await context.read { records -> JSONValue in
            let pushes = try records.pushes(after: after, limit: limit)
            return [
                "notifications": .array(pushes.map { push in
                    ["seq": .int(Int(push.seq)), "kind": .string(push.kind), "at": .string(Timestamp.format(push.at)), "data": .object(push.data)]
                }),
                "last_seq": .int(Int(try records.lastPushSeq())),
            ]
        }
        return RequestOutcome(value)
    }
}

enum SettingsRendering {
    static func json(_ settings: UserSettings) -> JSONValue {
        [
            "time_zone": .string(settings.timeZone), "rest_day": settings.restDay.map { .string($0.name) } ?? .null,
            "vacation": .bool(settings.vacation),
        ]
    }
}
