import Foundation
import ReadingProgressClient
import Synchronization
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What a network and a service do to a reporter: absent, killed, limiting, refusing.
@Suite("Delivery through faults, end to end")
struct FaultTests {
    /// A port nothing listens on: a server's, once it has stopped.
    static func vacantPort() async throws -> UInt16 {
        let server = try await startServer(store: "memory:")
        let port = server.port
        server.stop()
        return port
    }

    @Test("offline first: events wait, retried with backoff, and go once the service appears")
    func offlineFirst() async throws {
        let port = try await Self.vacantPort()
        let folder = try TemporaryDirectory()
        let reporter = Reporter(
            configuration: .testing(port: port, folder: folder, reader: "r"), clock: TestClock())
        let log = ReportLog(reporter)
        for article in 0..<3 { try await reporter.record(page(y: 0), article: "/offline/\(article)") }
        #expect(await reporter.flush() == 3)
        try await eventually("a few failed attempts") { log.retries.count >= 3 }
        #expect(log.retries.allSatisfy { if case .network = $0.reason { true } else { false } })
        // Doubling from 20 ms, at most 200 ms, with jitter.
        #expect(log.retries.allSatisfy { $0.after >= .milliseconds(10) && $0.after <= .milliseconds(200) })

        let server = try await startServer(store: "memory:", arguments: ["--port", String(port)])
        defer { server.stop() }
        try await eventually("the queued events delivered") { await reporter.queuedEvents == 0 }
        for article in 0..<3 { #expect(try await server.eventCount("/offline/\(article)") == 1) }
        try await eventually("the delivery reports") { log.deliveredIDs.count == 3 }
    }

    @Test(
        "kill -9 after the service counted a batch, before its answer arrived: a restart on the same store counts it once"
    )
    func lostAnswer() async throws {
        let folder = try TemporaryDirectory()
        let store = folder.sqliteStore
        let first = try await startServer(store: store)
        let port = first.port
        let transport = WatchingTransport { number, _ in
            guard number == 0 else { return }
            first.kill()
            throw URLError(.networkConnectionLost)
        }
        let reporter = Reporter(
            configuration: .testing(port: port, folder: folder, reader: "r"), transport: transport,
            clock: TestClock())
        let log = ReportLog(reporter)
        for y in stride(from: 0.0, through: 1000, by: 100) {
            try await reporter.record(page(y: y), article: "/lost")
        }
        #expect(await reporter.flush() == 11)
        #expect(transport.all.first?.status == 202)

        let second = try await startServer(store: store, arguments: ["--port", String(port)])
        defer { second.stop() }
        try await eventually("the resent batch acknowledged") { await reporter.queuedEvents == 0 }
        #expect(try await second.eventCount("/lost") == 11)
        try await eventually("the delivery reports") { log.deliveredIDs.count == 11 }
        #expect(log.duplicates == 11)
    }

    @Test(
        "kill -9 of the service at any moment of a long delivery and a restart: nothing lost, nothing counted twice"
    )
    func killMidStream() async throws {
        let folder = try TemporaryDirectory()
        let store = folder.sqliteStore
        let first = try await startServer(store: store)
        let port = first.port
        var configuration = Reporter.Configuration.testing(port: port, folder: folder, reader: "r")
        configuration.maximumBatchSize = 5
        let transport = WatchingTransport()
        let reporter = Reporter(configuration: configuration, transport: transport, clock: TestClock())
        for article in 0..<400 {
            try await reporter.record(page(y: 0), article: "/stream/\(article)")
        }
        let delivery = Task { await reporter.flush() }
        try await eventually("deliveries under way") { transport.all.count >= 20 }
        first.kill()
        let left = await delivery.value
        #expect(left > 0 && left < 400)

        let second = try await startServer(store: store, arguments: ["--port", String(port)])
        defer { second.stop() }
        try await eventually("the rest delivered") { await reporter.queuedEvents == 0 }
        let counts = try await second.eventCounts()
        #expect(
            counts == Dictionary(uniqueKeysWithValues: (0..<400).map { ("/stream/\($0)", 1) }), "\(counts)")
    }

    @Test("429: the next request waits at least Retry-After, and every event counts once")
    func rateLimited() async throws {
        let rig = try await Rig.start(serverArguments: ["--rate-limit", "1"])
        defer { rig.server.stop() }
        let server = rig.server
        // A round spends this second's one request of the reporter's address, then has the
        // reporter send at once: short of a second between the two, that is a 429.
        var rounds = 0
        while !rig.transport.all.contains(where: { $0.status == 429 }) && rounds < 5 {
            _ = try await onItsOwnThread { try server.client().get("/v1/articles?limit=1") }
            try await rig.reporter.record(page(y: 0), article: "/limited/\(rounds)")
            await rig.reporter.flush()
            rounds += 1
        }
        try await eventually("every round's event delivered") { rig.log.deliveredIDs.count == rounds }

        let exchanges = rig.transport.all
        #expect(exchanges.contains { $0.status == 429 })
        for (refused, next) in zip(exchanges, exchanges.dropFirst()) where refused.status == 429 {
            let waited = next.started - refused.answered!
            #expect(waited >= .seconds(1), "\(waited)")
        }
        // Reported before the delivery that followed them.
        #expect(!rig.log.retries.isEmpty)
        #expect(rig.log.retries.allSatisfy { $0.reason == .status(429) && $0.after >= .seconds(1) })
        // One read of the listing, from an address of its own: the limit counts reads too.
        let counts = try await server.eventCounts(from: "127.0.0.2")
        #expect(counts == Dictionary(uniqueKeysWithValues: (0..<rounds).map { ("/limited/\($0)", 1) }))
    }

    @Test("an event the service rejects is dropped and reported, never sent again; the valid ones count")
    func rejected() async throws {
        let rig = try await Rig.start()
        defer { rig.server.stop() }
        let tooLong = "/" + String(repeating: "a", count: 300)
        try await rig.reporter.record(page(y: 0), article: "/valid")
        try await rig.reporter.record(page(y: 0), article: tooLong)
        #expect(await rig.reporter.flush() == 0)
        #expect(rig.transport.all.map(\.status) == [202])

        // A batch of invalid events only: 400, and none is retried.
        try await rig.reporter.record(page(y: 0), article: tooLong + "b")
        try await rig.reporter.record(page(y: 0), article: tooLong + "c")
        #expect(await rig.reporter.flush() == 0)
        #expect(await rig.reporter.flush() == 0)
        #expect(rig.transport.all.map(\.status) == [202, 400])

        try await eventually("three rejections reported") { rig.log.rejected.count == 3 }
        #expect(
            rig.log.rejected.allSatisfy { $0.error.code == "invalid_event" && $0.error.field == "article" })
        #expect(rig.log.deliveredIDs.count == 1)
        #expect(try await rig.server.eventCount("/valid") == 1)
    }

    @Test(
        "413: the batch is split until it fits, and every event counts once; an event too large alone is dropped"
    )
    func tooLarge() async throws {
        let rig = try await Rig.start(serverArguments: ["--max-body-bytes", "1024"])
        defer { rig.server.stop() }
        for article in 0..<12 { try await rig.reporter.record(page(y: 0), article: "/large/\(article)") }
        #expect(await rig.reporter.flush() == 0)
        let exchanges = rig.transport.all
        #expect(exchanges.first?.events == 12)
        #expect(exchanges.first?.status == 413)
        #expect(exchanges.allSatisfy { $0.status == 202 || $0.status == 413 })
        #expect(exchanges.filter { $0.status == 202 }.allSatisfy { $0.bytes <= 1024 })
        #expect(exchanges.filter { $0.status == 202 }.reduce(0) { $0 + $1.events } == 12)
        for article in 0..<12 { #expect(try await rig.server.eventCount("/large/\(article)") == 1) }

        // Each control character takes six bytes in JSON: alone the event is over the limit.
        let huge = "/" + String(repeating: "\u{1}", count: 200)
        try await rig.reporter.record(page(y: 0), article: huge)
        #expect(await rig.reporter.flush() == 0)
        try await eventually("the drop reported") { rig.log.dropped(.tooLarge).count == 1 }
        #expect(rig.transport.all.last?.status == 413)
        #expect(rig.transport.all.last?.events == 1)
    }
}
