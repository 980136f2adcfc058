import Foundation
import ProgressStore
import Testing

@testable import EmbeddedStore

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
        let store = try EmbeddedStore.open(path: folder.databasePath)
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

        let reopened = try EmbeddedStore.open(path: folder.databasePath)
        #expect(try FileManager.default.attributesOfItem(atPath: last)[.size] as? Int == intact)
        #expect(try reopened.readers(of: "/a", in: .allTime)?.map(\.reader) == ["a", "b", "c"])
        reopened.append([event("/a", "d")]) { _ in }
        reopened.close()
        let again = try EmbeddedStore.open(path: folder.databasePath)
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

    @Test("with an fsync per commit, appends from many threads complete in groups and all count")
    func fsyncGroups() async throws {
        let folder = try TemporaryFolder()
        let store = try EmbeddedStore.open(path: folder.databasePath, options: .init(fsyncEachCommit: true))
        let results = try await withThrowingTaskGroup(of: AppendResult.self) { group in
            for index in 0..<64 {
                group.addTask { try await store.append([event("/f", "r\(index % 8)", id: "e\(index)")]) }
            }
            return try await group.reduce(into: [AppendResult]()) { $0.append($1) }
        }
        #expect(results.count == 64 && results.allSatisfy { $0 == AppendResult(counted: 1, duplicates: 0) })
        store.close()
        let reopened = try EmbeddedStore.open(path: folder.databasePath)
        defer { reopened.close() }
        #expect(try reopened.readers(of: "/f", in: .allTime)?.map(\.events) == Array(repeating: 8, count: 8))
    }
}

/// Checkpoints: the index saved whole into SQLite, the journal cut behind it.
@Suite("Checkpoints")
struct CheckpointTests {
    @Test("a checkpoint saves every article, cuts the journal, and a restart replays only what came after")
    func restartFromCheckpoint() async throws {
        let folder = try TemporaryFolder()
        let store = try EmbeddedStore.open(path: folder.databasePath)
        for index in 0..<300 {
            _ = try await store.append([
                event("/a\(index % 3)", "r\(index)", at: 1_000 + Int64(index), id: "e\(index)")
            ])
        }
        try store.checkpointNow()
        #expect(store.checkpointSeq == store.committedSeqValue)
        _ = try await store.append([event("/a0", "late", id: "late")])
        let before = try store.listing(in: .allTime, threshold: 0.5)
        let readers = try store.readers(of: "/a1", in: .allTime)
        store.append([event("/a2", "unflushed")]) { _ in }
        // Not closed cleanly: what came after the checkpoint is only in the journal.
        store.abandon()
        #expect(store.checkpointSeq < store.committedSeqValue)
        let reopened = try EmbeddedStore.open(path: folder.databasePath)
        defer { reopened.close() }
        let after = try reopened.listing(in: .allTime, threshold: 0.5)
        #expect(after.first { $0.article == "/a0" } == before.first { $0.article == "/a0" })
        #expect(try reopened.readers(of: "/a1", in: .allTime) == readers)
        #expect(try reopened.reader("unflushed", of: "/a2") != nil)
        #expect(
            try await reopened.append([event("/a0", "r0", id: "e0"), event("/a0", "late", id: "late")])
                == AppendResult(counted: 0, duplicates: 2))
    }

    @Test("a reader's later day with many events and a long engaged time survives a restart")
    func wideLaterDay() async throws {
        let folder = try TemporaryFolder()
        let store = try EmbeddedStore.open(path: folder.databasePath)
        // Day 0 first; then day 1, with a count past the snapshot's 8 bits and engaged time past 32.
        _ = try await store.append([event("/w", "r", at: 1_000)])
        _ = try await store.append((0..<300).map { event("/w", "r", at: dayMs + Int64($0)) })
        _ = try await store.append((0..<60).map { _ in event("/w", "r", at: dayMs, engagedMs: 86_400_000) })
        try store.checkpointNow()
        let before = try #require(try store.readers(of: "/w", in: .allTime))
        #expect(before.map(\.events) == [361])
        store.close()
        let reopened = try EmbeddedStore.open(path: folder.databasePath)
        defer { reopened.close() }
        #expect(try reopened.readers(of: "/w", in: .allTime) == before)
    }

    @Test("a second open of the same files is refused while the first is open")
    func exclusive() throws {
        let folder = try TemporaryFolder()
        let first = try EmbeddedStore.open(path: folder.databasePath)
        #expect(throws: StoreError.self) { try EmbeddedStore.open(path: folder.databasePath) }
        first.close()
        try EmbeddedStore.open(path: folder.databasePath).close()
    }

}
