import LaurelCore
import Testing

/// Durations as operators write them, and the units the code reads them in.
@Suite struct DurationTextTests {
    @Test func readsEachUnit() {
        #expect(DurationText.parse("500ms") == .milliseconds(500))
        #expect(DurationText.parse("10s") == .seconds(10))
        #expect(DurationText.parse("5m") == .seconds(300))
        #expect(DurationText.parse("2h") == .seconds(7200))
        #expect(DurationText.parse("30d") == .seconds(30 * 86_400))
        #expect(DurationText.parse("0") == .zero)
    }

    @Test func refusesWhatIsNoDuration() {
        for text in ["", "s", "10", "-5s", "1.5s", "5 s", "10x", "ms5"] {
            #expect(DurationText.parse(text) == nil, "\(text)")
        }
    }

    @Test func aNumberTooLargeForItsUnitIsRefusedNotACrash() {
        #expect(DurationText.parse("200000000000d") == nil)
        #expect(DurationText.parse("9223372036854775807s") == nil)
        #expect(DurationText.parse("99999999999999999999s") == nil)
    }

    @Test func unitsOfADuration() {
        let duration = Duration.milliseconds(1500) + .microseconds(250)
        #expect(abs(duration.inSeconds - 1.50025) < 1e-12)
        #expect(duration.wholeMilliseconds == 1500)
        #expect(duration.wholeMicroseconds == 1_500_250)
        #expect(Duration.milliseconds(-3).wholeMicroseconds == 0)
    }
}
