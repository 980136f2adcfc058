import Foundation
import ProgressStore
import Testing

@testable import EmbeddedStore

/// What the store does in the background, and what it says about it: salts made ahead of their
/// day, a failing checkpoint logged with its cause and named for `/healthz`.
@Suite("EmbeddedStore's background work")
struct EmbeddedStoreLifecycleTests {
    /// The days whose salt the store's file holds.
    private func savedSaltDays(_ folder: TemporaryFolder) throws -> [Int64] {
        let connection = try SQLiteConnection(filename: folder.databasePath, busyTimeoutMs: 1_000)
        defer { connection.close() }
        let rows = try connection.cached("SELECT day FROM salts ORDER BY day")
        defer { rows.reset() }
        var days: [Int64] = []
        while try rows.step() { days.append(rows.int64(0)) }
        return days
    }

    @Test("today's and tomorrow's salts are saved at start, and each next day's before it begins")
    func saltsAhead() throws {
        let folder = try TemporaryFolder()
        let clock = TestClock(20_000 * dayMs + 3_600_000)
        let store = try EmbeddedStore.open(path: folder.databasePath, options: .init(clock: clock.read))
        defer { store.close() }
        #expect(try savedSaltDays(folder) == [20_000, 20_001])
        clock.advance(byMs: dayMs)
        #expect(try eventually { try savedSaltDays(folder).contains(20_002) })
    }

    @Test("a checkpoint that keeps failing is logged with its cause and named as a health problem")
    func failingCheckpointIsNamed() async throws {
        let folder = try TemporaryFolder()
        let lines = Lines()
        let store = try EmbeddedStore.open(
            path: folder.databasePath,
            options: .init(busyTimeoutMs: 10, checkpointIntervalMs: 0, logger: lines.append))
        defer { store.close() }
        #expect(store.healthProblem == nil)
        // Another connection holds the write lock: every checkpoint fails with SQLITE_BUSY.
        let blocker = try SQLiteConnection(filename: folder.databasePath, busyTimeoutMs: 10)
        try blocker.execute("BEGIN IMMEDIATE")
        _ = try await store.append([event("/a", "r")])
        #expect(eventually { store.healthProblem?.hasPrefix("checkpoint failing: ") == true })
        #expect(store.healthProblem?.contains("locked") == true, "the cause: \(store.healthProblem ?? "")")
        #expect(lines.all.contains { $0.contains("a checkpoint failed") && $0.contains("locked") })
        try blocker.execute("ROLLBACK")
        blocker.close()
        #expect(eventually { store.healthProblem == nil })
        #expect(lines.all.contains { $0.contains("checkpoints succeed again") })
    }

    @Test("the journal of a store in memory is opened close-on-exec")
    func memoryJournalIsCloseOnExec() throws {
        let journal = try EventJournal(databasePath: nil, minimumSeq: 0)
        defer { journal.close() }
        let fd = try #require(journal.inspectActiveSegment { $0.fd })
        #expect(fcntl(fd, F_GETFD) & FD_CLOEXEC != 0)
    }

    @Test("a new segment whose folder cannot be synced is refused, and the active one stays")
    func unsyncedFolderRefusesSegment() throws {
        let folder = try TemporaryFolder()
        let path = folder.databasePath
        try FileManager.default.createDirectory(
            atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path,
            withIntermediateDirectories: true)
        let journal = try EventJournal(databasePath: path, minimumSeq: 0, syncs: true)
        let payload = EventLogCodec.encode([event("/a", "r")])
        #expect(try journal.append(payload: payload, committedMs: 0) == 1)
        let before = try journalFiles(path)
        var faults = EventJournal.Faults()
        faults.directorySyncFails = true
        journal.setFaults(faults)
        #expect(throws: StoreError.self) { try journal.rotate() }
        #expect(try journalFiles(path) == before, "no segment whose name a power cut could take away")
        journal.setFaults(.init())
        #expect(try journal.append(payload: payload, committedMs: 0) == 2)
        journal.close()
    }

    private func journalFiles(_ databasePath: String) throws -> [String] {
        let folder = URL(fileURLWithPath: databasePath).deletingLastPathComponent().path
        return try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.contains("-journal.") }
            .sorted()
    }
}

/// Lines a store logs, kept for a test to read.
final class Lines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []

    @Sendable func append(_ line: String) {
        lock.withLock { lines.append(line) }
    }

    var all: [String] { lock.withLock { lines } }
}
