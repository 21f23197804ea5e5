import LaurelCore
import Testing

/// A catalog file that cannot be used is refused with a `CatalogFileError` naming the field to blame.
@Suite struct CatalogFileErrorTests {
    static let validAchievement = #"{"id": "first", "name": "First", "description": "Log once.", "icon": "🎉", "category": "milestones", "tier": "bronze", "rule": {"kind": "total_logs"}, "target": 1}"#

    /// A small catalog with the given achievements (JSON objects) and activities.
    static func document(
        achievements: [String] = [validAchievement],
        activities: String = #"[{"id": "squats", "name": "Squats", "unit": "reps"}, {"id": "plank", "name": "Plank", "unit": "seconds"}]"#,
        version: Int = 1
    ) -> [UInt8] {
        Array(#"""
        {"laurel_catalog": \#(version), "name": "test", "activities": \#(activities),
         "events": ["share"], "achievements": [\#(achievements.joined(separator: ", "))]}
        """#.utf8)
    }

    static func achievement(rule: String = #"{"kind": "total_logs"}"#, tier: String = #""bronze""#, target: String? = "1", id: String = "first") -> String {
        var text = #"{"id": "\#(id)", "name": "N", "description": "D", "icon": "x", "category": "c", "tier": \#(tier), "rule": \#(rule)"#
        if let target { text += #", "target": \#(target)"# }
        return text + "}"
    }

    /// The error decoding `bytes` gives, or nil when it decodes.
    static func error(_ bytes: [UInt8]) -> CatalogFileError? {
        do {
            _ = try CatalogFile.decode(bytes)
            return nil
        } catch {
            return error
        }
    }

    @Test func aValidDocumentDecodes() throws {
        let catalog = try CatalogFile.decode(Self.document(achievements: [
            Self.validAchievement,
            Self.achievement(rule: #"{"kind": "distinct_activities", "activities": ["squats", "plank"]}"#, id: "both"),
            Self.achievement(rule: #"{"kind": "speed", "activity": "squats", "window_minutes": 10}"#, id: "fast"),
            Self.achievement(rule: #"{"kind": "events", "name": "share"}"#, id: "share"),
        ]))
        #expect(catalog.achievements.map(\.rule) == [
            .totalLogs, .distinctActivities(["squats", "plank"]), .speed(activity: "squats", windowMinutes: 10), .events(name: "share"),
        ])
    }

    @Test func unknownRuleKind() {
        let error = Self.error(Self.document(achievements: [Self.achievement(rule: #"{"kind": "total_log"}"#)]))
        #expect(error?.field == "achievements[0].rule.kind")
        #expect(error?.reason.contains("total_log") == true)
    }

    @Test(arguments: [nil, "0", "-3", #""5""#, "1.5"])
    func missingOrBadTarget(_ target: String?) {
        let error = Self.error(Self.document(achievements: [Self.validAchievement, Self.achievement(target: target, id: "second")]))
        #expect(error?.field == "achievements[1].target")
    }

    @Test(arguments: [#""diamond""#, #""Bronze""#, "1", "null"])
    func badTier(_ tier: String) {
        let error = Self.error(Self.document(achievements: [Self.achievement(tier: tier)]))
        #expect(error?.field == "achievements[0].tier")
    }

    @Test func duplicateAchievementID() {
        let error = Self.error(Self.document(achievements: [Self.validAchievement, Self.achievement(id: "second"), Self.achievement(id: "first")]))
        #expect(error?.field == "achievements[2].id")
        #expect(error?.reason.contains("first") == true)
    }

    @Test(arguments: [
        #"{"kind": "activity_total", "activity": "yoga"}"#,
        #"{"kind": "best_day", "activity": "yoga"}"#,
        #"{"kind": "activity_streak", "activity": "Squats"}"#,
        #"{"kind": "speed", "activity": "yoga", "window_minutes": 5}"#,
    ])
    func ruleNamingAnUnknownActivity(_ rule: String) {
        let error = Self.error(Self.document(achievements: [Self.achievement(rule: rule)]))
        #expect(error?.field == "achievements[0].rule.activity")
    }

    /// `distinct_activities` names activities too; one the catalog lacks would make the achievement unreachable.
    @Test func distinctActivitiesNamingAnUnknownActivity() {
        let error = Self.error(Self.document(achievements: [
            Self.achievement(rule: #"{"kind": "distinct_activities", "activities": ["squats", "yoga"]}"#),
        ]))
        #expect(error?.field == "achievements[0].rule.activities")
    }

    @Test func otherRuleFields() {
        let cases: [(rule: String, field: String)] = [
            (#"{"kind": "activity_total"}"#, "achievements[0].rule.activity"),
            (#"{"kind": "speed", "activity": "squats"}"#, "achievements[0].rule.window_minutes"),
            (#"{"kind": "speed", "activity": "squats", "window_minutes": 1441}"#, "achievements[0].rule.window_minutes"),
            (#"{"kind": "logs_before", "hour": 25}"#, "achievements[0].rule.hour"),
            (#"{"kind": "distinct_activities", "activities": []}"#, "achievements[0].rule.activities"),
            (#"{"kind": "events", "name": "tweet"}"#, "achievements[0].rule.name"),
            (#"{"activity": "squats"}"#, "achievements[0].rule.kind"),
            (#""total_logs""#, "achievements[0].rule"),
        ]
        for (rule, field) in cases {
            #expect(Self.error(Self.document(achievements: [Self.achievement(rule: rule)]))?.field == field, "\(rule)")
        }
    }

    @Test func documentAndActivityFields() {
        #expect(Self.error(Self.document(version: 2))?.field == "laurel_catalog")
        #expect(Self.error(Array("[]".utf8))?.field == "(document)")
        #expect(Self.error(Array("{".utf8))?.field == "(document)")
        #expect(Self.error(Self.document(activities: #"[{"id": "squats", "name": "Squats", "unit": "furlongs"}]"#))?.field == "activities[0].unit")
        #expect(Self.error(Self.document(activities: #"[{"id": "squats", "name": "Squats", "unit": "reps"}, {"id": "SQ", "name": "squats", "unit": "reps"}]"#))?.field == "activities[1].id")
        #expect(Self.error(Self.document(activities: #"[{"name": "Squats", "unit": "reps"}]"#))?.field == "activities[0].id")
    }
}
