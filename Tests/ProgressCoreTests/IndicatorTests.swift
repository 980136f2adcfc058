import ProgressCore
import Testing

/// A row of the indicator table: `indicatorOffset = progress × (trackLength − thumbLength)`.
struct IndicatorCase: Sendable, CustomTestStringConvertible {
    var name: String
    var offset: Double
    var indicator: Indicator?
    var indicatorOffset: Double

    var testDescription: String { name }
}

// C = 1200, V = 400: S = 800, so progress = offset / 800, clamped.
let indicatorCases: [IndicatorCase] = [
    IndicatorCase(name: "standard 90/40, three quarters", offset: 600, indicator: nil, indicatorOffset: 37.5),
    IndicatorCase(
        name: "standard given explicitly", offset: 600, indicator: .standard, indicatorOffset: 37.5),
    // 0.75 × 150.
    IndicatorCase(
        name: "200/50, three quarters", offset: 600,
        indicator: Indicator(trackLength: 200, thumbLength: 50), indicatorOffset: 112.5),
    // Unclamped, the thumb would sit at 1.25 × 150 = 187.5, off its track.
    IndicatorCase(
        name: "200/50, rubber-banding past the end", offset: 1000,
        indicator: Indicator(trackLength: 200, thumbLength: 50), indicatorOffset: 150),
    // Unclamped, at −0.125 × 150.
    IndicatorCase(
        name: "200/50, rubber-banding before the start", offset: -100,
        indicator: Indicator(trackLength: 200, thumbLength: 50), indicatorOffset: 0),
    IndicatorCase(
        name: "thumb as long as the track", offset: 600,
        indicator: Indicator(trackLength: 100, thumbLength: 100), indicatorOffset: 0),
    // 0.75 × 120.
    IndicatorCase(
        name: "no thumb", offset: 600, indicator: Indicator(trackLength: 120, thumbLength: 0),
        indicatorOffset: 90),
    // 0.25 × (0.75 − 0.25).
    IndicatorCase(
        name: "fractional lengths", offset: 200, indicator: Indicator(trackLength: 0.75, thumbLength: 0.25),
        indicatorOffset: 0.125),
]

@Suite("Indicator: a horizontal scroll indicator's thumb, kept on its track")
struct IndicatorTests {
    @Test("offset along the track on the horizontal axis", arguments: indicatorCases)
    func horizontal(row: IndicatorCase) throws {
        let geometry = Along(offset: row.offset, content: 1200, container: 400)
            .geometry(.horizontal, indicator: row.indicator)
        let offset = try #require(try geometry.figures().indicatorOffset)
        #expect(isClose(offset, row.indicatorOffset))
    }

    @Test("no offset on the vertical axis, even with an indicator", arguments: indicatorCases)
    func vertical(row: IndicatorCase) throws {
        let geometry = Along(offset: row.offset, content: 1200, container: 400)
            .geometry(.vertical, indicator: row.indicator)
        #expect(try geometry.figures().indicatorOffset == nil)
    }
}
