import LaurelCore
import LaurelJSON
import Foundation
@testable import LaurelProtocol
import Testing

@Suite struct TimestampTests {
    private func seconds(_ text: String) -> Double? {
        Timestamp.parse(text)?.timeIntervalSince1970
    }

    @Test func parsesOffsetsToTheSameInstant() {
        let utc = 1_795_162_500.0  // 2026-11-20T08:15:00Z
        #expect(seconds("2026-11-20T08:15:00Z") == utc)
        #expect(seconds("2026-11-20t08:15:00z") == utc)
        #expect(seconds("2026-11-20T09:15:00+01:00") == utc)
        #expect(seconds("2026-11-20T03:45:00-04:30") == utc)
        #expect(seconds("2026-11-21T07:14:00+22:59") == utc)
        #expect(seconds("2026-11-20T08:15:00+00:00") == utc)
        #expect(seconds("2026-11-20T08:15:00-00:00") == utc)
    }

    @Test func parsesFractions() throws {
        #expect(seconds("1970-01-01T00:00:00.5Z") == 0.5)
        #expect(seconds("1970-01-01T00:00:00.125Z") == 0.125)
        // Date counts from 2001, so near 1970 it resolves about 1e-7 s; digits past that are accepted and dropped.
        let fine = try #require(seconds("1970-01-01T00:00:01.123456789123Z"))
        #expect(abs(fine - 1.123456789) < 1e-6)
    }

    @Test func handlesCalendarEdges() {
        #expect(seconds("2024-02-29T00:00:00Z") != nil)
        #expect(seconds("2000-02-29T00:00:00Z") != nil)
        #expect(seconds("1999-12-31T23:59:59Z") == 946_684_799)
        #expect(seconds("1969-12-31T23:59:59Z") == -1)
        #expect(seconds("0001-01-01T00:00:00Z") == -62_135_596_800)
        // Year 0 is outside the calendar dates the server keeps (1 to 9999).
        #expect(seconds("0000-01-01T00:00:00Z") == nil)
        #expect(seconds("9999-12-31T23:59:59Z") == 253_402_300_799)
    }

    @Test(arguments: [
        "2026-11-20T08:15:00", "2026-11-20T08:15:00.5", "2026-11-20 08:15:00Z", "2026-11-20", "2026-02-30T00:00:00Z",
        "2025-02-29T00:00:00Z", "1900-02-29T00:00:00Z", "2026-04-31T00:00:00Z", "2026-13-01T00:00:00Z",
        "2026-00-10T00:00:00Z", "2026-01-00T00:00:00Z", "2026-01-01T24:00:00Z", "2026-01-01T00:60:00Z",
        "2026-01-01T00:00:60Z", "2026-01-01T00:00:00.Z", "2026-01-01T00:00:00+01", "2026-01-01T00:00:00+0100",
        "2026-01-01T00:00:00+24:00", "2026-01-01T00:00:00+01:60", "2026-01-01T00:00:00Zjunk", "2026-1-01T00:00:00Z",
        "26-01-01T00:00:00Z", " 2026-01-01T00:00:00Z", "2026-01-01T00:00:00Z ", "2026-01-01T0a:00:00Z",
        "２０２６-01-01T00:00:00Z", "",
    ])
    func rejectsInvalidTimestamps(text: String) {
        #expect(Timestamp.parse(text) == nil)
    }

    @Test func formatsUTCWithMillisecondsOnlyWhenNeeded() {
        #expect(Timestamp.format(Date(timeIntervalSince1970: 1_795_162_500)) == "2026-11-20T08:15:00Z")
        #expect(Timestamp.format(Date(timeIntervalSince1970: 1_795_162_500.25)) == "2026-11-20T08:15:00.250Z")
        #expect(Timestamp.format(Date(timeIntervalSince1970: 1_795_162_500.0004)) == "2026-11-20T08:15:00Z")
        #expect(Timestamp.format(Date(timeIntervalSince1970: 1_795_162_500.9996)) == "2026-11-20T08:15:01Z")
        #expect(Timestamp.format(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00Z")
        #expect(Timestamp.format(Date(timeIntervalSince1970: -0.5)) == "1969-12-31T23:59:59.500Z")
        #expect(Timestamp.format(Date(timeIntervalSince1970: 951_782_400)) == "2000-02-29T00:00:00Z")
    }

    @Test func formatParseRoundTrip() throws {
        for text in ["2026-11-20T08:15:00Z", "2024-02-29T23:59:59.999Z", "2001-01-01T00:00:00.001Z"] {
            let date = try #require(Timestamp.parse(text))
            #expect(Timestamp.format(date) == text)
        }
        let offset = try #require(Timestamp.parse("2026-03-01T00:30:00+01:00"))
        #expect(Timestamp.format(offset) == "2026-02-28T23:30:00Z")
    }

    /// Answers write their timestamps in place (`JSONWriter.timestamp`), not through `format`: the same text, years
    /// of other than four digits and the rounding to the millisecond included.
    @Test(arguments: [Double]([
        1_795_162_500, 1_795_162_500.25, 1_795_162_500.0004, 1_795_162_500.9996, 0, -0.5, 951_782_400, 1_795_162_500.001,
        -62_167_219_200 - 86_400,  // the year -1, written piece by piece
        253_402_300_800.5,  // 10000-01-01, likewise
    ]))
    func aTimestampWrittenInPlaceReadsAsItsFormattedText(seconds: Double) throws {
        let moment = Date(timeIntervalSince1970: seconds)
        var json = JSONWriter()
        json.beginObject()
        json.field("at", timestamp: moment)
        json.field("absent", timestampIfPresent: nil)
        json.field("present", timestampIfPresent: moment)
        json.endObject()
        let text = Timestamp.format(moment)
        #expect(json.text == "{\"at\":\"\(text)\",\"present\":\"\(text)\"}")
    }
}

@Suite struct DateTextTests {
    @Test func parsesRealDatesOnly() {
        #expect(DateText.parse("2024-02-29") == LocalDay(year: 2024, month: 2, day: 29))
        #expect(DateText.parse("2026-12-31")?.description == "2026-12-31")
        for text in ["2026-02-30", "2025-02-29", "2100-02-29", "2026-04-31", "2026-13-01", "2026-00-01", "2026-01-00",
                     "2026-1-01", "2026-01-1", "20260101", "2026/01/01", "2026-01-01T00:00:00Z", " 2026-01-01", "", "0000-01-01"] {
            #expect(DateText.parse(text) == nil, "\(text)")
        }
    }

    @Test func ordersAndCounts() throws {
        let early = try #require(DateText.parse("2026-01-31"))
        let late = try #require(DateText.parse("2026-02-01"))
        #expect(early < late)
        #expect(try #require(DateText.parse("0025-03-04")).description == "0025-03-04")
        #expect(late.daysSince1970 - early.daysSince1970 == 1)
        #expect(try #require(DateText.parse("1970-01-01")).daysSince1970 == 0)
        #expect(try #require(DateText.parse("2000-03-01")).daysSince1970 == 11_017)
    }
}
