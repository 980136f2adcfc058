import Foundation
import ProgressCore
import ReadingProgressClient
import Testing

/// Reporters delivering to the real service over `URLSession`, and the statistics that result.
@Suite("Delivery, end to end")
struct DeliveryTests {
    @Test("a reading session becomes a few events, and the statistics are the figures the device computed")
    func readingSession() async throws {
        let server = try await startServer(store: "memory:")
        defer { server.stop() }
        let folder = try TemporaryDirectory()
        let clock = TestClock()
        let article = "/client/how-to-read"
        let reporter = Reporter(
            configuration: .testing(port: server.port, folder: folder, reader: "r-1"), clock: clock)
        let log = ReportLog(reporter)

        // Opening the article, then half of it at once, then five seconds later the rest.
        try await reporter.record(page(y: 0), article: article)
        clock.advance(by: 5)
        for y in stride(from: 25.0, through: 500, by: 25) {
            try await reporter.record(page(y: y), article: article)
        }
        clock.advance(by: 5)
        var last: ProgressFigures?
        for y in stride(from: 525.0, through: 1000, by: 25) {
            last = try await reporter.record(page(y: y), article: article)
        }
        #expect(last?.progress == 1)
        #expect(last?.percent == "100%")
        await reporter.endView(article: article)
        // The first geometry and one for each tenth of progress: 11 events, nothing at the end.
        #expect(await reporter.queuedEvents == 11)

        // A second reader stops at 30%.
        let other = Reporter(
            configuration: .testing(port: server.port, folder: try TemporaryDirectory(), reader: "r-2"),
            clock: clock)
        for y in stride(from: 0.0, through: 300, by: 10) {
            try await other.record(page(y: y), article: article)
        }
        await other.endView(article: article)

        #expect(await reporter.flush() == 0)
        #expect(await other.flush() == 0)
        let stats = try #require(try await server.stats(article))
        #expect(stats.readers == 2)
        #expect(stats.events == 11 + 4)
        #expect(stats.completion.completed == 1)
        #expect(stats.completion.rate == 0.5)
        #expect(abs(stats.depth.mean - (1 + 0.3) / 2) < 1e-12)
        // Engaged from the first scroll at 5 s to the end at 10 s, the other reader not at all.
        #expect(stats.engagedSeconds.total == 5)
        #expect(stats.lastEventAt == Scenario.rfc3339(Int64(clock.now().timeIntervalSince1970 * 1000)))

        try await eventually("the delivery reports") { log.deliveredIDs.count == 11 }
        #expect(Set(log.deliveredIDs).count == 11)
        #expect(log.duplicates == 0)
        #expect(
            try FileManager.default.contentsOfDirectory(
                atPath: folder.url.appendingPathComponent("queue").path
            ).isEmpty)
    }

    @Test("a batch goes by itself once flushCount events are queued")
    func onCount() async throws {
        let rig = try await Rig.start { $0.flushCount = 5 }
        defer { rig.server.stop() }
        for article in 0..<4 { try await rig.reporter.record(page(y: 0), article: "/count/\(article)") }
        #expect(await rig.reporter.queuedEvents == 4)
        try await rig.reporter.record(page(y: 0), article: "/count/4")
        try await eventually("five events counted") {
            try await rig.server.eventCounts()
                == Dictionary(uniqueKeysWithValues: (0..<5).map { ("/count/\($0)", 1) })
        }
        try await eventually("an empty queue") { await rig.reporter.queuedEvents == 0 }
        #expect(rig.transport.all.map(\.events) == [5])
    }

    @Test("a batch goes by itself when the flush interval has passed")
    func onTimer() async throws {
        let rig = try await Rig.start { $0.flushInterval = .milliseconds(300) }
        defer { rig.server.stop() }
        try await rig.reporter.record(page(y: 0), article: "/timer")
        try await rig.reporter.record(page(y: 500), article: "/timer")
        try await eventually("the timer's delivery") { try await rig.server.eventCount("/timer") == 2 }
        #expect(rig.transport.all.map(\.events) == [2])
    }

    @Test("at most maximumBatchSize events a request, oldest first")
    func batchSize() async throws {
        let rig = try await Rig.start()
        defer { rig.server.stop() }
        for article in 0..<250 { try await rig.reporter.record(page(y: 0), article: "/batch/\(article)") }
        #expect(await rig.reporter.flush() == 0)
        #expect(rig.transport.all.map(\.events) == [100, 100, 50])
        #expect(try await rig.server.eventCount("/batch/0") == 1)
        #expect(try await rig.server.eventCount("/batch/249") == 1)
    }

    @Test("one request in flight, however many flushes, counts and timers ask at once")
    func oneInFlight() async throws {
        let rig = try await Rig.start {
            $0.flushCount = 1
            $0.flushInterval = .milliseconds(20)
            $0.maximumBatchSize = 7
        }
        defer { rig.server.stop() }
        let reporter = rig.reporter
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<4 {
                group.addTask {
                    for article in 0..<50 {
                        try await reporter.record(page(y: 0), article: "/busy/\(writer)-\(article)")
                        if article.isMultiple(of: 5) { await reporter.flush() }
                    }
                }
            }
            try await group.waitForAll()
        }
        await reporter.flush()
        let exchanges = rig.transport.all
        #expect(rig.transport.greatestConcurrency == 1)
        #expect(exchanges.count > 1)
        #expect(exchanges.allSatisfy { $0.events <= 7 })
        #expect(exchanges.reduce(0) { $0 + $1.events } == 200)
        #expect(try await rig.server.eventCount("/busy/3-49") == 1)
    }

    @Test("going to the background sends what the open views have and delivers it")
    func background() async throws {
        let rig = try await Rig.start()
        defer { rig.server.stop() }
        try await rig.reporter.record(page(y: 0), article: "/bg")
        rig.clock.advance(by: 1)
        try await rig.reporter.record(page(y: 40), article: "/bg")
        rig.clock.advance(by: 3)
        await rig.reporter.setAppState(.background)
        #expect(await rig.reporter.queuedEvents == 0)
        let stats = try #require(try await rig.server.stats("/bg"))
        #expect(stats.events == 2)
        #expect(stats.engagedSeconds.total == 3)
        #expect(stats.depth.mean == (try page(y: 40).figures()).progress)
        // In the background no time is engaged, and nothing is left to send when the view ends.
        rig.clock.advance(by: 60)
        await rig.reporter.setAppState(.active)
        await rig.reporter.endView(article: "/bg")
        #expect(await rig.reporter.queuedEvents == 0)
    }

    @Test("signals submitted without waiting are applied in order")
    func submitted() async throws {
        let rig = try await Rig.start()
        defer { rig.server.stop() }
        for y in stride(from: 0.0, through: 1000, by: 5) {
            rig.reporter.submit(.geometry(page(y: y), article: "/inbox"))
        }
        rig.reporter.submit(.geometry(page(y: 350), article: "/inbox"))
        rig.reporter.submit(.viewEnded(article: "/inbox"))
        rig.reporter.submit(.appState(.background))
        try await eventually("the inbox's events delivered") {
            try await rig.server.eventCount("/inbox") == 11
        }
        #expect(try await rig.server.stats("/inbox")?.depth.mean == 1)
        try await eventually("an empty queue") { await rig.reporter.queuedEvents == 0 }
    }
}
