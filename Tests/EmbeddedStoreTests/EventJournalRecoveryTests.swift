import Foundation
import ProgressStore
import Testing

@testable import EmbeddedStore

/// What start-up makes of a journal's bytes: entries of every size, tails a crash leaves,
/// and damage it must not mistake for one.
@Suite("The event journal at start-up")
struct EventJournalRecoveryTests {
    /// A folder whose database folder is made (`JournalFiles`).
    private func makeFolder() throws -> TemporaryFolder {
        try JournalFiles().folder
    }

    private func journalFiles(_ folder: TemporaryFolder) throws -> [String] {
        try JournalFiles(folder: folder).paths()
    }

    private func size(_ path: String) throws -> Int {
        try JournalFiles.size(path)
    }

    @Test("CRC-32 is zlib's, on every length the eight-byte loop and its tail can see")
    func crc32() {
        func crc(_ bytes: [UInt8]) -> UInt32 { bytes.withUnsafeBytes { CRC32.checksum($0) } }
        #expect(crc([]) == 0)
        #expect(crc(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(crc(Array("The quick brown fox jumps over the lazy dog".utf8)) == 0x414F_A339)
        // Bit by bit, as the definition goes.
        func reference(_ bytes: [UInt8]) -> UInt32 {
            var crc: UInt32 = 0xFFFF_FFFF
            for byte in bytes {
                crc ^= UInt32(byte)
                for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
            }
            return ~crc
        }
        var generator = SystemRandomNumberGenerator()
        for count in 0..<70 {
            let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
            #expect(crc(bytes) == reference(bytes), "\(count) bytes")
        }
    }

    @Test(
        "entries around and beyond the 4 MiB read size come back whole, across segments and reopening",
        arguments: [64 << 20, 6 << 20] as [Int64])
    func largeEntries(segmentBytes: Int64) throws {
        let folder = try makeFolder()
        let read = 4 << 20
        let header = EventJournal.headerBytes
        // Frames that end just before, on and just after the read size, larger than one read,
        // several reads long, and small ones between them.
        let sizes = [
            read - header - 100, 10, read - header, read - header + 1, 9 << 20, 10, read + 1, 3 << 20,
            3 << 20, 1, read - 2 * header, 7,
        ]
        let journal = try EventJournal(
            databasePath: folder.databasePath, minimumSeq: 0, segmentBytes: segmentBytes)
        for (tag, count) in sizes.enumerated() {
            #expect(
                try journal.append(payload: JournalFiles.payload(count, tag: tag), committedMs: Int64(tag))
                    == Int64(tag + 1))
        }
        func check(_ journal: EventJournal) throws {
            let found = try JournalFiles.entries(journal)
            #expect(found.map(\.payload.count) == sizes)
            try #require(found.map(\.seq) == Array(1...Int64(sizes.count)))
            for (tag, entry) in found.enumerated() {
                #expect(
                    JournalFiles.same(entry.payload, JournalFiles.payload(sizes[tag], tag: tag))
                        && entry.committedMs == Int64(tag))
            }
        }
        try check(journal)
        journal.close()
        let reopened = try EventJournal(
            databasePath: folder.databasePath, minimumSeq: 0, segmentBytes: segmentBytes)
        try check(reopened)
        #expect(reopened.upcomingSeq == Int64(sizes.count + 1))
        reopened.close()

        // A large last entry cut short, as a kill in the middle of its write leaves it.
        let big = try EventJournal(
            databasePath: folder.databasePath, minimumSeq: 0, segmentBytes: segmentBytes)
        #expect(
            try big.append(payload: JournalFiles.payload(6 << 20, tag: 99), committedMs: 0)
                == Int64(sizes.count + 1))
        big.close()
        // The segment it went to: the last one that is not empty. The kill comes before the
        // write ends, so before a new segment would have started after it.
        let last = try #require(try journalFiles(folder).last { try size($0) > 0 })
        for file in try journalFiles(folder).drop(while: { $0 != last }).dropFirst() {
            try FileManager.default.removeItem(atPath: file)
        }
        let intact = try size(last) - (header + (6 << 20))
        try #require(intact >= 0)
        #expect(truncate(last, off_t(intact + header + (5 << 20))) == 0)
        let cut = try EventJournal(
            databasePath: folder.databasePath, minimumSeq: 0, segmentBytes: segmentBytes)
        defer { cut.close() }
        try check(cut)
        #expect(try size(last) == intact)
        #expect(cut.upcomingSeq == Int64(sizes.count + 1))
    }

    @Test("a whole last frame that fails its checksum is a torn write: cut off, the rest kept")
    func badLastFrame() throws {
        let folder = try makeFolder()
        let journal = try EventJournal(databasePath: folder.databasePath, minimumSeq: 0)
        try journal.appendPayloads(tags: 0..<5, bytes: 30)
        journal.close()
        let file = try #require(try journalFiles(folder).last)
        let intact = try size(file)
        // A header that looks right — the next seq, a length that ends at the end of the file —
        // over bytes that never made it.
        var frame: [UInt8] = []
        withUnsafeBytes(of: UInt32(40).littleEndian) { frame += $0 }
        withUnsafeBytes(of: UInt32(0x1234_5678).littleEndian) { frame += $0 }
        withUnsafeBytes(of: Int64(6).littleEndian) { frame += $0 }
        withUnsafeBytes(of: Int64(0).littleEndian) { frame += $0 }
        frame += [UInt8](repeating: 0, count: 40)
        let handle = try #require(FileHandle(forWritingAtPath: file))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(frame))
        try handle.close()

        let reopened = try EventJournal(databasePath: folder.databasePath, minimumSeq: 0)
        defer { reopened.close() }
        #expect(try size(file) == intact)
        #expect(try JournalFiles.entries(reopened).map(\.seq) == [1, 2, 3, 4, 5])
        #expect(try reopened.append(payload: JournalFiles.payload(3, tag: 0), committedMs: 0) == 6)
    }

    /// Where in an entry a bit flips: its checksum-covered bytes, or its length.
    enum Flip: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case payload
        case length

        var testDescription: String { rawValue }
    }

    @Test(
        "damage in the middle of the last segment stops start-up instead of cutting off the entries after it",
        arguments: Flip.allCases)
    func damageInLastSegment(flip: Flip) throws {
        let folder = try makeFolder()
        let journal = try EventJournal(databasePath: folder.databasePath, minimumSeq: 0)
        try journal.appendPayloads(tags: 0..<20, bytes: 50)
        journal.close()
        let files = try journalFiles(folder)
        #expect(files.count == 1)
        let file = try #require(files.last)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: file))
        let frame = EventJournal.headerBytes + 50
        switch flip {
        case .payload: bytes[5 * frame + EventJournal.headerBytes + 3] ^= 0x10
        // A length that reaches past the end of the file: the entry looks torn.
        case .length: bytes[5 * frame + 2] ^= 0x01
        }
        try bytes.write(to: URL(fileURLWithPath: file))

        #expect(throws: StoreError.self) {
            try EventJournal(databasePath: folder.databasePath, minimumSeq: 0)
        }
        #expect(try size(file) == 20 * frame, "nothing is cut off")
    }
}

@Suite("The event journal on a failing disk")
struct EventJournalFaultTests {
    @Test("a write that fails half-way and cannot be cut off stops appends until it can")
    func uncutFailedWrite() throws {
        let folder = try TemporaryFolder()
        let path = folder.databasePath
        try FileManager.default.createDirectory(
            atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path,
            withIntermediateDirectories: true)
        let journal = try EventJournal(databasePath: path, minimumSeq: 0)
        let payload = EventLogCodec.encode([event("/a", "r")])
        #expect(try journal.append(payload: payload, committedMs: 0) == 1)
        // Half an entry reaches the file, and the ftruncate meant to take it back fails.
        journal.setFaults(.init(writeStopsAfter: 30, truncateFails: true))
        #expect(throws: StoreError.self) { try journal.append(payload: payload, committedMs: 0) }
        // An entry after those bytes would be acknowledged, and then cut off at the next start
        // with them as a torn tail (or stop it as damage): no append until they are gone.
        #expect(throws: StoreError.self) { try journal.append(payload: payload, committedMs: 0) }
        journal.setFaults(.init())
        #expect(try journal.append(payload: payload, committedMs: 0) == 2)
        #expect(try journal.append(payload: payload, committedMs: 0) == 3)
        journal.close()

        let reopened = try EventJournal(databasePath: path, minimumSeq: 0)
        defer { reopened.close() }
        var seqs: [Int64] = []
        try reopened.entries(after: 0) { entry throws(StoreError) in seqs.append(entry.seq) }
        #expect(seqs == [1, 2, 3])
    }
}
