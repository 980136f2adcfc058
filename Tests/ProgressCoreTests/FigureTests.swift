import ProgressCore
import Testing

/// One row of the core table. Expected values are worked out by hand from docs/api.md ("The
/// figures"):
/// p = o + a, H = V − a − b, S = C + a + b − V.
struct FigureCase: Sendable, CustomTestStringConvertible {
    var name: String
    var along: Along
    var scrollable: Bool
    var progress: Double
    var percent: String
    var seenDepth: Double
    /// progress × (90 − 40) with the standard indicator; checked on the horizontal axis only.
    var indicatorOffset: Double

    var testDescription: String { name }
}

let figureCases: [FigureCase] = [
    // S = 2000 − 800 = 1200, p = 0, seenDepth = 800 / 2000.
    FigureCase(
        name: "at rest, no insets", along: Along(offset: 0, content: 2000, container: 800),
        scrollable: true, progress: 0, percent: "0%", seenDepth: 0.4, indicatorOffset: 0),
    // a = 100, b = 50: p = −100 + 100 = 0, H = 650, S = 1350; seenDepth = 650 / 2000.
    FigureCase(
        name: "at rest under a bar, with insets",
        along: Along(offset: -100, content: 2000, container: 800, leading: 100, trailing: 50),
        scrollable: true, progress: 0, percent: "0%", seenDepth: 0.325, indicatorOffset: 0),
    // p = 675 = S / 2; seenDepth = (675 + 650) / 2000.
    FigureCase(
        name: "halfway, with insets",
        along: Along(offset: 575, content: 2000, container: 800, leading: 100, trailing: 50),
        scrollable: true, progress: 0.5, percent: "50%", seenDepth: 0.6625, indicatorOffset: 25),
    // p = 1350 = S; seenDepth = (1350 + 650) / 2000.
    FigureCase(
        name: "exactly at the end",
        along: Along(offset: 1250, content: 2000, container: 800, leading: 100, trailing: 50),
        scrollable: true, progress: 1, percent: "100%", seenDepth: 1, indicatorOffset: 50),
    // p = 1500 > S: both ratios pass 1 and are clamped; the thumb stays on its track.
    FigureCase(
        name: "rubber-banding past the end",
        along: Along(offset: 1400, content: 2000, container: 800, leading: 100, trailing: 50),
        scrollable: true, progress: 1, percent: "100%", seenDepth: 1, indicatorOffset: 50),
    // p = −80: progress clamped to 0; seenDepth = (−80 + 650) / 2000 = 570 / 2000.
    FigureCase(
        name: "rubber-banding before the start",
        along: Along(offset: -180, content: 2000, container: 800, leading: 100, trailing: 50),
        scrollable: true, progress: 0, percent: "0%", seenDepth: 0.285, indicatorOffset: 0),
    // S = 500 − 800 < 0: nothing to scroll, everything in view.
    FigureCase(
        name: "content shorter than the container",
        along: Along(offset: 0, content: 500, container: 800),
        scrollable: false, progress: 0, percent: "0%", seenDepth: 1, indicatorOffset: 0),
    // S = 0 is not scrollable either.
    FigureCase(
        name: "content as long as the container",
        along: Along(offset: 0, content: 800, container: 800),
        scrollable: false, progress: 0, percent: "0%", seenDepth: 1, indicatorOffset: 0),
    // a = 20 makes S = 20; at rest p = 0, H = 780, seenDepth = 780 / 800.
    FigureCase(
        name: "an inset makes fitting content scrollable",
        along: Along(offset: -20, content: 800, container: 800, leading: 20),
        scrollable: true, progress: 0, percent: "0%", seenDepth: 0.975, indicatorOffset: 0),
    // V = 0: S = 1000, H = 0, p = 250; seenDepth = 250 / 1000.
    FigureCase(
        name: "zero-length container", along: Along(offset: 250, content: 1000, container: 0),
        scrollable: true, progress: 0.25, percent: "25%", seenDepth: 0.25, indicatorOffset: 12.5),
    // C = 0, a = b = 80, V = 100: S = 60 > 0 but the body [0, 0] is empty, so nothing is hidden.
    FigureCase(
        name: "empty content scrollable only through its insets",
        along: Along(offset: -80, content: 0, container: 100, leading: 80, trailing: 80),
        scrollable: true, progress: 0, percent: "0%", seenDepth: 1, indicatorOffset: 0),
    FigureCase(
        name: "empty content in an empty container", along: Along(offset: 0, content: 0, container: 0),
        scrollable: false, progress: 0, percent: "0%", seenDepth: 1, indicatorOffset: 0),
    // S = 10¹² − 1000; 5·10¹¹ / (10¹² − 1000) = 0.5 / (1 − 10⁻⁹) ≈ 0.5 + 5·10⁻¹⁰;
    // seenDepth = (5·10¹¹ + 1000) / 10¹²; offset = 50 × progress.
    FigureCase(
        name: "10¹²-point content, halfway", along: Along(offset: 5e11, content: 1e12, container: 1000),
        scrollable: true, progress: 0.500_000_000_5, percent: "50%", seenDepth: 0.500_000_001,
        indicatorOffset: 25.000_000_025),
    FigureCase(
        name: "10¹²-point content, at the end",
        along: Along(offset: 999_999_999_000, content: 1e12, container: 1000),
        scrollable: true, progress: 1, percent: "100%", seenDepth: 1, indicatorOffset: 50),
    // Horizontal-carousel numbers: S = 800, p = 200; seenDepth = 600 / 1200; 0.25 × 50.
    FigureCase(
        name: "a quarter of a carousel", along: Along(offset: 200, content: 1200, container: 400),
        scrollable: true, progress: 0.25, percent: "25%", seenDepth: 0.5, indicatorOffset: 12.5),
    // seenDepth = 400 / 1200 = 1/3.
    FigureCase(
        name: "a carousel at rest", along: Along(offset: 0, content: 1200, container: 400),
        scrollable: true, progress: 0, percent: "0%", seenDepth: 0.333_333_333_333_333_3,
        indicatorOffset: 0),
    // a = 16, b = 24: S = 840, H = 360, p = 420; seenDepth = 780 / 1200.
    FigureCase(
        name: "a carousel halfway, with insets",
        along: Along(offset: 404, content: 1200, container: 400, leading: 16, trailing: 24),
        scrollable: true, progress: 0.5, percent: "50%", seenDepth: 0.65, indicatorOffset: 25),
]

@Suite("The figures on either axis")
struct FigureTests {
    @Test("progress, percent, seen depth and indicator", arguments: ScrollAxis.allCases, figureCases)
    func figures(axis: ScrollAxis, row: FigureCase) throws {
        let figures = try row.along.geometry(axis).figures()
        #expect(figures.scrollable == row.scrollable)
        #expect(isClose(figures.progress, row.progress))
        #expect(figures.percent == row.percent)
        #expect(isClose(figures.seenDepth, row.seenDepth))
        #expect(figures.step == nil)
        switch axis {
        case .vertical:
            #expect(figures.indicatorOffset == nil)
        case .horizontal:
            let offset = try #require(figures.indicatorOffset)
            #expect(isClose(offset, row.indicatorOffset))
        }
    }

    @Test("figures() validates first", arguments: ScrollAxis.allCases)
    func validatesFirst(axis: ScrollAxis) {
        let geometry = Along(offset: .nan, content: 1000, container: 100).geometry(axis)
        let field = axis == .vertical ? "contentOffset.y" : "contentOffset.x"
        #expect(throws: GeometryError(field: field, message: "\(field) must be a finite number")) {
            try geometry.figures()
        }
    }
}
