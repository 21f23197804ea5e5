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
        // "é" written as e + combining accent is two characters as PostgreSQL counts them.
        let decomposed = String(repeating: "e\u{301}", count: 33)
        #expect(invalidField(#"ACTIVITY.CREATE {"name":\#(quoted(decomposed))}"#) == "name")
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
