import Foundation
import ReadingProgressClient
import Synchronization
import Testing

/// The queue on disk across restarts of the app, at its bound, with its age limit, off the main actor.
@Suite("The queue on disk, end to end")
struct QueueTests {
    func queueFiles(_ folder: TemporaryDirectory) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.url.appendingPathComponent("queue").path)
            .sorted()
    }

    @Test("a reporter started on the queue an earlier one left delivers it by itself, exactly once")
    func restartedOffline() async throws {
        let port = try await FaultTests.vacantPort()
        let folder = try TemporaryDirectory()
        let configuration = Reporter.Configuration.testing(port: port, folder: folder, reader: "r")
        var first: Reporter? = Reporter(configuration: configuration, clock: TestClock())
        for y in stride(from: 0.0, through: 400, by: 100) {
            try await first?.record(page(y: y), article: "/again")
        }
        #expect(await first?.flush() == 5)
        await first?.stop()
        first = nil
        #expect(try queueFiles(folder).count == 5)

        let server = try await startServer(store: "memory:", arguments: ["--port", String(port)])
        defer { server.stop() }
        let second = Reporter(configuration: configuration, clock: TestClock())
        let log = ReportLog(second)
        try await eventually("the earlier run's events delivered") {
            try await server.eventCount("/again") == 5
        }
        try await eventually("the reports") { log.deliveredIDs.count == 5 }
        #expect(log.duplicates == 0)
        // Files go once the answer is in, a moment after the service counted the events.
        #expect(await second.queuedEvents == 0)
        #expect(try queueFiles(folder).isEmpty)
    }

    @Test(
        "an app killed while its request was out: the next run resends, and the service counts each event once"
    )
    func killedMidRequest() async throws {
        let server = try await startServer(store: "memory:")
        defer { server.stop() }
        let folder = try TemporaryDirectory()
        let configuration = Reporter.Configuration.testing(port: server.port, folder: folder, reader: "r")
        // The first run's request reaches the service, and the run ends before it hears back:
        // the answer is held until the reporter is stopped, which cancels the wait.
        let stalled = WatchingTransport { _, _ in
            try await Task.sleep(for: .seconds(3600))
        }
        let first = Reporter(configuration: configuration, transport: stalled, clock: TestClock())
        for y in stride(from: 0.0, through: 600, by: 100) {
            try await first.record(page(y: y), article: "/killed")
        }
        let flushing = Task { await first.flush() }
        try await eventually("the first run's request answered") { stalled.all.first?.status == 202 }
        await first.stop()
        #expect(try queueFiles(folder).count == 7)

        let transport = WatchingTransport()
        let second = Reporter(configuration: configuration, transport: transport, clock: TestClock())
        let log = ReportLog(second)
        try await eventually("the second run's delivery") { log.deliveredIDs.count == 7 }
        #expect(log.duplicates == 7)
        #expect(try await server.eventCount("/killed") == 7)
        #expect(await second.queuedEvents == 0)
        #expect(try queueFiles(folder).isEmpty)

        // Stopped, the first run's request ends (cancelled) without its reporter sending again or
        // touching the folder.
        #expect(await flushing.value == 7)
        #expect(stalled.all.count == 1)
        #expect(transport.all.count == 1)
    }

    @Test("the queue has a bound: the oldest events go first, and are reported")
    func bound() async throws {
        let port = try await FaultTests.vacantPort()
        let folder = try TemporaryDirectory()
        var configuration = Reporter.Configuration.testing(port: port, folder: folder, reader: "r")
        configuration.maximumQueuedEvents = 5
        let reporter = Reporter(configuration: configuration, clock: TestClock())
        let log = ReportLog(reporter)
        for article in 0..<8 { try await reporter.record(page(y: 0), article: "/bound/\(article)") }
        #expect(await reporter.queuedEvents == 5)
        #expect(try queueFiles(folder).count == 5)
        try await eventually("three drops reported") { log.dropped(.queueFull).count == 3 }

        let server = try await startServer(store: "memory:", arguments: ["--port", String(port)])
        defer { server.stop() }
        #expect(await reporter.flush() == 0)
        for article in 0..<3 { #expect(try await server.stats("/bound/\(article)") == nil) }
        for article in 3..<8 { #expect(try await server.eventCount("/bound/\(article)") == 1) }
        try await eventually("the delivery reports") { log.deliveredIDs.count == 5 }
        #expect(Set(log.deliveredIDs).isDisjoint(with: log.dropped(.queueFull)))
    }

    @Test("events older than the service's id window are dropped, not risked twice")
    func tooOld() async throws {
        let server = try await startServer(store: "memory:")
        defer { server.stop() }
        // The first events happen 23.5 hours ago by this clock; then it comes to the present.
        let clock = TestClock(start: Date().addingTimeInterval(-23.5 * 3600))
        let reporter = Reporter(
            configuration: .testing(port: server.port, folder: try TemporaryDirectory(), reader: "r"),
            clock: clock)
        let log = ReportLog(reporter)
        for article in 0..<3 { try await reporter.record(page(y: 0), article: "/old/\(article)") }
        clock.advance(by: 23.5 * 3600)
        try await reporter.record(page(y: 0), article: "/new")
        #expect(await reporter.flush() == 0)
        try await eventually("the drop reported") { log.dropped(.tooOld).count == 3 }
        for article in 0..<3 { #expect(try await server.stats("/old/\(article)") == nil) }
        #expect(try await server.eventCount("/new") == 1)
    }

    @Test("an entry that cannot be read back is dropped and reported; the others are delivered")
    func unreadable() async throws {
        let server = try await startServer(store: "memory:")
        defer { server.stop() }
        let folder = try TemporaryDirectory()
        let configuration = Reporter.Configuration.testing(port: server.port, folder: folder, reader: "r")
        let first = Reporter(configuration: configuration, clock: TestClock())
        try await first.record(page(y: 0), article: "/readable")
        await first.stop()
        let queue = folder.url.appendingPathComponent("queue")
        try Data("{\"id\":".utf8).write(to: queue.appendingPathComponent("00000000000000000007.event"))

        let second = Reporter(configuration: configuration, clock: TestClock())
        let log = ReportLog(second)
        try await eventually("the readable event delivered") { try await server.eventCount("/readable") == 1 }
        try await eventually("the drop reported") { log.dropped(.unreadable) == ["00000000000000000007"] }
        try await eventually("an empty queue") { await second.queuedEvents == 0 }
        #expect(try queueFiles(folder).isEmpty)
    }

    @Test("a full disk: events that cannot be written are reported, and still delivered while the app runs")
    func diskFull() async throws {
        let server = try await startServer(store: "memory:")
        defer { server.stop() }
        let storage = WatchedStorage(
            DirectoryStorage(directory: try TemporaryDirectory().url), failingWrites: true)
        let reporter = Reporter(
            configuration: .testing(port: server.port, folder: try TemporaryDirectory(), reader: "r"),
            clock: TestClock(), storage: storage)
        let log = ReportLog(reporter)
        try await reporter.record(page(y: 0), article: "/full")
        try await reporter.record(page(y: 500), article: "/full")
        #expect(await reporter.flush() == 0)
        #expect(try await server.eventCount("/full") == 2)
        try await eventually("the reports") { log.deliveredIDs.count == 2 }
        let unsaved = log.all.compactMap { report -> String? in
            guard case .notSaved(let id, let message) = report else { return nil }
            #expect(message.contains("ENOSPC") || message.contains("28"), "\(message)")
            return id
        }
        #expect(unsaved == log.deliveredIDs)
    }

    @Test(
        "views on the main actor hand over geometry without waiting, and the files are written and removed while the main actor is held"
    )
    @MainActor
    func offTheMainActor() async throws {
        let server = try await startServer(store: "memory:")
        defer { server.stop() }
        let storage = WatchedStorage(DirectoryStorage(directory: try TemporaryDirectory().url))
        let reporter = Reporter(
            configuration: .testing(port: server.port, folder: try TemporaryDirectory(), reader: "r"),
            clock: TestClock(), storage: storage)
        for y in stride(from: 0.0, through: 300, by: 50) {
            reporter.submit(.geometry(page(y: y), article: "/main"))
        }
        reporter.submit(.appState(.background))
        // Had any of it needed the main actor, it would wait for the end of this hold, in vain.
        // The synchronous `eventually` never suspends: the main actor stays held.
        let done = eventually(within: 120) {
            storage.counts == (loads: 1, writes: 4, removals: 1)
        }
        #expect(done, "\(storage.counts)")
        #expect(try await server.eventCount("/main") == 4)
    }
}

/// A storage that counts its calls, and can fail its writes.
final class WatchedStorage: EventStorage {
    private let real: DirectoryStorage
    private let calls = Mutex((loads: 0, writes: 0, removals: 0))
    private let failingWrites: Bool

    /// With `failingWrites`, every write fails as on a full disk.
    init(_ real: DirectoryStorage, failingWrites: Bool = false) {
        self.real = real
        self.failingWrites = failingWrites
    }

    var counts: (loads: Int, writes: Int, removals: Int) { calls.withLock { $0 } }

    func loadAll() throws -> [StoredEvent] {
        calls.withLock { $0.loads += 1 }
        return try real.loadAll()
    }

    func write(_ data: Data, name: String) throws {
        calls.withLock { $0.writes += 1 }
        if failingWrites { throw POSIXError(.ENOSPC) }
        try real.write(data, name: name)
    }

    func remove(_ names: [String]) throws {
        calls.withLock { $0.removals += 1 }
        try real.remove(names)
    }
}
