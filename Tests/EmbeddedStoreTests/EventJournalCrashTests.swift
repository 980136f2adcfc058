import Foundation
import ProgressStore
import Testing

@testable import EmbeddedStore

/// What a killed writer leaves in a journal written through a shared mapping, at every point
/// of an append and of a rotation, and that start-up takes all of it without losing an entry.
/// `abandon()` lets go of the files as a killed process does: nothing is cut.
@Suite("The event journal after a kill")
struct EventJournalCrashTests {
    private let chunk = Int(EventJournal.Segment.chunkBytes)

    private func payload(_ tag: Int) -> [UInt8] {
        JournalFiles.payload(40, tag: tag)
    }

    @Test("zeros allocated after the last entry are cut off at start-up, and numbering goes on")
    func zeroTail() throws {
        let files = try JournalFiles()
        let journal = try EventJournal(databasePath: files.databasePath, minimumSeq: 0)
        for tag in 0..<3 { _ = try journal.append(payload: payload(tag), committedMs: 0) }
        let file = try #require(try files.paths().last)
        let written = try JournalFiles.layout(file)
        #expect(written.seqs == [1, 2, 3])
        #expect(written.size == chunk && written.zerosAfter, "a chunk is allocated ahead, and zero")
        journal.abandon()
        #expect(try JournalFiles.layout(file) == written, "a kill cuts nothing")

        let reopened = try EventJournal(databasePath: files.databasePath, minimumSeq: 0)
        #expect(try JournalFiles.size(file) == written.entriesEnd)
        #expect(try JournalFiles.entries(reopened).map(\.seq) == [1, 2, 3])
        #expect(try reopened.append(payload: payload(3), committedMs: 0) == 4)
        reopened.abandon()
        let again = try EventJournal(databasePath: files.databasePath, minimumSeq: 0)
        defer { again.close() }
        #expect(try JournalFiles.entries(again).map(\.payload) == (0..<4).map(payload))
    }

    @Test(
        "a kill part-way through copying an entry leaves a torn entry and zeros: cut off, nothing else lost",
        arguments: [0, 1, 4, 23, 24, 30, 63], [false, true])
    func tornCopy(copied: Int, freshSegment: Bool) throws {
        let files = try JournalFiles()
        // With a segment size of one byte, every entry fills its segment: the failing one is
        // the first of a new one.
        let journal = try EventJournal(
            databasePath: files.databasePath, minimumSeq: 0, segmentBytes: freshSegment ? 1 : 1 << 20)
        for tag in 0..<3 { _ = try journal.append(payload: payload(tag), committedMs: 0) }
        // The copy stops after `copied` bytes, and the cut-off that would zero them fails: the
        // bytes stay, as they would when the process dies in the middle of the copy.
        journal.setFaults(.init(writeStopsAfter: copied, truncateFails: true))
        #expect(throws: StoreError.self) { try journal.append(payload: payload(3), committedMs: 0) }
        let last = try #require(try files.paths().last)
        let torn = try JournalFiles.layout(last)
        #expect(torn.size == chunk)
        #expect(torn.seqs == (freshSegment ? [] : [1, 2, 3]))
        journal.abandon()

        let reopened = try EventJournal(
            databasePath: files.databasePath, minimumSeq: 0, segmentBytes: freshSegment ? 1 : 1 << 20)
        #expect(try JournalFiles.size(last) == torn.entriesEnd)
        #expect(try JournalFiles.entries(reopened).map(\.seq) == [1, 2, 3])
        #expect(try reopened.append(payload: payload(4), committedMs: 0) == 4)
        reopened.close()
        let again = try EventJournal(databasePath: files.databasePath, minimumSeq: 0)
        defer { again.close() }
        #expect(try JournalFiles.entries(again).map(\.payload) == [0, 1, 2, 4].map(payload))
    }

    @Test(
        "a segment that stops being the active one is cut to its last entry first", arguments: [false, true])
    func rotatedSegmentsEndOnTheirLastEntry(syncs: Bool) throws {
        let files = try JournalFiles()
        let journal = try EventJournal(
            databasePath: files.databasePath, minimumSeq: 0, syncs: syncs, segmentBytes: 300)
        for tag in 0..<20 { _ = try journal.append(payload: payload(tag), committedMs: 0) }
        let paths = try files.paths()
        #expect(paths.count > 3)
        for path in paths.dropLast() {
            let layout = try JournalFiles.layout(path)
            #expect(!layout.seqs.isEmpty && layout.entriesEnd == layout.size, "\(path): \(layout)")
        }
        // A rotation for a checkpoint (once the one before has removed the full segments), in
        // the middle of a chunk.
        journal.removeSegments(foldedThrough: 20)
        _ = try journal.append(payload: payload(20), committedMs: 0)
        try journal.rotate()
        let rotated = try JournalFiles.layout(try #require(try files.paths().dropLast().last))
        #expect(rotated.seqs.last == 21 && rotated.entriesEnd == rotated.size)
        #expect(try JournalFiles.size(try #require(try files.paths().last)) == 0, "nothing allocated yet")
        journal.close()
        let reopened = try EventJournal(databasePath: files.databasePath, minimumSeq: 0, segmentBytes: 300)
        defer { reopened.close() }
        #expect(try JournalFiles.entries(reopened).map(\.seq) == [21])
    }

    @Test("killed after a full segment was cut and before the next was made: it stays the last one")
    func killedBetweenCutAndNewSegment() throws {
        let files = try JournalFiles()
        // Five entries of 64 bytes take the segment past 300 bytes: the fifth starts the next.
        let journal = try EventJournal(databasePath: files.databasePath, minimumSeq: 0, segmentBytes: 300)
        for tag in 0..<5 { _ = try journal.append(payload: payload(tag), committedMs: 0) }
        journal.abandon()
        // The newest file is the empty segment started after the cut: as if it never was.
        let paths = try files.paths()
        #expect(try JournalFiles.size(try #require(paths.last)) == 0)
        try FileManager.default.removeItem(atPath: try #require(paths.last))

        let reopened = try EventJournal(databasePath: files.databasePath, minimumSeq: 0, segmentBytes: 300)
        #expect(try JournalFiles.entries(reopened).map(\.seq) == Array(1...5))
        #expect(try reopened.append(payload: payload(5), committedMs: 0) == 6)
        reopened.close()
        let again = try EventJournal(databasePath: files.databasePath, minimumSeq: 0, segmentBytes: 300)
        defer { again.close() }
        #expect(try JournalFiles.entries(again).map(\.payload) == (0..<6).map(payload))
    }

    @Test("a reopened journal appends right after the entries it recovered, with no gap")
    func appendsAfterRecoveredEnd() throws {
        let files = try JournalFiles()
        var journal = try EventJournal(databasePath: files.databasePath, minimumSeq: 0)
        for round in 0..<3 {
            for tag in 0..<3 { _ = try journal.append(payload: payload(round * 3 + tag), committedMs: 0) }
            // A clean stop, a kill, a clean stop.
            if round == 1 { journal.abandon() } else { journal.close() }
            journal = try EventJournal(databasePath: files.databasePath, minimumSeq: 0)
        }
        defer { journal.close() }
        let paths = try files.paths()
        #expect(paths.count == 1)
        let layout = try JournalFiles.layout(try #require(paths.first))
        #expect(layout.seqs == Array(1...9) && layout.entriesEnd == layout.size)
        #expect(try JournalFiles.entries(journal).map(\.payload) == (0..<9).map(payload))
        #expect(journal.upcomingSeq == 10)
    }

    @Test("a store let go of as if killed restarts with every acknowledged event")
    func storeAfterKill() async throws {
        let folder = try TemporaryFolder()
        let store = try EmbeddedStore.open(path: folder.databasePath)
        for reader in ["a", "b", "c"] { _ = try await store.append([event("/k", reader)]) }
        store.abandon()
        let reopened = try EmbeddedStore.open(path: folder.databasePath)
        #expect(try reopened.readers(of: "/k", in: .allTime)?.map(\.reader) == ["a", "b", "c"])
        _ = try await reopened.append([event("/k", "d")])
        reopened.abandon()
        let again = try EmbeddedStore.open(path: folder.databasePath)
        defer { again.close() }
        #expect(try again.readers(of: "/k", in: .allTime)?.map(\.reader) == ["a", "b", "c", "d"])
    }
}
