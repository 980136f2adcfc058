import ProgressCore
import Testing

/// A row of the step table: a multi-step flow's bar, as SwiftUI's
/// `ProgressView(value: index, total: total)` shows it.
struct StepCase: Sendable, CustomTestStringConvertible {
    var index: Int
    var total: Int
    var progress: Double
    var visible: Bool

    var testDescription: String { "step \(index) of \(total)" }
}

let stepCases: [StepCase] = [
    StepCase(index: 0, total: 4, progress: 0, visible: false),
    StepCase(index: 1, total: 4, progress: 0.25, visible: true),
    StepCase(index: 2, total: 4, progress: 0.5, visible: true),
    StepCase(index: 1, total: 3, progress: 0.333_333_333_333_333_3, visible: true),
    StepCase(index: 4, total: 4, progress: 1, visible: true),
    StepCase(index: 6, total: 4, progress: 1, visible: true),
    StepCase(index: 0, total: 1, progress: 0, visible: false),
    StepCase(index: 5, total: 1, progress: 1, visible: true),
]

/// A row of the bar table: `barOffset = min(0, −p)`, `barOpacity = clamp(1 − 0.1 × p, 0, 1)`.
struct BarCase: Sendable, CustomTestStringConvertible {
    var name: String
    var along: Along
    var barOffset: Double
    var barOpacity: Double

    var testDescription: String { name }
}

let barCases: [BarCase] = [
    BarCase(
        name: "at rest", along: Along(offset: 0, content: 2000, container: 800), barOffset: 0, barOpacity: 1),
    BarCase(
        name: "at rest under a 20-point inset (p = −20 + 20)",
        along: Along(offset: -20, content: 2000, container: 800, leading: 20), barOffset: 0, barOpacity: 1),
    // 1 − 0.4.
    BarCase(
        name: "4 points in", along: Along(offset: 4, content: 2000, container: 800), barOffset: -4,
        barOpacity: 0.6),
    // 1 − 0.25.
    BarCase(
        name: "2.5 points in", along: Along(offset: 2.5, content: 2000, container: 800), barOffset: -2.5,
        barOpacity: 0.75),
    BarCase(
        name: "10 points in, just faded out", along: Along(offset: 10, content: 2000, container: 800),
        barOffset: -10, barOpacity: 0),
    // 1 − 1.5 clamped to 0.
    BarCase(
        name: "15 points in", along: Along(offset: 15, content: 2000, container: 800), barOffset: -15,
        barOpacity: 0),
    // p = 700 + 100.
    BarCase(
        name: "deep in, with an inset",
        along: Along(offset: 700, content: 2000, container: 800, leading: 100, trailing: 50),
        barOffset: -800, barOpacity: 0),
    // min(0, 30) = 0 and 1 + 3 clamped to 1: the bar stays put when pulled down.
    BarCase(
        name: "pulled 30 points past the start", along: Along(offset: -30, content: 2000, container: 800),
        barOffset: 0, barOpacity: 1),
    // The bar follows the scroll position even when there is nothing to scroll.
    BarCase(
        name: "content that fits, nudged 5 points", along: Along(offset: 5, content: 500, container: 800),
        barOffset: -5, barOpacity: 0.5),
]

@Suite("Steps: the progress bar across a multi-step flow")
struct StepTests {
    @Test("progress and visibility", arguments: stepCases)
    func progress(row: StepCase) throws {
        let geometry = Along(offset: 0, content: 2000, container: 800)
            .geometry(.vertical, step: Step(index: row.index, total: row.total))
        let step = try #require(try geometry.figures().step)
        #expect(isClose(step.progress, row.progress))
        #expect(step.visible == row.visible)
    }

    @Test("offset and opacity follow the scroll position", arguments: ScrollAxis.allCases, barCases)
    func bar(axis: ScrollAxis, row: BarCase) throws {
        let geometry = row.along.geometry(axis, step: Step(index: 2, total: 5))
        let step = try #require(try geometry.figures().step)
        #expect(isClose(step.barOffset, row.barOffset))
        #expect(step.barOffset.sign == (row.barOffset < 0 ? .minus : .plus), "never -0")
        #expect(isClose(step.barOpacity, row.barOpacity))
        #expect(isClose(step.progress, 0.4))
        #expect(step.visible)
    }

    @Test("no step, no step figures", arguments: ScrollAxis.allCases)
    func absent(axis: ScrollAxis) throws {
        #expect(try Along(offset: 0, content: 2000, container: 800).geometry(axis).figures().step == nil)
    }
}
