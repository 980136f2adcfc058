import Foundation
import ProgressStore
import Testing

@testable import EmbeddedStore

/// Tests that look at the database file through a connection of their own, independent of
/// the store's.
@Suite("EmbeddedStore commits before it acknowledges")
struct EmbeddedStoreDurabilityTests {
    /// Opens the database the way another process would.
    private func independentConnection(_ path: String) throws -> SQLiteConnection {
        try SQLiteConnection(filename: path, busyTimeoutMs: 1_000)
    }

    @Test("each completion finds its events in the files")
    func completionAfterCommit() async throws {
        let folder = try TemporaryFolder()
        let path = folder.databasePath
        let store = try EmbeddedStore.open(path: path)
        defer { store.close() }
        let outcomes = Locked<[String: Int]>([:])
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<40 {
                group.addTask {
                    let reader = "reader-\(index)"
                    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                        store.append([event("/a", reader)]) { _ in
                            // Inside the completion, another process must already find the event:
                            // in the journal, or, once a checkpoint has saved it, in the database.
                            let found = try? timesStored(reader, at: path)
                            outcomes.withLock { $0[reader] = found ?? -1 }
                            done.resume()
                        }
                    }
                }
            }
        }
        #expect(outcomes.current.count == 40)
        #expect(outcomes.current.values.allSatisfy { $0 == 1 })
    }

    /// How often `reader` is on record: events in the saved articles plus events in the
    /// journal after the checkpoint. The journal is read (by an independent instance, as
    /// another process would) first, so an event that a checkpoint saves meanwhile is counted
    /// once: in the saved articles, as its seq is then at most `folded_seq`.
    private func timesStored(_ reader: String, at path: String) throws -> Int {
        let journal = try EventJournal(databasePath: path, minimumSeq: 0, readOnly: true)
        var logged: [(seq: Int64, count: Int)] = []
        try journal.entries(after: 0) { entry throws(StoreError) in
            logged.append(
                (entry.seq, try EventLogCodec.decode(entry.payload).filter { $0.reader == reader }.count))
        }
        journal.close()
        let state = try independentConnection(path)
        try state.execute("BEGIN")
        let saved = MemoryIndex()
        let rows = try state.cached("SELECT data FROM snapshots")
        while try rows.step() { try saved.restoreArticle(rows.blob(0)) }
        rows.reset()
        let foldedSeq = try state.integer(
            "SELECT coalesce((SELECT value FROM meta WHERE key = 'folded_seq'), 0)")
        try state.execute("COMMIT")
        let inSnapshots = saved.readers(of: "/a", in: .allTime)?.first { $0.reader == reader }?.events ?? 0
        return Int(inSnapshots) + logged.filter { $0.seq > foldedSeq }.reduce(0) { $0 + $1.count }
    }

    @Test("close commits everything queued before it returns")
    func closeDrains() throws {
        let folder = try TemporaryFolder()
        let store = try EmbeddedStore.open(path: folder.databasePath)
        let results = Locked<[Result<AppendResult, StoreError>]>([])
        for index in 0..<200 {
            store.append([event("/a", "r\(index % 7)")]) { result in results.withLock { $0.append(result) } }
        }
        store.close()
        #expect(results.current.count == 200)
        #expect(results.current.allSatisfy { (try? $0.get()) == AppendResult(counted: 1, duplicates: 0) })

        let reopened = try EmbeddedStore.open(path: folder.databasePath)
        defer { reopened.close() }
        #expect(try reopened.readers(of: "/a", in: .allTime)?.reduce(0) { $0 + $1.events } == 200)
    }

    @Test("after close, appends and reads fail with closed")
    func closed() async throws {
        let store = try EmbeddedStore.open(path: ":memory:")
        store.close()
        store.close()
        await #expect(throws: StoreError.closed) { try await store.append([event()]) }
        #expect(throws: StoreError.closed) { try store.readers(of: "/a", in: .allTime) }
        #expect(!store.isWritable)
    }

    @Test("the schema version is recorded, and a newer one is refused")
    func schemaVersion() throws {
        let folder = try TemporaryFolder()
        try EmbeddedStore.open(path: folder.databasePath).close()
        let connection = try independentConnection(folder.databasePath)
        #expect(try connection.integer("PRAGMA user_version") == Schema.currentVersion)
        let journalMode = try connection.cached("PRAGMA journal_mode")
        #expect(try journalMode.step())
        #expect(journalMode.string(0) == "wal")
        journalMode.reset()
        try connection.execute("PRAGMA user_version = 99")
        connection.close()
        #expect(throws: StoreError.self) { try EmbeddedStore.open(path: folder.databasePath) }
    }

    @Test("a checkpoint keeps only ids younger than the window, and they survive a restart")
    func pruning() async throws {
        let folder = try TemporaryFolder()
        let clock = TestClock(0)
        let options = EmbeddedStore.Options(pruneIntervalMs: 0, clock: clock.read)
        let store = try EmbeddedStore.open(path: folder.databasePath, options: options)
        _ = try await store.append([event(id: "old")])
        clock.advance(byMs: dayMs / 2)
        _ = try await store.append([event(id: "young")])
        clock.advance(byMs: dayMs / 2)
        _ = try await store.append([event(id: "now")])  // "old" was seen exactly 24 hours ago
        try store.checkpointNow()
        store.close()

        let reopened = try EmbeddedStore.open(path: folder.databasePath, options: options)
        defer { reopened.close() }
        #expect(reopened.committedSeqValue == reopened.checkpointSeq, "nothing left to replay")
        let again = try await reopened.append([event(id: "old"), event(id: "young"), event(id: "now")])
        #expect(again == AppendResult(counted: 1, duplicates: 2))
    }

    @Test("an article larger than one blob is saved in parts, comes back whole; a lost part stops start-up")
    func snapshotParts() async throws {
        let folder = try TemporaryFolder()
        // Equal as Swift strings, two articles by their bytes: only the first is saved in parts.
        let (big, small) = ("/\u{e9}", "/e\u{301}")
        var options = EmbeddedStore.Options(snapshotPartBytes: 1_000)
        let parts = { () throws -> Int in try rowCount("snapshot_parts", in: folder) }
        let store = try EmbeddedStore.open(path: folder.databasePath, options: options)
        _ = try await store.append((0..<300).map { event(big, "reader-\($0)", at: Int64($0)) })
        _ = try await store.append([event(small, "r")])
        try store.checkpointNow()
        _ = try await store.append((300..<400).map { event(big, "reader-\($0)", at: Int64($0)) })
        try store.checkpointNow()
        let before = try #require(try store.readers(of: big, in: .allTime))
        #expect(before.count == 400)
        store.close()
        let many = try parts()
        #expect(many > 10)

        /// Reopens with parts of `bytes`, checks both articles, adds a reader to the big one and
        /// checkpoints.
        var expected = before
        func reopen(parts bytes: Int) async throws {
            options.snapshotPartBytes = bytes
            let reopened = try EmbeddedStore.open(path: folder.databasePath, options: options)
            defer { reopened.close() }
            #expect(try reopened.readers(of: big, in: .allTime) == expected)
            #expect(try reopened.readers(of: small, in: .allTime)?.map(\.reader) == ["r"])
            _ = try await reopened.append([event(big, "late-\(expected.count)")])
            try reopened.checkpointNow()
            expected = try #require(try reopened.readers(of: big, in: .allTime))
        }
        // Larger parts: fewer of them, the spare ones gone.
        try await reopen(parts: 4_000)
        let fewer = try parts()
        #expect(fewer > 0 && fewer < many / 2)
        // Room for the whole article: no parts left.
        try await reopen(parts: 1 << 29)
        #expect(try parts() == 0)

        try await reopen(parts: 1_000)
        let connection = try independentConnection(folder.databasePath)
        try connection.execute("DELETE FROM snapshot_parts WHERE part = 2")
        connection.close()
        do {
            try EmbeddedStore.open(path: folder.databasePath, options: options).close()
            Issue.record("a store whose article lacks a part opened")
        } catch {
            #expect(error.message.contains("lacks part 2"), "\(error.message)")
        }
    }

    @Test("after a checkpoint SQLite's write-ahead log is empty: nothing for a restart to read")
    func checkpointEmptiesTheLog() async throws {
        let folder = try TemporaryFolder()
        let store = try EmbeddedStore.open(path: folder.databasePath)
        defer { store.close() }
        _ = try await store.append((0..<2_000).map { event("/wal", "reader-\($0)", at: Int64($0)) })
        try store.checkpointNow()
        let log = folder.databasePath + "-wal"
        let size = try FileManager.default.attributesOfItem(atPath: log)[.size] as? Int
        #expect(size == 0, "\(size ?? -1) bytes left in \(log)")
        // What the checkpoint saved is in the database itself: a second connection reads it.
        #expect(try rowCount("snapshots", in: folder) == 1)
    }

    @Test("an id repeats only within its article and reader")
    func idScope() async throws {
        let store = try EmbeddedStore.open(path: ":memory:")
        defer { store.close() }
        let first = try await store.append([
            event("/a", "r1", id: "1"), event("/a", "r2", id: "1"), event("/b", "r1", id: "1"),
        ])
        #expect(first == AppendResult(counted: 3, duplicates: 0))
        let again = try await store.append([event("/a", "r1", id: "1")])
        #expect(again == AppendResult(counted: 0, duplicates: 1))
    }

    @Test("a lost journal does not hide the events written after it")
    func lostLog() async throws {
        let folder = try TemporaryFolder()
        let first = try EmbeddedStore.open(path: folder.databasePath)
        for reader in ["a", "b", "c", "d", "e"] { _ = try await first.append([event("/a", reader)]) }
        try first.checkpointNow()
        first.close()
        let folderPath = URL(fileURLWithPath: folder.databasePath).deletingLastPathComponent().path
        for name in try FileManager.default.contentsOfDirectory(atPath: folderPath)
        where name.contains("-journal.") {
            try FileManager.default.removeItem(atPath: folderPath + "/" + name)
        }

        let second = try EmbeddedStore.open(path: folder.databasePath)
        for reader in ["f", "g", "h"] { _ = try await second.append([event("/a", reader)]) }
        second.close()

        let third = try EmbeddedStore.open(path: folder.databasePath)
        defer { third.close() }
        #expect(
            try third.readers(of: "/a", in: .allTime)?.map(\.reader) == [
                "a", "b", "c", "d", "e", "f", "g", "h",
            ])
    }
}
