import Foundation
import LaurelCore
import LaurelJSON
import LaurelProtocol
import LaurelStore

/// SETTINGS, PROFILE and NOTIFICATIONS: reading and adjusting the user's own account.
enum AccountRequests {
    static func settings(_ change: SettingsRequest, in context: RequestContext) async throws -> RequestOutcome {
        if let zone = change.timeZone, TimeZone(identifier: zone) == nil {
            throw ProtocolError.invalidArgument(field: "time_zone", message: "\"\(zone)\" is not an IANA time zone")
        }
        if change.isReadOnly {
            return RequestOutcome(SettingsRendering.json(try await context.sessionProgress(now: Date()).settings))
        }
        let engine = context.engine
        let (settings, pushes) = try await context.transaction { records -> (UserSettings, [StoredPush]) in
            let current = try records.currentSettings()
            var next = current
            if let zone = change.timeZone { next.timeZone = zone }
            if case .set(let restDay) = change.restDay { next.restDay = restDay }
            if let vacation = change.vacation { next.vacation = vacation }
            guard next != current else { return (current, []) }
            try records.appendSettings(next)
            // A rest day or vacation counts from the day it was set, in the zone in force now.
            let now = Date()
            let today = LocalDay(of: now, in: TimeZone(identifier: next.timeZone) ?? .gmt)
            return (next, try engine.evaluate(.settingsChanged(effective: today), in: records, now: now).pushes)
        }
        return RequestOutcome(SettingsRendering.json(settings), pushes: pushes)
    }

    /// From the session's state when it holds a current one (no database round trip).
    static func profile(in context: RequestContext) async throws -> RequestOutcome {
        let now = Date()
        let progress = try await context.sessionProgress(now: now)
        let snapshot = progress.snapshot(now: now)
        var byActivity = JSONObject()
        for (activity, measures) in snapshot.measures.activities.sorted(by: { $0.key < $1.key }) where measures.total > 0 {
            byActivity[activity] = .int(measures.total)
        }
        return RequestOutcome([
            "user": .string(context.user.name), "tier": .string(progress.subscription.tier), "xp": .int(snapshot.xp),
            "level": .int(snapshot.level), "xp_to_next_level": .int(LevelCurve.xpToNextLevel(forXP: snapshot.xp)),
            "streak": StreakRendering.json(snapshot.streak),
            "totals": [
                "logs": .int(snapshot.measures.totalLogs), "active_days": .int(snapshot.measures.activeDays),
                "by_activity": .object(byActivity),
            ],
            "unlocked": .int(snapshot.unlocksWorthXP.count),
        ])
    }

    static func export(in context: RequestContext) async throws -> RequestOutcome {
        RequestOutcome(try await context.read { try $0.accountDocument() })
    }

    /// Deletes the account once the user confirmed with their name; the answer comes first, then every
    /// connection of the user (here and on other instances) is closed.
    static func delete(_ request: AccountDeleteRequest, in context: RequestContext) async throws -> RequestOutcome {
        guard request.confirm == context.user.name else {
            throw ProtocolError.invalidArgument(field: "confirm", message: "confirm must be the user name, exactly")
        }
        // This connection leaves the registry first, so the deletion's announcement (which closes the user's
        // connections) cannot overtake the answer here: it gets its OK, then one BYE.
        let registry = context.services.registry
        registry.detach(context.lineWriter.id, from: context.user.id)
        do {
            try await context.transaction { records in try records.deleteAccount() }
        } catch {
            _ = registry.attach(context.lineWriter, to: context.user)
            throw error
        }
        return RequestOutcome(nil, closeReason: "account_deleted")
    }

    static func notifications(_ page: NotificationsRequest, in context: RequestContext) async throws -> RequestOutcome {
        let (after, limit) = (Int64(page.after ?? 0), page.limit)
        let value = try await context.read { records -> JSONValue in
            let pushes = try records.pushes(after: after, limit: limit)
            return [
                "notifications": .array(pushes.map { push in
                    ["seq": .int(Int(push.seq)), "kind": .string(push.kind.rawValue), "at": .string(Timestamp.format(push.at)), "data": .object(push.data)]
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
