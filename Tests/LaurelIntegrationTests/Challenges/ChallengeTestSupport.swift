import Foundation
import LaurelCore
import LaurelJSON
import LaurelProtocol
import Testing

/// Reading CHALLENGES answers, and the logs that complete a challenge, for the challenge tests. Which challenges
/// a user gets depends on the user's id, so the tests read them and act on what they got.
enum Challenges {
    static let standfitActivities = ["pushups", "squats", "lunges", "plank"]

    /// The CHALLENGES answer (today's, or `day`'s); records an issue when it is not `OK`.
    static func read(_ client: PushRecorder, day: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) async throws -> JSONObject {
        let argument: JSONObject? = day.map { ["day": .string($0)] }
        return Engine.ok(try await client.request("CHALLENGES", argument), sourceLocation: sourceLocation)
    }

    static func daily(_ answer: JSONObject) -> [JSONObject] {
        (answer["daily"]?.arrayValue ?? []).compactMap(\.objectValue)
    }

    static func weekly(_ answer: JSONObject) -> [JSONObject] {
        (answer["weekly"]?.arrayValue ?? []).compactMap(\.objectValue)
    }

    /// What stays fixed for a period: everything but progress and completion.
    static func identity(_ challenge: JSONObject) -> JSONObject {
        var fixed = challenge
        fixed["progress"] = nil
        fixed["completed_at"] = nil
        return fixed
    }

    /// LOG arguments that together complete `challenge` today from nothing logged today, or nil for a kind that
    /// logs now cannot be sure to complete (`before_hour` near its hour, `active_days_week`, `lesson_today`).
    static func completingLogs(_ challenge: JSONObject, idPrefix: String) -> [JSONObject]? {
        guard let kind = challenge["kind"]?.stringValue, let target = challenge["target"]?.intValue else { return nil }
        func log(_ activity: String, _ amount: Int, _ index: Int) -> JSONObject {
            Engine.log(activity, amount: amount, id: "\(idPrefix)-\(index)")
        }
        switch kind {
        case "logs_today": return (0..<target).map { log("pushups", 1, $0) }
        case "amount_today":
            guard let activity = challenge["activity"]?.stringValue else { return nil }
            return [log(activity, target, 0)]
        case "distinct_today": return standfitActivities.prefix(target).enumerated().map { log($1, 1, $0) }
        case "keep_streak": return [log("squats", 1, 0)]
        default: return nil
        }
    }

    /// The user's XP as the rules count it from what PROFILE and CHALLENGES show: 10 a log, 5 an active day, 50 an
    /// unlocked achievement, and the XP of completed challenges.
    static func completedXP(_ answers: [JSONObject]) -> Int {
        answers.flatMap { daily($0) + weekly($0) }.filter { $0["completed_at"] != nil }.reduce(0) { $0 + ($1["xp"]?.intValue ?? 0) }
    }
}
