import Foundation
import ProgressCore
import Testing

@testable import ReadingProgressClient

/// Which geometries become events, and the engaged time they carry, with the clock in hand.
@Suite("Geometry into events")
struct ViewTrackerTests {
    let start = Date(timeIntervalSince1970: 1_764_547_200)
    let rules = ViewTracker.Rules(depthSteps: 10, engagedInterval: 15, idleTimeout: 15)

    func sample(y: Double) -> Sample {
        Sample(snapshot: page(y: y), figures: try! page(y: y).figures())
    }

    func at(_ seconds: TimeInterval) -> Date { start.addingTimeInterval(seconds) }

    @Test("the first geometry is an event; moves within a step are not; a new step of progress is")
    func steps() {
        var tracker = ViewTracker(rules: rules)
        #expect(tracker.record(sample(y: 0), at: at(0), active: true).map(\.snapshot) == [page(y: 0)])
        for y in stride(from: 10.0, through: 90, by: 10) {
            #expect(tracker.record(sample(y: y), at: at(0), active: true).isEmpty, "y \(y)")
        }
        #expect(tracker.record(sample(y: 100), at: at(0), active: true).map(\.snapshot) == [page(y: 100)])
        // Back up and down again within steps already reported: nothing new.
        #expect(tracker.record(sample(y: 20), at: at(0), active: true).isEmpty)
        #expect(tracker.record(sample(y: 150), at: at(0), active: true).isEmpty)
    }

    @Test("at rest the deepest geometry short of the next step is sent once, not the resting one")
    func rest() {
        var tracker = ViewTracker(rules: rules)
        _ = tracker.record(sample(y: 0), at: at(0), active: true)
        #expect(tracker.record(sample(y: 100), at: at(0), active: true).count == 1)
        #expect(tracker.record(sample(y: 180), at: at(0), active: true).isEmpty)
        #expect(tracker.record(sample(y: 120), at: at(0), active: true).isEmpty)
        #expect(tracker.rest(at: at(1), active: true).map(\.snapshot) == [page(y: 180)])
        #expect(tracker.rest(at: at(2), active: true).isEmpty)
        // The second after the rest was engaged (the reader scrolled at 0 s): the view's end
        // carries it on the geometry it rests at.
        #expect(tracker.finish(at: at(2), active: false).map(\.engagedMs) == [1_000])
        #expect(tracker.finish(at: at(3), active: false).isEmpty)
    }

    @Test("engaged time counts while active and within the idle timeout of the last scroll")
    func engaged() {
        var tracker = ViewTracker(rules: rules)
        _ = tracker.record(sample(y: 0), at: at(0), active: true)
        // Opening the article is not scrolling: the 10 s before the first scroll do not count.
        #expect(tracker.record(sample(y: 10), at: at(10), active: true).isEmpty)
        // Engaged from 10 s to 10 + 15 s, not up to 60 s: 15 s, an event of its own.
        #expect(tracker.record(sample(y: 20), at: at(60), active: true).map(\.engagedMs) == [15_000])
        #expect(tracker.record(sample(y: 30), at: at(61), active: true).isEmpty)
        // From 61 s to 70 s the app was inactive: nothing counts, scrolled or not.
        #expect(tracker.record(sample(y: 40), at: at(70), active: false).isEmpty)
        // Going away, the view sends its deepest geometry with the one second left.
        #expect(tracker.finish(at: at(70), active: false).map(\.engagedMs) == [1_000])
        // Active again from 70 s to 80 s, within the timeout of the scroll at 70 s: 10 s to carry.
        #expect(tracker.finish(at: at(80), active: true).map(\.engagedMs) == [10_000])
        #expect(tracker.finish(at: at(80), active: true).isEmpty)
    }

    @Test("an event carries at most a day of engaged time; the rest goes with the next")
    func dayAtMost() {
        var engagement = Engagement(idleTimeout: 200_000)
        engagement.advance(to: at(0), active: true)
        engagement.scrolled(at: at(0))
        engagement.advance(to: at(90_000), active: true)
        #expect(engagement.take() == 86_400_000)
        #expect(engagement.take() == 3_600_000)
        #expect(engagement.take() == 0)
    }

    @Test("time is counted once when the clock steps back")
    func clockBack() {
        var engagement = Engagement(idleTimeout: 15)
        engagement.advance(to: at(0), active: true)
        engagement.scrolled(at: at(0))
        engagement.advance(to: at(10), active: true)
        engagement.advance(to: at(5), active: true)
        engagement.advance(to: at(12), active: true)
        #expect(engagement.take() == 12_000)
    }

    @Test("seen depth that grows while progress stays, as a region becomes known, is an event too")
    func seenDepthAlone() {
        var tracker = ViewTracker(rules: rules)
        var snapshot = page(y: 0)
        snapshot.contentSize.height = 3000
        let whole = Sample(snapshot: snapshot, figures: try! snapshot.figures())
        #expect(tracker.record(whole, at: at(0), active: true).count == 1)
        #expect(tracker.record(whole, at: at(1), active: true).isEmpty)
        snapshot.region = Region(start: 0, end: 1200)
        let body = Sample(snapshot: snapshot, figures: try! snapshot.figures())
        #expect(body.figures.progress == 0)
        #expect(tracker.record(body, at: at(2), active: true).map(\.snapshot) == [snapshot])
    }

    @Test("content that cannot scroll is one event: progress stays 0, seen depth 1")
    func unscrollable() {
        var tracker = ViewTracker(rules: rules)
        var snapshot = page(y: 0)
        snapshot.contentSize.height = 800
        let flat = Sample(snapshot: snapshot, figures: try! snapshot.figures())
        #expect(tracker.record(flat, at: at(0), active: true).count == 1)
        #expect(tracker.record(flat, at: at(1), active: true).isEmpty)
        #expect(tracker.rest(at: at(2), active: true).isEmpty)
    }
}
