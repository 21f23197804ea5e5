import LaurelCore
import LaurelProtocol
import Testing

@Suite struct ActivityRequestTests {
    @Test func createWithDefaults() {
        #expect(request(#"ACTIVITY.CREATE {"name":"Jumping Jacks"}"#)
            == AnyHashable(ActivityCreateRequest(name: "Jumping Jacks", unit: .reps, icon: nil)))
    }

    @Test(arguments: ActivityUnit.allCases)
    func createAcceptsEveryUnit(unit: ActivityUnit) {
        #expect(request(#"ACTIVITY.CREATE {"name":"Plank","unit":"\#(unit.rawValue)","icon":"timer"}"#)
            == AnyHashable(ActivityCreateRequest(name: "Plank", unit: unit, icon: "timer")))
    }

    @Test(arguments: [#""Reps""#, #""meters""#, #""""#, #"1"#, #"null"#, #"["reps"]"#])
    func createRejectsBadUnits(unit: String) {
        #expect(invalidField(#"ACTIVITY.CREATE {"name":"Plank","unit":\#(unit)}"#) == "unit")
    }

    @Test func namesAreTrimmedAndLimitedToSixtyFourCharacters() {
        let longest = String(repeating: "n", count: 64)
        #expect(request(#"ACTIVITY.CREATE {"name":"  \#(longest)\t "}"#)
            == AnyHashable(ActivityCreateRequest(name: longest)))
        #expect(invalidField(#"ACTIVITY.CREATE {"name":"\#(longest)n"}"#) == "name")
        let emoji = String(repeating: "🏋", count: 64)
        #expect(request(#"ACTIVITY.CREATE {"name":\#(quoted(emoji))}"#) == AnyHashable(ActivityCreateRequest(name: emoji)))
        // "x" with a combining accent has no composed form: two characters as PostgreSQL counts them.
        let accented = String(repeating: "x\u{301}", count: 33)
        #expect(invalidField(#"ACTIVITY.CREATE {"name":\#(quoted(accented))}"#) == "name")
        // "é" written as e + combining accent is composed first (NFKC), so 33 of them fit.
        let decomposed = String(repeating: "e\u{301}", count: 33)
        #expect(request(#"ACTIVITY.CREATE {"name":\#(quoted(decomposed))}"#)
            == AnyHashable(ActivityCreateRequest(name: String(repeating: "\u{E9}", count: 33))))
    }

    @Test(arguments: [
        ("Ｐｕｓｈｕｐｓ", "Pushups"), ("ﬁt ﬂow", "fit flow"), ("Ⅻ reps", "XII reps"), ("cafe\u{301}", "caf\u{E9}"),
        ("Yoga 🧘\u{200D}♀\u{FE0F}", "Yoga 🧘\u{200D}♀\u{FE0F}"), ("❤\u{FE0F} cardio", "❤\u{FE0F} cardio"),
        ("👍🏽 done", "👍🏽 done"), ("👨\u{200D}👩\u{200D}👧 family walk", "👨\u{200D}👩\u{200D}👧 family walk"),
        ("🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F} run", "🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F} run"),
        ("日本語 ストレッチ", "日本語 ストレッチ"),
    ])
    func namesAreNormalizedAsPeopleReadThem(name: String, stored: String) {
        #expect(request(#"ACTIVITY.CREATE {"name":\#(quoted(name))}"#) == AnyHashable(ActivityCreateRequest(name: stored)))
    }

    @Test(arguments: [
        "\u{200B}pushups", "push\u{200B}ups", "push\u{200C}ups", "push\u{200D}ups", "pushups\u{200D}", "\u{200D}🧘",
        "push\u{00AD}ups", "\u{200E}plank", "\u{202E}plank", "squats\u{2060}", "\u{FEFF}squats", "push\u{3164}ups",
        "\u{115F}plank", "push\u{034F}ups", "ab\u{FE0F}", "1\u{200D}2", "\u{E0067}tag",
    ])
    func namesWithInvisibleCharactersAreRefused(name: String) {
        #expect(invalidField(#"ACTIVITY.CREATE {"name":\#(quoted(name))}"#) == "name")
        #expect(invalidField(#"LOG {"activity":\#(quoted(name)),"amount":1}"#) == "activity")
    }

    @Test(arguments: [#""""#, #""   ""#, #""a\u0007b""#, #""two\nlines""#, #""tab\there""#, #""del\u007f""#,
                      #"42"#, #"null"#, #"{}"#])
    func createRejectsBadNames(name: String) {
        #expect(invalidField(#"ACTIVITY.CREATE {"name":\#(name)}"#) == "name")
    }

    @Test func createChecksFieldsAndIcon() {
        #expect(invalidField("ACTIVITY.CREATE") == "name")
        #expect(invalidField(#"ACTIVITY.CREATE {"unit":"reps"}"#) == "name")
        #expect(invalidField(#"ACTIVITY.CREATE {"name":"x","icon":""}"#) == "icon")
        #expect(invalidField(#"ACTIVITY.CREATE {"name":"x","icon":\#(quoted(String(repeating: "i", count: 65)))}"#) == "icon")
        #expect(invalidField(#"ACTIVITY.CREATE {"name":"x","colour":"red"}"#) == "colour")
        #expect(invalidField(#"ACTIVITY.CREATE {"name":"x","id":"custom"}"#) == "id")
    }

    @Test func listing() {
        #expect(request("ACTIVITIES") == AnyHashable(ActivitiesRequest(includeDeleted: false)))
        #expect(request(#"ACTIVITIES {"include_deleted":true}"#) == AnyHashable(ActivitiesRequest(includeDeleted: true)))
        #expect(invalidField(#"ACTIVITIES {"include_deleted":"yes"}"#) == "include_deleted")
        #expect(invalidField(#"ACTIVITIES {"include_deleted":1}"#) == "include_deleted")
    }

    @Test func deleteAndRestoreNameTheActivity() {
        #expect(request(#"ACTIVITY.DELETE {"id":" Plank "}"#) == AnyHashable(ActivityIDRequest(id: "Plank")))
        #expect(request(#"ACTIVITY.RESTORE {"id":"0b5c"}"#) == AnyHashable(ActivityIDRequest(id: "0b5c")))
        #expect(invalidField("ACTIVITY.DELETE {}") == "id")
        #expect(invalidField(#"ACTIVITY.RESTORE {"name":"x"}"#) == "name")
    }
}
