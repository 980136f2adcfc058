import Foundation
import ReadingProgressClient
import Synchronization
import Testing

/// A queue left by an earlier run that cannot be read at first (a folder not yet readable, say).
@Suite("An earlier run's queue that cannot be read yet")
struct UnreadableQueueTests {
    @Test(
        "new events overwrite none of the earlier run's files, and both are delivered once the queue can be read"
    )
    func earlierQueueKept() async throws {
        let server = try await startServer(store: "memory:")
        defer { server.stop() }
        let folder = try TemporaryDirectory()
        let configuration = Reporter.Configuration.testing(port: server.port, folder: folder, reader: "r")
        let first = Reporter(configuration: configuration, clock: TestClock())
        for y in stride(from: 0.0, through: 200, by: 100) {
            try await first.record(page(y: y), article: "/earlier")
        }
        await first.stop()
        let queue = folder.url.appendingPathComponent("queue")
        let earlier = try Self.contents(of: queue)
        #expect(earlier.count == 3)

        let storage = LoadFailingStorage(DirectoryStorage(directory: queue))
        let second = Reporter(configuration: configuration, clock: TestClock(), storage: storage)
        let log = ReportLog(second)
        try await second.record(page(y: 0), article: "/meanwhile")
        try await eventually("the new event reported unsaved") {
            log.all.contains { if case .notSaved = $0 { true } else { false } }
        }
        #expect(try Self.contents(of: queue) == earlier, "the earlier run's files are as it left them")

        storage.failing.store(false, ordering: .sequentiallyConsistent)
        #expect(await second.flush() == 0)
        #expect(try await server.eventCount("/earlier") == 3)
        #expect(try await server.eventCount("/meanwhile") == 1)
        try await eventually("the reports") { log.deliveredIDs.count == 4 }
        #expect(try Self.contents(of: queue).isEmpty)
    }

    /// The queue's files by name, with their bytes.
    static func contents(of folder: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            files[name] = try Data(contentsOf: folder.appendingPathComponent(name))
        }
        return files
    }
}

/// A storage whose `loadAll` fails, as an unreadable folder does, until told otherwise.
final class LoadFailingStorage: EventStorage {
    private let real: DirectoryStorage
    let failing = Atomic(true)

    init(_ real: DirectoryStorage) { self.real = real }

    func loadAll() throws -> [StoredEvent] {
        if failing.load(ordering: .sequentiallyConsistent) { throw POSIXError(.EACCES) }
        return try real.loadAll()
    }

    func write(_ data: Data, name: String) throws { try real.write(data, name: name) }

    func remove(_ names: [String]) throws { try real.remove(names) }
}
