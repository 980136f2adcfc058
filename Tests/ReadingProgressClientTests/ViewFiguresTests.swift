import Foundation
import ProgressCore
import ReadingProgressClient
import Testing

/// The figures the SwiftUI components draw, computed here as they compute them.
@Suite("What the components draw")
struct ViewFiguresTests {
    @Test("CoreGraphics' points and sizes become the core's, coordinate for coordinate")
    func coreGraphics() {
        #expect(Point(CGPoint(x: 1.5, y: -47)) == Point(x: 1.5, y: -47))
        #expect(Size(CGSize(width: 390, height: 4000)) == Size(width: 390, height: 4000))
    }

    @Test("seed 000's bar: its width is the progress, its accessibility value a whole percentage")
    func progressBar() throws {
        let figures = try ScrollSnapshot(
            contentOffset: Point(CGPoint(x: 0, y: 150 - 47)),
            contentSize: Size(CGSize(width: 390, height: 1800)),
            containerSize: Size(CGSize(width: 390, height: 844)), contentInsets: Insets(top: 47, bottom: 34)
        ).figures()
        #expect(figures.progress == 150.0 / (1800 + 47 + 34 - 844))
        #expect(figures.percent == "14%")
    }

    @Test(
        "seed 002's step bar: hidden on the first page, full at the last, fading and rising as the page scrolls"
    )
    func stepBar() throws {
        let first = try #require(try ScrollSnapshot.resting.onStep(0, of: 8).figures().step)
        #expect(first == StepFigures(progress: 0, visible: false, barOffset: 0, barOpacity: 1))
        let third = try #require(try ScrollSnapshot.resting.onStep(2, of: 8).figures().step)
        #expect(third == StepFigures(progress: 0.25, visible: true, barOffset: 0, barOpacity: 1))
        let scrolled = try #require(try page(y: 5).onStep(2, of: 8).figures().step)
        #expect(scrolled.barOffset == -5)
        #expect(scrolled.barOpacity == 0.5)
        #expect(try page(y: -30).onStep(2, of: 8).figures().step?.barOffset == 0)
        #expect(try ScrollSnapshot.resting.onStep(9, of: 8).figures().step?.progress == 1)
        #expect(throws: GeometryError.self) { try ScrollSnapshot.resting.onStep(1, of: 0).figures() }
    }

    @Test(
        "seed 003's thumb stays on its track, whichever way the carousel is pulled",
        arguments: [-200.0, 0, 300, 1200, 5000])
    func indicator(x: Double) throws {
        let carousel = ScrollSnapshot(
            axis: .horizontal, contentOffset: Point(x: x, y: 0), contentSize: Size(width: 1600, height: 150),
            containerSize: Size(width: 400, height: 150), indicator: .standard)
        let offset = try #require(try carousel.figures().indicatorOffset)
        #expect((0...50).contains(offset))
        #expect(offset == min(max(x / 1200, 0), 1) * 50)
    }
}
