import ProgressCore
import Testing

@Suite("Extreme but valid input still gives finite, JSON-safe figures")
struct ExtremeInputTests {
    @Test("-0 in, no -0 out", arguments: ScrollAxis.allCases)
    func negativeZero(axis: ScrollAxis) throws {
        // p = −0 + −0 = −0, so a naive p / S and −p would both print "-0" in JSON.
        let along = Along(offset: -0.0, content: 2000, container: 800, leading: -0.0, trailing: -0.0)
        let figures = try along.geometry(
            axis, region: Region(start: -0.0, end: 2000), step: Step(index: 0, total: 3)
        )
        .figures()
        #expect(figures.progress == 0 && figures.progress.sign == .plus)
        #expect(figures.percent == "0%")
        let step = try #require(figures.step)
        #expect(step.barOffset == 0 && step.barOffset.sign == .plus)
        #expect(step.progress == 0 && step.progress.sign == .plus)
        #expect(step.barOpacity == 1)
        if axis == .horizontal {
            let offset = try #require(figures.indicatorOffset)
            #expect(offset == 0 && offset.sign == .plus)
        }
    }

    @Test("sums beyond Double's range", arguments: ScrollAxis.allCases)
    func overflowingSums(axis: ScrollAxis) throws {
        // a = b = 10³⁰⁸, V = 0: S = 1.7e308 + 2e308 and p = 2e308 both overflow if summed naively,
        // giving inf / inf. The true ratio is 2 / 3.7 = 20/37; p + H = 2e308 − 2e308 = 0.
        let along = Along(offset: 1e308, content: 1.7e308, container: 0, leading: 1e308, trailing: 1e308)
        let figures = try along.geometry(axis, step: Step(index: 1, total: 2)).figures()
        #expect(figures.scrollable)
        #expect(isClose(figures.progress, 0.540_540_540_540_540_5))
        #expect(figures.percent == "54%")
        #expect(figures.seenDepth == 0)
        let step = try #require(figures.step)
        // The bar would move 2e308 points, past the largest Double: it saturates.
        #expect(step.barOffset == -1.797_693_134_862_315_7e308)
        #expect(step.barOpacity == 0)
        if axis == .horizontal {
            let offset = try #require(figures.indicatorOffset)
            // 20/37 × 50.
            #expect(isClose(offset, 27.027_027_027_027_03))
        }
    }

    @Test("the largest finite lengths", arguments: ScrollAxis.allCases)
    func largestLengths(axis: ScrollAxis) throws {
        let most = Double.greatestFiniteMagnitude
        // o = C = max, V = 0: p = S = max, progress exactly 1; H = 0, so seenDepth = max / max.
        let figures = try Along(offset: most, content: most, container: 0).geometry(axis).figures()
        #expect(figures.progress == 1)
        #expect(figures.percent == "100%")
        #expect(figures.seenDepth == 1)
    }
}
