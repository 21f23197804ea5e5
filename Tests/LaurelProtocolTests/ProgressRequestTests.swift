import LaurelCore
import LaurelProtocol
import Testing

@Suite struct ProgressRequestTests {
    @Test func achievementsFilters() {
        #expect(request("ACHIEVEMENTS") == AnyHashable(AchievementsRequest()))
        #expect(request(#"ACHIEVEMENTS {"category":"streak","activity":"x","status":"in_progress","source":"template","include_hidden":true}"#)
            == AnyHashable(AchievementsRequest(
                category: "streak", activity: "x", status: .inProgress, source: .template, includeHidden: true)))
        #expect(request(#"ACHIEVEMENTS {"status":"locked","source":"builtin"}"#)
            == AnyHashable(AchievementsRequest(status: .locked, source: .builtin)))
        #expect(invalidField(#"ACHIEVEMENTS {"status":"done"}"#) == "status")
        #expect(invalidField(#"ACHIEVEMENTS {"status":"UNLOCKED"}"#) == "status")
        #expect(invalidField(#"ACHIEVEMENTS {"source":"custom"}"#) == "source")
        #expect(invalidField(#"ACHIEVEMENTS {"include_hidden":null}"#) == "include_hidden")
        #expect(invalidField(#"ACHIEVEMENTS {"category":""}"#) == "category")
    }

    @Test func achievement() {
        #expect(request(#"ACHIEVEMENT {"id":"pushups_100"}"#) == AnyHashable(AchievementRequest(id: "pushups_100")))
        #expect(request(#"ACHIEVEMENT {"id":"pushups_100","explain":true}"#) == AnyHashable(AchievementRequest(id: "pushups_100", explain: true)))
        #expect(invalidField(#"ACHIEVEMENT {"id":"pushups_100","explain":1}"#) == "explain")
        #expect(invalidField(#"ACHIEVEMENT {"explain":true}"#) == "id")
        #expect(invalidField("ACHIEVEMENT") == "id")
    }

    @Test func settingsTellAbsentFromNull() {
        guard let readOnly = request("SETTINGS") as? SettingsRequest else {
            Issue.record("rejected")
            return
        }
        #expect(readOnly.isReadOnly)
        #expect(request("SETTINGS {}") == AnyHashable(SettingsRequest()))
        #expect(request(#"SETTINGS {"rest_day":null}"#) == AnyHashable(SettingsRequest(restDay: .set(nil))))
        #expect(request(#"SETTINGS {"rest_day":"sunday"}"#) == AnyHashable(SettingsRequest(restDay: .set(.sunday))))
        #expect(request(#"SETTINGS {"time_zone":"Europe/Berlin","vacation":true}"#)
            == AnyHashable(SettingsRequest(timeZone: "Europe/Berlin", restDay: .keep, vacation: true)))
        #expect((request(#"SETTINGS {"rest_day":null}"#) as? SettingsRequest)?.isReadOnly == false)
        #expect(request(#"SETTINGS {"weekly_goal":7}"#) == AnyHashable(SettingsRequest(weeklyGoal: 7)))
        #expect((request(#"SETTINGS {"weekly_goal":1}"#) as? SettingsRequest)?.isReadOnly == false)
        #expect(request(#"SETTINGS {"reminder_window_minutes":240}"#) == AnyHashable(SettingsRequest(reminderWindowMinutes: 240)))
        #expect(request(#"SETTINGS {"leaderboards":false}"#) == AnyHashable(SettingsRequest(leaderboards: false)))
        #expect((request(#"SETTINGS {"leaderboards":true}"#) as? SettingsRequest)?.isReadOnly == false)
        #expect(invalidField(#"SETTINGS {"leaderboards":"off"}"#) == "leaderboards")
        for bad in ["4", "241", "\"30\"", "null"] {
            #expect(invalidField("SETTINGS {\"reminder_window_minutes\":\(bad)}") == "reminder_window_minutes", "\(bad)")
        }
        for bad in ["0", "8", "\"3\"", "null", "2.5"] {
            #expect(invalidField("SETTINGS {\"weekly_goal\":\(bad)}") == "weekly_goal", "\(bad)")
        }
        #expect(invalidField(#"SETTINGS {"rest_day":"Sunday"}"#) == "rest_day")
        #expect(invalidField(#"SETTINGS {"rest_day":0}"#) == "rest_day")
        #expect(invalidField(#"SETTINGS {"time_zone":""}"#) == "time_zone")
        #expect(invalidField(#"SETTINGS {"time_zone":null}"#) == "time_zone")
        #expect(invalidField(#"SETTINGS {"vacation":"on"}"#) == "vacation")
        #expect(invalidField(#"SETTINGS {"timezone":"UTC"}"#) == "timezone")
    }

    @Test(arguments: Weekday.allCases)
    func everyWeekdayIsARestDay(day: Weekday) {
        #expect(request(#"SETTINGS {"rest_day":"\#(day.name)"}"#) == AnyHashable(SettingsRequest(restDay: .set(day))))
    }
}
