import Foundation
import Testing

@testable import ProgressStore

/// How checkpoints keep the ids of the last 24 hours: a row each in `recent_ids`, added as they
/// are acknowledged and deleted as they expire.
@Suite("SQLiteStore keeps event ids as rows")
struct SQLiteStoreIDRowsTests {
    @Test("a checkpoint adds the ids acknowledged since the last one and deletes expired ones")
    func idRows() async throws {
        let folder = try TemporaryFolder()
        let clock = TestClock(0)
        let options = SQLiteStore.Options(pruneIntervalMs: 0, clock: clock.read)
        let store = try SQLiteStore(path: folder.databasePath, options: options)
        _ = try await store.append((0..<100).map { event(id: "old-\($0)") })
        try store.checkpointNow()
        #expect(try rowCount("recent_ids", in: folder) == 100)
        clock.advance(byMs: dayMs / 2)
        _ = try await store.append((0..<5).map { event(id: "young-\($0)") })
        try store.checkpointNow()
        #expect(try rowCount("recent_ids", in: folder) == 105)
        clock.advance(byMs: dayMs / 2)  // the "old" ids expire
        _ = try await store.append([event(id: "now")])
        try store.checkpointNow()
        #expect(try rowCount("recent_ids", in: folder) == 6)
        store.close()

        let reopened = try SQLiteStore(path: folder.databasePath, options: options)
        defer { reopened.close() }
        let again = try await reopened.append([event(id: "old-7"), event(id: "young-3"), event(id: "now")])
        #expect(again == AppendResult(counted: 1, duplicates: 2))
    }

    @Test("ids replayed from the journal at start-up are saved by the next checkpoint")
    func replayedIDs() async throws {
        let folder = try TemporaryFolder()
        let store = try SQLiteStore(path: folder.databasePath)
        _ = try await store.append([event(id: "before-the-kill")])
        store.abandon()  // as kill -9 does: no checkpoint, the id only in the journal
        let reopened = try SQLiteStore(path: folder.databasePath)
        defer { reopened.close() }
        _ = try await reopened.append([event()])
        try reopened.checkpointNow()
        #expect(try rowCount("recent_ids", in: folder) == 1)
    }

    @Test("the ids of a checkpoint that failed are saved by the next")
    func idsAfterFailedCheckpoint() async throws {
        let folder = try TemporaryFolder()
        let store = try SQLiteStore(path: folder.databasePath, options: .init(busyTimeoutMs: 50))
        defer { store.close() }
        _ = try await store.append([event(id: "first")])
        let blocker = try SQLiteConnection(filename: folder.databasePath, busyTimeoutMs: 1_000)
        try blocker.execute("BEGIN EXCLUSIVE")
        #expect(throws: StoreError.self) { try store.checkpointNow() }
        try blocker.execute("COMMIT")
        blocker.close()
        _ = try await store.append([event(id: "second")])
        try store.checkpointNow()
        #expect(try rowCount("recent_ids", in: folder) == 2)
    }

    @Test("once the writer drops a long run of expired ids, the ids after them are still saved")
    func idsAfterPruning() async throws {
        let folder = try TemporaryFolder()
        let clock = TestClock(0)
        let store = try SQLiteStore(
            path: folder.databasePath, options: .init(pruneIntervalMs: 0, clock: clock.read))
        defer { store.close() }
        _ = try await store.append((0..<5_000).map { event(id: "early-\($0)") })
        try store.checkpointNow()
        clock.advance(byMs: dayMs + 1)
        _ = try await store.append([event(id: "late")])
        try store.checkpointNow()
        #expect(try rowCount("recent_ids", in: folder) == 1)
    }

    @Test("ids an earlier release kept as a blob in meta count, and become rows")
    func idBlobOfEarlierRelease() async throws {
        let folder = try TemporaryFolder()
        try SQLiteStore(path: folder.databasePath).close()
        let earlier = event(id: "kept-in-a-blob")
        var blob = CheckpointWriter()
        blob.integer(1)
        blob.string(try #require(earlier.deduplicationKey))
        blob.integer(UInt64(SQLiteStore.Options.wallClockMs()))
        let connection = try SQLiteConnection(filename: folder.databasePath, busyTimeoutMs: 1_000)
        let insert = try connection.cached("INSERT INTO meta (key, value) VALUES ('recent_ids', ?1)")
        try insert.bind(1, blob: blob.bytes)
        try insert.run()
        insert.reset()
        connection.close()

        let store = try SQLiteStore(path: folder.databasePath)
        defer { store.close() }
        #expect(try await store.append([earlier]) == AppendResult(counted: 0, duplicates: 1))
        // A repeat writes nothing; the next checkpoint comes with the next event.
        _ = try await store.append([event()])
        try store.checkpointNow()
        #expect(try rowCount("meta WHERE key GLOB 'recent_ids*'", in: folder) == 0)
        #expect(try rowCount("recent_ids", in: folder) == 1)
    }
}

/// Writes an id blob as releases before `recent_ids` rows did: little-endian varints and
/// length-prefixed strings.
private struct CheckpointWriter {
    var bytes: [UInt8] = []

    mutating func byte(_ value: UInt8) { bytes.append(value) }

    mutating func integer(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    mutating func string(_ value: String) {
        integer(UInt64(value.utf8.count))
        bytes.append(contentsOf: value.utf8)
    }
}
