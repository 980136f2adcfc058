import Foundation
import ProgressStore
import TestSupport
import Testing

@testable import EmbeddedStore

/// The active segment's shared mapping: what it keeps resident, entries larger than it, and a
/// disk that runs full under it.
@Suite("The event journal's mapping")
struct EventJournalMappingTests {
    private let chunk = Int(EventJournal.Segment.chunkBytes)

    /// The resident size of the mapping that starts at `address`, in bytes, as the kernel
    /// counts it for this process (`/proc/self/smaps`).
    private func residentBytes(ofMappingAt address: UnsafeMutableRawPointer) throws -> Int {
        // Read to the end: the file's size says 0, which a whole-file read may trust.
        let handle = try #require(FileHandle(forReadingAtPath: "/proc/self/smaps"))
        defer { try? handle.close() }
        let text = String(decoding: try handle.readToEnd() ?? Data(), as: UTF8.self)
        let start = String(UInt(bitPattern: address), radix: 16) + "-"
        let lines = text.split(separator: "\n")
        let first = try #require(lines.firstIndex { $0.hasPrefix(start) }, "no mapping at \(start)")
        let rss = try #require(lines[(first + 1)...].first { $0.hasPrefix("Rss:") })
        let kilobytes = try #require(Int(rss.split(separator: " ", omittingEmptySubsequences: true)[1]))
        return kilobytes * 1024
    }

    @Test("entries copied into the mapping read back with pread after their pages were given back")
    func readBackAfterRelease() throws {
        let files = try JournalFiles()
        let journal = try EventJournal(databasePath: files.databasePath, minimumSeq: 0)
        defer { journal.close() }
        let sizes = (0..<60).map { 50_000 + $0 * 997 }
        for (tag, count) in sizes.enumerated() {
            _ = try journal.append(payload: JournalFiles.payload(count, tag: tag), committedMs: Int64(tag))
        }
        let state = try #require(journal.inspectActiveSegment { ($0.residentFrom, $0.end, $0.reserved) })
        #expect(state.0 >= 3 * EventJournal.Segment.chunkBytes, "the chunks behind the end were given back")
        #expect(state.2 > state.1, "allocated ahead of the end")
        // Through the journal's own descriptor, and through another one, as another process
        // would open the file.
        let found = try JournalFiles.entries(journal)
        #expect(found.map(\.payload.count) == sizes)
        #expect(found.map(\.committedMs) == (0..<60).map(Int64.init))
        for (tag, entry) in found.enumerated() {
            #expect(JournalFiles.same(entry.payload, JournalFiles.payload(sizes[tag], tag: tag)))
        }
        let file = try #require(try files.paths().last)
        #expect(try JournalFiles.layout(file).seqs == Array(1...60))
    }

    // The bound: one chunk (1 MiB) between appends — the pages from the last chunk boundary
    // up to the end — plus, during an append, the entry being copied. (A fault maps one page
    // of a file on disk; a tmpfs with huge pages maps a whole folio, up to 2 MiB.)
    @Test("the mapping keeps at most one chunk resident however much is appended")
    func residentBound() throws {
        let files = try JournalFiles()
        let journal = try EventJournal(databasePath: files.databasePath, minimumSeq: 0)
        defer { journal.close() }
        try journal.appendPayloads(tags: 0..<400, bytes: 30_000)
        let address = try #require(journal.inspectActiveSegment { $0.mapping })
        let resident = try residentBytes(ofMappingAt: try #require(address))
        #expect(journal.sizeBytes > 10 * Int64(chunk))
        #expect(resident > 0, "the measure sees the pages written last")
        #expect(resident <= chunk, "\(resident) bytes resident")
    }

    @Test("an entry larger than what the mapping reaches maps the file again, and the next segment goes on")
    func entryLargerThanMapping() throws {
        let files = try JournalFiles()
        let segmentBytes: Int64 = 2 << 20
        // The mapping reaches the segment size and the slack after it; this entry goes further,
        // from the middle of the segment's first chunk.
        let big = Int(segmentBytes + EventJournal.Segment.mappingSlackBytes)
        let sizes = [100, 200, big, 1_500_000, 300, 3 << 20, 10]
        let journal = try EventJournal(
            databasePath: files.databasePath, minimumSeq: 0, segmentBytes: segmentBytes)
        for (tag, count) in sizes.enumerated() {
            #expect(
                try journal.append(payload: JournalFiles.payload(count, tag: tag), committedMs: 0)
                    == Int64(tag + 1))
        }
        func check(_ journal: EventJournal) throws {
            let found = try JournalFiles.entries(journal)
            #expect(found.map(\.payload.count) == sizes)
            for (tag, entry) in found.enumerated() {
                #expect(JournalFiles.same(entry.payload, JournalFiles.payload(sizes[tag], tag: tag)))
            }
        }
        try check(journal)
        let first = try JournalFiles.layout(try #require(try files.paths().first))
        #expect(first.seqs == [1, 2, 3] && first.entriesEnd == first.size)
        journal.close()
        let reopened = try EventJournal(
            databasePath: files.databasePath, minimumSeq: 0, segmentBytes: segmentBytes)
        defer { reopened.close() }
        try check(reopened)
        #expect(try reopened.append(payload: [1], committedMs: 0) == Int64(sizes.count + 1))
    }

    @Test("on a journal full by the test capacity an append fails with ENOSPC and leaves nothing")
    func testCapacity() throws {
        let files = try JournalFiles()
        let journal = try EventJournal(databasePath: files.databasePath, minimumSeq: 0)
        try journal.appendPayloads(tags: 0..<2, bytes: 100)
        let before = journal.sizeBytes
        journal.setCapacity(before + 50)
        let error = #expect(throws: StoreError.self) {
            try journal.append(payload: JournalFiles.payload(100, tag: 2), committedMs: 0)
        }
        #expect(error?.posixCode == ENOSPC)
        #expect(journal.sizeBytes == before)
        let file = try #require(try files.paths().last)
        let layout = try JournalFiles.layout(file)
        #expect(layout.seqs == [1, 2] && layout.zerosAfter)
        journal.setCapacity(nil)
        #expect(try journal.append(payload: JournalFiles.payload(100, tag: 3), committedMs: 0) == 3)
        journal.close()
        let reopened = try EventJournal(databasePath: files.databasePath, minimumSeq: 0)
        defer { reopened.close() }
        #expect(
            try JournalFiles.entries(reopened).map(\.payload)
                == [0, 1, 3].map { JournalFiles.payload(100, tag: $0) })
    }

    // Mounting a tmpfs needs root (CAP_SYS_ADMIN), as the end-to-end full-disk test does.
    @Test(
        "on a really full disk the allocation fails the append with ENOSPC, never a SIGBUS, and nothing is lost",
        .enabled(if: getuid() == 0, "mounting a tmpfs needs root"))
    func fullDisk() throws {
        let folder = try TemporaryFolder()
        let mountPoint = folder.url.appendingPathComponent("fs").path
        try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: true)
        try Self.run("/bin/mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", mountPoint)
        defer { try? Self.run("/bin/umount", "-l", mountPoint) }
        let path = mountPoint + "/progress.sqlite3"

        let journal = try EventJournal(databasePath: path, minimumSeq: 0)
        #expect(try journal.append(payload: JournalFiles.payload(100, tag: 0), committedMs: 0) == 1)
        try Self.fill(mountPoint + "/junk")
        // The chunk allocated before the disk filled takes entries; the next one cannot be had.
        var acknowledged: [Int] = [0]
        var failure: StoreError?
        for tag in 1..<40 {
            do {
                _ = try journal.append(payload: JournalFiles.payload(100_000, tag: tag), committedMs: 0)
                acknowledged.append(tag)
            } catch {
                failure = error
                break
            }
        }
        #expect(failure?.posixCode == ENOSPC, "\(String(describing: failure))")
        #expect(acknowledged.count > 5, "the allocated chunk took entries")
        let file = try #require(
            try FileManager.default.contentsOfDirectory(atPath: mountPoint)
                .first { $0.contains("-journal.") })
        let layout = try JournalFiles.layout(mountPoint + "/" + file)
        #expect(layout.seqs.count == acknowledged.count && layout.zerosAfter && layout.size == chunk)

        try FileManager.default.removeItem(atPath: mountPoint + "/junk")
        #expect(try journal.append(payload: JournalFiles.payload(100_000, tag: 99), committedMs: 0) > 0)
        acknowledged.append(99)
        journal.abandon()
        let reopened = try EventJournal(databasePath: path, minimumSeq: 0)
        defer { reopened.close() }
        #expect(
            try JournalFiles.entries(reopened).map(\.payload)
                == acknowledged.map { JournalFiles.payload($0 == 0 ? 100 : 100_000, tag: $0) })
    }

    /// Writes junk to `path` until the file system has not one byte left.
    private static func fill(_ path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        try #require(fd >= 0)
        defer { close(fd) }
        let block = [UInt8](repeating: 0xA5, count: 1 << 16)
        var size = block.count
        while size > 0 {
            if block.withUnsafeBytes({ write(fd, $0.baseAddress, size) }) < 0 {
                try #require(errno == ENOSPC)
                size /= 2
            }
        }
    }

    private static func run(_ tool: String, _ arguments: String...) throws {
        let outcome = try ChildProcess.run(tool, arguments)
        try #require(
            outcome.status == 0, "\(tool) \(arguments) exited \(outcome.status): \(outcome.errorText)")
    }
}
