import ProgressStore
import Testing

@Suite("Sections and attention: the figures of a map over readers' depths and bands")
struct SectionStatisticsTests {
    static let map = [
        Section(title: "Intro", start: 0, words: 100),
        Section(title: "Methods", start: 0.25, words: 600),
        Section(title: "Results", start: 0.6),
    ]

    static func compute(_ depths: [Double], attention: [Int64]?) -> SectionStatistics {
        let sorted = depths.sorted()
        return SectionStatistics.compute(
            map: map, readers: depths.count,
            readersAtOrAbove: { SectionStatistics.countAtOrAbove($0, inSorted: sorted) },
            attentionMs: attention)
    }

    @Test("reached and stopped within by each reader's depth; the last section ends at 1")
    func shares() {
        let figures = Self.compute([0.1, 0.25, 0.3, 0.59, 0.6, 1], attention: nil).sections
        #expect(figures.map(\.end) == [0.25, 0.6, 1])
        let reached: [Double] = [1, 5.0 / 6, 2.0 / 6]
        #expect(figures.map(\.reached) == reached)
        // A reader at depth 1 has stopped within no section: 1 is not below the last end.
        let stopped: [Double] = [1.0 / 6, 3.0 / 6, 1.0 / 6]
        #expect(figures.map(\.stoppedWithin) == stopped)
        #expect(figures.allSatisfy { $0.seconds == nil && $0.wordsPerMinute == nil })
    }

    @Test("seconds share each band by its overlap with the section, per reader who reached it")
    func seconds() {
        // 20 bands of 0.05: Intro [0, 0.25) holds bands 0–4, Methods [0.25, 0.6) bands 5–11,
        // Results [0.6, 1) bands 12–19.
        var bands = [Int64](repeating: 0, count: 20)
        bands[0] = 10_000
        bands[4] = 6_000
        bands[5] = 3_000
        bands[11] = 2_000
        bands[12] = 4_000
        let statistics = Self.compute([0.2, 0.5, 0.7, 1], attention: bands)
        let perReader: [Double] = bands.map { Double($0) / 1000 / 4 }
        #expect(statistics.attention == perReader)
        let figures = statistics.sections
        #expect(close(figures[0].seconds, 16.0 / 4))
        #expect(close(figures[1].seconds, 5.0 / 3))
        #expect(close(figures[2].seconds, 4.0 / 2))
        #expect(close(figures[0].wordsPerMinute, 100 / (4.0 / 60)))
        #expect(close(figures[1].wordsPerMinute, 600 / ((5.0 / 3) / 60)))
        #expect(figures[2].wordsPerMinute == nil)
    }

    func close(_ value: Double?, _ expected: Double) -> Bool {
        value.map { abs($0 - expected) <= 1e-9 * max(1, abs(expected)) } ?? false
    }

    @Test("a section boundary inside a band takes the band's share")
    func partialBands() {
        let bands = [Int64](repeating: 1_000, count: 20)
        #expect(SectionStatistics.millisecondsInside(0.0, 0.025, of: bands) == 500)
        #expect(close(SectionStatistics.millisecondsInside(0.33, 1, of: bands), 13_400))
        #expect(SectionStatistics.millisecondsInside(0, 1, of: bands) == 20_000)
        #expect(SectionStatistics.millisecondsInside(0.25, 0.6, of: bands) == 7_000)
    }

    @Test("no readers: shares 0, seconds null; no one reaching a section: its seconds null")
    func empty() {
        let none = Self.compute([], attention: [Int64](repeating: 0, count: 20))
        let nothing = none.sections.allSatisfy { section in
            section.reached == 0 && section.stoppedWithin == 0 && section.seconds == nil
        }
        #expect(nothing)
        #expect(none.attention == [Double](repeating: 0, count: 20))
        let shallow = Self.compute([0.1], attention: [Int64](repeating: 100, count: 20))
        #expect(shallow.sections[1].seconds == nil && shallow.sections[1].reached == 0)
        #expect(shallow.sections[0].seconds != nil)
    }

    @Test("zero seconds or zero words give no words per minute")
    func noRate() {
        let statistics = SectionStatistics.compute(
            map: [Section(title: "A", start: 0, words: 0), Section(title: "B", start: 0.5, words: 10)],
            readers: 1, readersAtOrAbove: { $0 <= 1 ? 1 : 0 }, attentionMs: [Int64](repeating: 0, count: 20))
        #expect(statistics.sections[0].seconds == 0 && statistics.sections[0].wordsPerMinute == nil)
        #expect(statistics.sections[1].seconds == 0 && statistics.sections[1].wordsPerMinute == nil)
    }
}
