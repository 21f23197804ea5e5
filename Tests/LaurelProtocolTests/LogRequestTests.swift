import LaurelCore
import Foundation
import LaurelProtocol
import Testing

@Suite struct LogRequestTests {
    @Test func minimalLogUsesDefaults() {
        #expect(request(#"LOG {"activity":"pushups"}"#) == AnyHashable(LogRequest(activity: "pushups", amount: 1)))
    }

    @Test func fullLog() throws {
        let parsed = request(
            #"LOG {"activity":" Push Ups ","amount":100000,"at":"2026-11-20T09:15:00+01:00","id":"k-1","note":"line1\nline2"}"#
        )
        let at = try #require(Timestamp.parse("2026-11-20T08:15:00Z"))
        #expect(parsed == AnyHashable(LogRequest(activity: "Push Ups", amount: 100_000, at: at, id: "k-1", note: "line1\nline2")))
    }

    @Test func activityIsRequiredAndChecked() {
        #expect(invalidField(#"LOG {"amount":2}"#) == "activity")
        #expect(invalidField("LOG") == "activity")
        #expect(invalidField("LOG {}") == "activity")
        #expect(invalidField(#"LOG {"activity":""}"#) == "activity")
        #expect(invalidField(#"LOG {"activity":"   "}"#) == "activity")
        #expect(invalidField(#"LOG {"activity":5}"#) == "activity")
        #expect(invalidField(#"LOG {"activity":null}"#) == "activity")
        #expect(invalidField(#"LOG {"activity":"a\u0000b"}"#) == "activity")
        #expect(invalidField(#"LOG {"activity":\#(quoted(String(repeating: "a", count: 129)))}"#) == "activity")
        #expect(request(#"LOG {"activity":\#(quoted(String(repeating: "a", count: 128)))}"#) != nil)
    }

    @Test(arguments: [#"1"#, #"100000"#, #"42"#])
    func acceptsAmountsInRange(amount: String) {
        guard let log = request(#"LOG {"activity":"x","amount":\#(amount)}"#) as? LogRequest else {
            Issue.record("rejected \(amount)")
            return
        }
        #expect(log.amount == Int(amount))
    }

    @Test(arguments: [#"0"#, #"-1"#, #"100001"#, #"1.0"#, #"1e2"#, #""5""#, #"true"#, #"null"#, #"[1]"#,
                      #"9223372036854775808"#])
    func rejectsBadAmounts(amount: String) {
        #expect(invalidField(#"LOG {"activity":"x","amount":\#(amount)}"#) == "amount")
    }

    @Test(arguments: [
        "2026-11-20T08:15:00", "2026-02-30T08:15:00Z", "2026-11-20", "yesterday", "2026-11-20T08:15:00+0100", "",
    ])
    func rejectsBadTimestamps(at: String) {
        #expect(invalidField(#"LOG {"activity":"x","at":\#(quoted(at))}"#) == "at")
    }

    @Test func rejectsNonStringTimestamp() {
        #expect(invalidField(#"LOG {"activity":"x","at":1795162500}"#) == "at")
    }

    @Test func acceptsTimestampWithFractionAndLeapDay() throws {
        guard let log = request(#"LOG {"activity":"x","at":"2028-02-29T23:59:59.5-05:00"}"#) as? LogRequest else {
            Issue.record("rejected")
            return
        }
        #expect(log.at.map(Timestamp.format) == "2028-03-01T04:59:59.500Z")
    }

    @Test func checksIDs() {
        #expect(invalidField(#"LOG {"activity":"x","id":""}"#) == "id")
        #expect(invalidField(#"LOG {"activity":"x","id":7}"#) == "id")
        #expect(invalidField(#"LOG {"activity":"x","id":\#(quoted(String(repeating: "i", count: 129)))}"#) == "id")
        let longest = String(repeating: "😀", count: 128)
        #expect(request(#"LOG {"activity":"x","id":\#(quoted(longest))}"#) == AnyHashable(LogRequest(activity: "x", id: longest)))
        // Ids are opaque keys: kept exactly, spaces included.
        #expect(request(#"LOG {"activity":"x","id":" a "}"#) == AnyHashable(LogRequest(activity: "x", id: " a ")))
    }

    @Test func checksNotes() {
        #expect(request(#"LOG {"activity":"x","note":""}"#) == AnyHashable(LogRequest(activity: "x", note: "")))
        let longest = String(repeating: "é", count: 1000)
        #expect(request(#"LOG {"activity":"x","note":\#(quoted(longest))}"#) == AnyHashable(LogRequest(activity: "x", note: longest)))
        #expect(invalidField(#"LOG {"activity":"x","note":\#(quoted(longest + "e"))}"#) == "note")
        #expect(request(#"LOG {"activity":"x","note":"a\tb\r\nc"}"#) != nil)
        #expect(invalidField(#"LOG {"activity":"x","note":"a\u0000b"}"#) == "note")
        #expect(invalidField(#"LOG {"activity":"x","note":"a\u001bb"}"#) == "note")
        #expect(invalidField(#"LOG {"activity":"x","note":false}"#) == "note")
    }

    @Test func rejectsUnknownFieldsBeforeMissingOnes() {
        #expect(invalidField(#"LOG {"activity":"x","amout":2}"#) == "amout")
        #expect(invalidField(#"LOG {"activty":"x"}"#) == "activty")
        guard case .failure(let error) = parseRequest(#"LOG {"activity":"x","Amount":2}"#) else {
            Issue.record("accepted an unknown field")
            return
        }
        #expect(error.code == .invalidArgument)
        #expect(error.message.contains("unknown"))
    }

    @Test func lessonAndEventAreCheckedLikeLogs() throws {
        let at = try #require(Timestamp.parse("2026-01-01T00:00:00Z"))
        #expect(request(#"LESSON.DONE {"lesson":" breathing-1 ","at":"2026-01-01T00:00:00Z","id":"l1"}"#)
            == AnyHashable(LessonDoneRequest(lesson: "breathing-1", at: at, id: "l1")))
        #expect(invalidField("LESSON.DONE {}") == "lesson")
        #expect(invalidField(#"LESSON.DONE {"lesson":"x","at":"2026-01-01"}"#) == "at")
        #expect(invalidField(#"LESSON.DONE {"lesson":"x","amount":1}"#) == "amount")
        #expect(request(#"EVENT {"name":"share"}"#) == AnyHashable(EventRequest(name: "share")))
        #expect(invalidField(#"EVENT {"name":""}"#) == "name")
        #expect(invalidField(#"EVENT {"name":"share","id":""}"#) == "id")
        #expect(request("REMINDER") == AnyHashable(ReminderRequest()))
        #expect(request(#"REMINDER {"at":"2026-01-01T00:00:00Z","id":"r1"}"#) == AnyHashable(ReminderRequest(at: at, id: "r1")))
        #expect(invalidField(#"REMINDER {"at":"yesterday"}"#) == "at")
        #expect(invalidField(#"REMINDER {"id":""}"#) == "id")
        #expect(invalidField(#"REMINDER {"id":"r","window":5}"#) == "window")
    }

    @Test func logDeleteNeedsAnID() {
        #expect(request(#"LOG.DELETE {"id":"abc"}"#) == AnyHashable(IDRequest(id: "abc")))
        #expect(invalidField("LOG.DELETE") == "id")
        #expect(invalidField(#"LOG.DELETE {"id":1}"#) == "id")
    }

    @Test func logsFiltersAndPaging() throws {
        #expect(request("LOGS") == AnyHashable(LogsRequest()))
        #expect(request("LOGS {}") == AnyHashable(LogsRequest(limit: 100)))
        let from = try #require(LocalDay("2024-02-29"))
        let to = try #require(LocalDay("2024-03-01"))
        #expect(request(#"LOGS {"activity":"x","from":"2024-02-29","to":"2024-03-01","limit":1000,"before":"c1"}"#)
            == AnyHashable(LogsRequest(activity: "x", from: from, to: to, limit: 1000, before: "c1")))
        #expect(request(#"LOGS {"from":"2024-02-29","to":"2024-02-29"}"#) != nil)
        #expect(invalidField(#"LOGS {"from":"2026-02-30"}"#) == "from")
        #expect(invalidField(#"LOGS {"to":"2026-2-3"}"#) == "to")
        #expect(invalidField(#"LOGS {"from":"2026-03-02","to":"2026-03-01"}"#) == "to")
        #expect(invalidField(#"LOGS {"limit":0}"#) == "limit")
        #expect(invalidField(#"LOGS {"limit":1001}"#) == "limit")
        #expect(invalidField(#"LOGS {"limit":"10"}"#) == "limit")
        #expect(invalidField(#"LOGS {"before":""}"#) == "before")
        #expect(invalidField(#"LOGS {"after":"x"}"#) == "after")
    }
}
