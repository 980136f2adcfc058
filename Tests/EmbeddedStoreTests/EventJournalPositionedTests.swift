import Foundation
import ProgressStore
import Testing

@testable import EmbeddedStore

/// The journal as it is written on copy-on-write and network file systems: each entry with
/// `pwrite`, no mapping and no space allocated ahead.
@Suite("The event journal written with pwrite")
struct EventJournalPositionedTests {
    private func payload(_ reader: String) -> [UInt8] {
        EventLogCodec.encode([event("/a", reader)])
    }

    private func readers(_ journal: EventJournal) throws -> [String] {
        var readers: [String] = []
        try journal.entries(after: 0) { entry throws(StoreError) in
            readers += try EventLogCodec.decode(entry.payload).map(\.reader)
        }
        return readers
    }

    @Test("entries come back in order across segments, and a file holds nothing past its last entry")
    func roundTrip() throws {
        let files = try JournalFiles()
        let journal = try EventJournal(
            databasePath: files.databasePath, minimumSeq: 0, segmentBytes: 300, positioned: true)
        for index in 0..<30 {
            _ = try journal.append(payload: payload("r\(index)"), committedMs: Int64(index))
            // Every byte of every segment is an entry: the files add up to the journal's size.
            let sizes = try files.paths().map { try JournalFiles.size($0) }
            #expect(Int64(sizes.reduce(0, +)) == journal.sizeBytes)
        }
        #expect(try files.paths().count > 3)
        journal.abandon()
        let reopened = try EventJournal(
            databasePath: files.databasePath, minimumSeq: 0, segmentBytes: 300, positioned: true)
        defer { reopened.close() }
        #expect(try readers(reopened) == (0..<30).map { "r\($0)" })
        #expect(reopened.upcomingSeq == 31)
    }

    @Test(
        "a write the disk cuts short leaves nothing of its entry, and the next one goes in",
        arguments: [0, 5, 30])
    func shortWrite(stopAfter: Int) throws {
        let files = try JournalFiles()
        let journal = try EventJournal(databasePath: files.databasePath, minimumSeq: 0, positioned: true)
        _ = try journal.append(payload: payload("first"), committedMs: 1)
        let sizeBefore = try JournalFiles.size(try #require(try files.paths().last))
        journal.setFaults(EventJournal.Faults(writeStopsAfter: stopAfter))
        #expect(throws: StoreError.self) { try journal.append(payload: payload("lost"), committedMs: 2) }
        #expect(try JournalFiles.size(try #require(try files.paths().last)) == sizeBefore)
        #expect(try journal.append(payload: payload("second"), committedMs: 3) == 2)
        journal.abandon()
        let reopened = try EventJournal(databasePath: files.databasePath, minimumSeq: 0, positioned: true)
        defer { reopened.close() }
        #expect(try readers(reopened) == ["first", "second"])
    }

    @Test("a store whose journal is written with pwrite loses nothing to a kill, and replays it once")
    func storeAfterKill() async throws {
        let folder = try TemporaryFolder()
        let options = EmbeddedStore.Options(positionedJournalWrites: true)
        let store = try EmbeddedStore.open(path: folder.databasePath, options: options)
        for index in 0..<50 {
            _ = try await store.append([event("/p", "r\(index % 7)", at: 1_000 + Int64(index), progress: 0.5)]
            )
        }
        let before = try store.statistics(
            of: "/p", in: .allTime, metric: .progress, threshold: 0.9, minEngagedSeconds: 0)
        store.abandon()
        let reopened = try EmbeddedStore.open(path: folder.databasePath, options: options)
        defer { reopened.close() }
        let after = try reopened.statistics(
            of: "/p", in: .allTime, metric: .progress, threshold: 0.9, minEngagedSeconds: 0)
        #expect(after == before)
        #expect(after?.events == 50)
    }
}
