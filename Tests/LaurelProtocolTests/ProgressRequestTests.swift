import LaurelCore
import LaurelProtocol
import Testing

@Suite struct ProgressRequestTests {
    @Test func achievementsFilters() {
        #expect(request("ACHIEVEMENTS") == .achievements(AchievementsRequest()))
        #expect(request(#"ACHIEVEMENTS {"category":"streak","activity":"x","status":"in_progress","source":"template","include_hidden":true}"#)
            == .achievements(AchievementsRequest(
                category: "streak", activity: "x", status: .inProgress, source: .template, includeHidden: true)))
        #expect(request(#"ACHIEVEMENTS {"status":"locked","source":"builtin"}"#)
            == .achievements(AchievementsRequest(status: .locked, source: .builtin)))
        #expect(invalidField(#"ACHIEVEMENTS {"status":"done"}"#) == "status")
        #expect(invalidField(#"ACHIEVEMENTS {"status":"UNLOCKED"}"#) == "status")
        #expect(invalidField(#"ACHIEVEMENTS {"source":"custom"}"#) == "source")
        #expect(invalidField(#"ACHIEVEMENTS {"include_hidden":null}"#) == "include_hidden")
        #expect(invalidField(#"ACHIEVEMENTS {"category":""}"#) == "category")
    }

    @Test func achievement() {
        #expect(request(#"ACHIEVEMENT {"id":"pushups_100"}"#) == .achievement(AchievementRequest(id: "pushups_100")))
        #expect(invalidField("ACHIEVEMENT") == "id")
    }

    @Test func settingsTellAbsentFromNull() {
        guard case .settings(let readOnly) = request("SETTINGS") else {
            Issue.record("rejected")
            return
        }
        #expect(readOnly.isReadOnly)
        #expect(request("SETTINGS {}") == .settings(SettingsRequest()))
        #expect(request(#"SETTINGS {"rest_day":null}"#) == .settings(SettingsRequest(restDay: .set(nil))))
        #expect(request(#"SETTINGS {"rest_day":"sunday"}"#) == .settings(SettingsRequest(restDay: .set(.sunday))))
        #expect(request(#"SETTINGS {"time_zone":"Europe/Berlin","vacation":true}"#)
            == .settings(SettingsRequest(timeZone: "Europe/Berlin", restDay: .keep, vacation: true)))
        #expect(request(#"SETTINGS {"rest_day":null}"#).map { if case .settings(let s) = $0 { s.isReadOnly } else { true } } == false)
        #expect(invalidField(#"SETTINGS {"rest_day":"Sunday"}"#) == "rest_day")
        #expect(invalidField(#"SETTINGS {"rest_day":0}"#) == "rest_day")
        #expect(invalidField(#"SETTINGS {"time_zone":""}"#) == "time_zone")
        #expect(invalidField(#"SETTINGS {"time_zone":null}"#) == "time_zone")
        #expect(invalidField(#"SETTINGS {"vacation":"on"}"#) == "vacation")
        #expect(invalidField(#"SETTINGS {"timezone":"UTC"}"#) == "timezone")
    }

    @Test(arguments: Weekday.allCases)
    func everyWeekdayIsARestDay(day: Weekday) {
        #expect(request(#"SETTINGS {"rest_day":"\#(day.name)"}"#) == .settings(SettingsRequest(restDay: .set(day))))
    }
}
