import Foundation
import Testing

@testable import ProgressStore

/// The event journal on its own files: framing, torn ends, damage, segments.
@Suite("The event journal")
struct EventJournalTests {
    private func payload(_ reader: String) -> [UInt8] {
        EventLogCodec.encode([event("/a", reader)])
    }

    private func journalFiles(_ folder: TemporaryFolder) throws -> [String] {
        let path = URL(fileURLWithPath: folder.databasePath).deletingLastPathComponent().path
        return try FileManager.default.contentsOfDirectory(atPath: path).filter { $0.contains("-journal.") }
            .sorted().map { path + "/" + $0 }
    }

    private func readers(_ journal: EventJournal, after seq: Int64 = 0) throws -> [String] {
        var readers: [String] = []
        try journal.entries(after: seq) { entry throws(StoreError) in
            readers += try EventLogCodec.decode(entry.payload).map(\.reader)
        }
        return readers
    }

    @Test("entries come back in order, across segments, with their seq and time")
    func roundTrip() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(
            atPath: URL(fileURLWithPath: folder.databasePath).deletingLastPathComponent().path,
            withIntermediateDirectories: true)
        let journal = try EventJournal(databasePath: folder.databasePath, minimumSeq: 0, segmentBytes: 300)
        for index in 0..<40 {
            #expect(
                try journal.append(payload: payload("r\(index)"), committedMs: Int64(index))
                    == Int64(index + 1))
        }
        #expect(try journalFiles(folder).count > 5)
        var seen: [(Int64, Int64)] = []
        try journal.entries(after: 0) { entry throws(StoreError) in
            seen.append((entry.seq, entry.committedMs))
        }
        #expect(seen.map(\.0) == Array(1...40))
        #expect(seen.map(\.1) == Array(0..<40))
        journal.close()

        let reopened = try EventJournal(databasePath: folder.databasePath, minimumSeq: 0, segmentBytes: 300)
        defer { reopened.close() }
        #expect(try readers(reopened) == (0..<40).map { "r\($0)" })
        #expect(reopened.upcomingSeq == 41)
    }

    @Test("removing folded segments keeps every entry after the mark, and numbering goes on")
    func removal() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(
            atPath: URL(fileURLWithPath: folder.databasePath).deletingLastPathComponent().path,
            withIntermediateDirectories: true)
        let journal = try EventJournal(databasePath: folder.databasePath, minimumSeq: 0, segmentBytes: 300)
        for index in 0..<40 { _ = try journal.append(payload: payload("r\(index)"), committedMs: 0) }
        let before = try journalFiles(folder).count
        journal.removeSegments(foldedThrough: 25)
        #expect(try journalFiles(folder).count < before)
        #expect(try readers(journal, after: 25) == (25..<40).map { "r\($0)" })
        journal.removeSegments(foldedThrough: 40)
        #expect(try journalFiles(folder).count == 1, "the active segment stays")
        journal.close()

        // Reopened with the state's mark beyond every file: numbering continues after it.
        let reopened = try EventJournal(databasePath: folder.databasePath, minimumSeq: 100)
        defer { reopened.close() }
        #expect(try reopened.append(payload: payload("x"), committedMs: 0) == 101)
    }

    @Test("a torn last entry is cut off at start-up; what came before stays, and appends go on")
    func tornEnd() throws {
        let folder = try TemporaryFolder()
        let store = try SQLiteStore(path: folder.databasePath)
        for reader in ["a", "b", "c"] {
            store.append([event("/a", reader)]) { _ in }
        }
        store.close()
        let last = try #require(try journalFiles(folder).last)
        let intact = try #require(try FileManager.default.attributesOfItem(atPath: last)[.size] as? Int)
        // Half of a fourth entry, as a power cut mid-write would leave it.
        let torn = EventJournal.headerBytes + 10
        let handle = try #require(FileHandle(forWritingAtPath: last))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data([40, 0, 0, 0] + [UInt8](repeating: 7, count: torn - 4)))
        try handle.close()

        let reopened = try SQLiteStore(path: folder.databasePath)
        #expect(try FileManager.default.attributesOfItem(atPath: last)[.size] as? Int == intact)
        #expect(try reopened.readers(of: "/a", in: .allTime)?.map(\.reader) == ["a", "b", "c"])
        reopened.append([event("/a", "d")]) { _ in }
        reopened.close()
        let again = try SQLiteStore(path: folder.databasePath)
        defer { again.close() }
        #expect(try again.readers(of: "/a", in: .allTime)?.map(\.reader) == ["a", "b", "c", "d"])
    }

    @Test("damage before the last segment's end stops start-up instead of skipping events")
    func damage() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(
            atPath: URL(fileURLWithPath: folder.databasePath).deletingLastPathComponent().path,
            withIntermediateDirectories: true)
        let journal = try EventJournal(databasePath: folder.databasePath, minimumSeq: 0, segmentBytes: 300)
        for index in 0..<20 { _ = try journal.append(payload: payload("r\(index)"), committedMs: 0) }
        journal.close()
        let first = try #require(try journalFiles(folder).first)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: first))
        bytes[EventJournal.headerBytes + 3] ^= 0xFF
        try bytes.write(to: URL(fileURLWithPath: first))
        #expect(throws: StoreError.self) {
            try EventJournal(databasePath: folder.databasePath, minimumSeq: 0, segmentBytes: 300)
        }
    }

    @Test("an event log of the earlier release is folded in at start-up, once")
    func legacyLog() throws {
        let folder = try TemporaryFolder()
        try SQLiteStore(path: folder.databasePath).close()
        let legacy = try SQLiteConnection(filename: folder.databasePath + "-events", busyTimeoutMs: 1_000)
        try SQLiteSchema.migrate(legacy, with: SQLiteSchema.logMigrations)
        let insert = try legacy.cached("INSERT INTO event_log (committed_ms, events) VALUES (?1, ?2)")
        for readers in [["a", "b"], ["b", "c"]] {
            try insert.bind(1, Int64(1_000))
            try insert.bind(2, blob: EventLogCodec.encode(readers.map { event("/old", $0, id: "id-\($0)") }))
            try insert.run()
        }
        legacy.close()

        let store = try SQLiteStore(path: folder.databasePath)
        #expect(!FileManager.default.fileExists(atPath: folder.databasePath + "-events"))
        #expect(try store.readers(of: "/old", in: .allTime)?.map(\.events) == [1, 2, 1])
        store.close()
        let reopened = try SQLiteStore(path: folder.databasePath)
        defer { reopened.close() }
        #expect(try reopened.readers(of: "/old", in: .allTime)?.map(\.events) == [1, 2, 1])
    }

    @Test("with an fsync per commit, appends from many threads complete in groups and all count")
    func fsyncGroups() async throws {
        let folder = try TemporaryFolder()
        let store = try SQLiteStore(path: folder.databasePath, options: .init(fsyncEachCommit: true))
        let results = try await withThrowingTaskGroup(of: AppendResult.self) { group in
            for index in 0..<64 {
                group.addTask { try await store.append([event("/f", "r\(index % 8)", id: "e\(index)")]) }
            }
            return try await group.reduce(into: [AppendResult]()) { $0.append($1) }
        }
        #expect(results.count == 64 && results.allSatisfy { $0 == AppendResult(counted: 1, duplicates: 0) })
        store.close()
        let reopened = try SQLiteStore(path: folder.databasePath)
        defer { reopened.close() }
        #expect(try reopened.readers(of: "/f", in: .allTime)?.map(\.events) == Array(repeating: 8, count: 8))
    }
}
