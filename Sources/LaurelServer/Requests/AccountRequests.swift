import Foundation
import LaurelCore
import LaurelJSON
import LaurelProtocol
import LaurelStore

/// SETTINGS, PROFILE, NOTIFICATIONS, ACCOUNT.EXPORT and ACCOUNT.DELETE: the user's own account.
enum AccountRequests {
    static func settings(_ change: SettingsRequest, in context: RequestContext) async throws -> RequestOutcome {
        if let zone = change.timeZone, TimeZone(identifier: zone) == nil {
            throw ProtocolError.invalidArgument(field: "time_zone", message: "\"\(zone)\" is not an IANA time zone")
        }
        let now = context.now
        if change.isReadOnly {
            return RequestOutcome(SettingsRendering.json(try await context.sessionProgress(now: now).progress.settings))
        }
        var restDay: Weekday??
        if case .set(let day) = change.restDay { restDay = .some(day) }
        let performed = try await context.write(.changeSettings(SettingsChange(
            timeZone: change.timeZone, restDay: restDay, vacation: change.vacation, weeklyGoal: change.weeklyGoal,
            reminderWindowMinutes: change.reminderWindowMinutes, leaderboards: change.leaderboards)), now: now)
        guard case .settings(let settings) = performed.decision.outcome else { throw ProtocolError.internal() }
        return RequestOutcome(SettingsRendering.json(settings), pushes: performed.pushes)
    }

    /// From the session's progress (no database round trip when it is current).
    static func profile(in context: RequestContext) async throws -> RequestOutcome {
        let now = context.now
        let progress = try await context.sessionProgress(now: now).progress
        let figures = progress.figures
        let measures = progress.accumulator.measures
        var json = JSONWriter()
        json.beginObject()
        json.field("user", context.user.name)
        json.field("tier", progress.subscription.tier(at: now))
        json.field("xp", figures.xp)
        json.field("level", figures.level)
        json.field("xp_to_next_level", LevelCurve.xpToNextLevel(forXP: figures.xp))
        json.key("streak")
        StreakRendering.write(progress.streak(at: now), into: &json)
        json.key("weekly_streak")
        StreakRendering.write(progress.weeklyGoalStreak(at: now), into: &json)
        json.key("reminder_streak")
        StreakRendering.write(progress.reminderStreak(at: now), into: &json)
        json.key("totals")
        json.beginObject()
        json.field("logs", measures.totalLogs)
        json.field("active_days", measures.activeDays)
        json.key("by_activity")
        json.beginObject()
        for (activity, figures) in measures.activities.sorted(by: { $0.key < $1.key }) where figures.total > 0 {
            json.key(runtime: activity)
            json.int(figures.total)
        }
        json.endObject()
        json.endObject()
        json.field("unlocked", progress.unlocksWorthXP.count)
        json.endObject()
        return RequestOutcome(json: json)
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
        guard let lineWriter = context.lineWriter else { throw ProtocolError.internal("ACCOUNT.DELETE without its connection") }
        registry.detach(lineWriter.id, from: context.user.id)
        do {
            try await context.store.deleteAccount(of: context.user.id)
        } catch {
            _ = registry.attach(lineWriter, to: context.user)
            throw error
        }
        context.session.progress.forget()
        return RequestOutcome(nil, closeReason: "account_deleted")
    }

    static func notifications(_ page: NotificationsRequest, in context: RequestContext) async throws -> RequestOutcome {
        let (after, limit) = (Int64(page.after ?? 0), page.limit)
        let (pushes, lastSeq) = try await context.read { reader in (try reader.pushes(after: after, limit: limit), try reader.lastPushSeq()) }
        var json = JSONWriter()
        json.beginObject()
        json.key("notifications")
        json.beginArray()
        for push in pushes {
            json.beginObject()
            json.field("seq", Int(push.seq))
            json.field("kind", push.kind.rawValue)
            json.field("at", timestamp: push.at)
            json.key("data")
            json.raw(push.data)
            json.endObject()
        }
        json.endArray()
        json.field("last_seq", Int(lastSeq))
        json.endObject()
        return RequestOutcome(json: json)
    }
}
