import Foundation
import ProgressStore
import Testing

@testable import EmbeddedStore

/// The event journal's files as another process finds them on disk: read with `open` and
/// `read`, not through the journal.
struct JournalFiles {
    let folder: TemporaryFolder

    /// A temporary folder with the database's folder already made (the journal alone does not
    /// make it).
    init() throws {
        folder = try TemporaryFolder()
        try FileManager.default.createDirectory(
            atPath: URL(fileURLWithPath: folder.databasePath).deletingLastPathComponent().path,
            withIntermediateDirectories: true)
    }

    /// The files in `folder`, made elsewhere.
    init(folder: TemporaryFolder) {
        self.folder = folder
    }

    var databasePath: String { folder.databasePath }

    /// The segment files, oldest first.
    func paths() throws -> [String] {
        let path = URL(fileURLWithPath: folder.databasePath).deletingLastPathComponent().path
        return try FileManager.default.contentsOfDirectory(atPath: path).filter { $0.contains("-journal.") }
            .sorted { Int($0.split(separator: ".").last!)! < Int($1.split(separator: ".").last!)! }
            .map { path + "/" + $0 }
    }

    static func size(_ path: String) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
    }

    static func bytes(_ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// What a file holds: its sound entries' seqs from the start on, where they end, and
    /// whether everything after them is zero.
    struct Layout: Equatable {
        var seqs: [Int64]
        var entriesEnd: Int
        var size: Int
        var zerosAfter: Bool
    }

    static func layout(_ path: String) throws -> Layout {
        let bytes = try bytes(path)
        return bytes.withUnsafeBytes { data in
            var position = 0
            var seqs: [Int64] = []
            while let frame = EventJournal.soundFrame(in: data, at: position) {
                seqs.append(frame.seq)
                position += frame.total
            }
            return Layout(
                seqs: seqs, entriesEnd: position, size: bytes.count,
                zerosAfter: bytes[position...].allSatisfy { $0 == 0 })
        }
    }

    /// Every entry of `journal`, read back (with `pread`, through its own descriptors).
    static func entries(_ journal: EventJournal) throws -> [EventJournal.Entry] {
        var entries: [EventJournal.Entry] = []
        try journal.entries(after: 0) { entry throws(StoreError) in entries.append(entry) }
        return entries
    }

    /// A payload of `count` bytes that says which entry it is, at its start and at its end.
    static func payload(_ count: Int, tag: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: UInt8(truncatingIfNeeded: tag), count: count)
        bytes[0] = 0xA5
        bytes[count - 1] = UInt8(truncatingIfNeeded: count)
        return bytes
    }

    /// Byte equality without walking a large array element by element (debug builds).
    static func same(_ one: [UInt8], _ other: [UInt8]) -> Bool {
        one.count == other.count
            && one.withUnsafeBytes { a in
                other.withUnsafeBytes { b in
                    a.count == 0 || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0
                }
            }
    }
}

extension EventJournal {
    /// Appends `JournalFiles.payload(bytes, tag:)` for each tag, committed at 0 (a test's filling).
    func appendPayloads(tags: Range<Int>, bytes: Int) throws {
        for tag in tags { _ = try append(payload: JournalFiles.payload(bytes, tag: tag), committedMs: 0) }
    }
}
