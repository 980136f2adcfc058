import Foundation
import ProgressCore
import Testing

@testable import ReadingProgressClient

/// The twenty bands' arithmetic: which bands a geometry shows, and how engaged time is shared.
@Suite("Attention")
struct AttentionTests {
    /// A page 2000 long in a window of `visible`, at `y`, with an optional body region.
    static func shown(y: Double, visible: Double = 1000, region: Region? = nil) -> ScrollSnapshot {
        ScrollSnapshot(
            contentOffset: Point(x: 0, y: y), contentSize: Size(width: 400, height: 2000),
            containerSize: Size(width: 400, height: visible), region: region)
    }

    @Test(
        "the bands that share length with the visible range",
        arguments: [
            (shown(y: 0), 0..<10),
            (shown(y: 1000), 10..<20),
            (shown(y: 50), 0..<11),
            (shown(y: 49.5), 0..<11),
            (shown(y: 100, visible: 100), 1..<2),
            (shown(y: 0, region: Region(start: 1000, end: 2000)), 0..<0),
            (shown(y: 500, region: Region(start: 1000, end: 2000)), 0..<10),
            (shown(y: 0, visible: 4000), 0..<20),
            (shown(y: 0, visible: 0), 0..<0),
            (
                ScrollSnapshot(
                    contentOffset: Point(x: 0, y: 0), contentSize: Size(width: 0, height: 0),
                    containerSize: Size(width: 400, height: 800)), 0..<20
            ),
            (
                ScrollSnapshot(
                    axis: .horizontal, contentOffset: Point(x: 1500, y: 0),
                    contentSize: Size(width: 2000, height: 100), containerSize: Size(width: 500, height: 100)),
                15..<20
            ),
        ] as [(ScrollSnapshot, Range<Int>)])
    func bands(snapshot: ScrollSnapshot, expected: Range<Int>) {
        #expect(Attention.bands(inView: snapshot) == expected)
    }

    @Test(
        "each stretch's ms go to every band in view, and no band exceeds the event's engagedMs",
        arguments: [
            // (stretches of seconds at y, engagedMs taken, engaged left, bands expected)
            ([(2.0, 0.0)], 2000, 0.0, [Int](repeating: 2000, count: 10) + [Int](repeating: 0, count: 10)),
            (
                [(2.0, 0.0), (1.0, 1000.0)], 3000, 0.0,
                [Int](repeating: 2000, count: 10) + [Int](repeating: 1000, count: 10)
            ),
            ([(1.0, 50.0), (1.0, 0.0)], 2000, 0.0, [2000] * 10 + [1000] + [0] * 9),
            ([(3.0, 0.0)], 1500, 1.5, [1500] * 10 + [0] * 10),
            ([(0.0015, 0.0)], 1, 0.0005, [1] * 10 + [0] * 10),
        ] as [([(Double, Double)], Int, Double, [Int])])
    func shares(stretches: [(Double, Double)], engagedMs: Int, left: Double, expected: [Int]) {
        var attention = Attention()
        for (seconds, y) in stretches { attention.add(seconds, shown: Self.shown(y: y)) }
        let taken = attention.take(engagedMs: engagedMs, engagedLeft: left)
        #expect(taken == expected)
        #expect(taken.allSatisfy { $0 <= engagedMs })
        #expect(attention.pending.allSatisfy { $0 <= left })
    }
}
