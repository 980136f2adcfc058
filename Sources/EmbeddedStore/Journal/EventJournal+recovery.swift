import Foundation
import ProgressStore

/// What start-up finds on disk: the segments, and in each the whole, sound entries — a torn end
/// or the zeros allocated after the last entry cut off, damage anywhere else refused.
extension EventJournal {
    /// The segments on disk, oldest first.
    static func existingSegments(prefix: String?) throws(StoreError) -> [(Int64, String)] {
        guard let prefix else { return [] }
        let url = URL(fileURLWithPath: prefix)
        let folder = url.deletingLastPathComponent().path
        let stem = url.lastPathComponent
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder)
        } catch {
            throw StoreError.posix(EIO, "cannot list \(folder): \(error)")
        }
        return names.compactMap { name -> (Int64, String)? in
            guard name.hasPrefix(stem), let seq = Int64(name.dropFirst(stem.count)), seq > 0 else {
                return nil
            }
            return (seq, folder + "/" + name)
        }.sorted { $0.0 < $1.0 }
    }

    /// Checks every entry of `segment`; returns the end of its whole entries and the last seq.
    /// Zeros after the last entry of the last segment are room the writer had allocated for
    /// the next entries (a killed process leaves them): they are cut off. A bad or short entry
    /// at the end of the last segment, with only zeros after it, is a write the process or the
    /// machine did not finish: it was never acknowledged, so it is cut off too. Anywhere else it
    /// is damage, and the store refuses to start rather than skip acknowledged events — also in
    /// the last segment when a sound entry with a later seq follows the bad one, as one never
    /// follows a torn write (the last thing written). (With `--fsync-commits`, a power cut can
    /// in principle keep a later unsynced entry and lose an earlier one; both were
    /// unacknowledged, and start-up then refuses too: a false alarm, never a silent loss.)
    func scan(_ segment: Segment, isLast: Bool, cutTornEnd: Bool) throws(StoreError) -> (
        Int64, Int64?
    ) {
        var stat = stat()
        guard fstat(segment.fd, &stat) == 0 else { throw Self.error("cannot stat the event journal") }
        let size = Int64(stat.st_size)
        var offset: Int64 = 0
        var lastSeq: Int64?
        while offset < size {
            let chunk = try readEntries(fd: segment.fd, from: offset, to: size, maxEntries: 4096)
            if let seq = chunk.entries.last?.seq { lastSeq = seq }
            if chunk.offset == offset { break }  // what follows is not a whole, sound entry
            offset = chunk.offset
        }
        if offset < size, cutTornEnd {
            let lastSound = lastSeq ?? segment.firstSeq - 1
            var isTornEnd = false
            if isLast {
                // The search for a later sound entry would find none in zeros either; but the
                // common case after a kill is only zeros, and this says so at a glance.
                isTornEnd = try Self.onlyZeros(fd: segment.fd, from: offset, to: size)
                if !isTornEnd {
                    isTornEnd = try !soundEntryFollows(
                        fd: segment.fd, from: offset, to: size, after: lastSound)
                }
            }
            guard isTornEnd else {
                throw StoreError.corrupt(
                    "event journal segment \(segment.path ?? "") is damaged at byte \(offset) of \(size), "
                        + "before entries that are sound; nothing was cut off")
            }
            guard ftruncate(segment.fd, off_t(offset)) == 0 else {
                throw Self.error("cannot cut the torn end off the event journal")
            }
        }
        return (offset, lastSeq)
    }

    /// Whether the bytes of `fd` in `from..<to` are all zero.
    static func onlyZeros(fd: Int32, from: Int64, to: Int64) throws(StoreError) -> Bool {
        let zeros = [UInt8](repeating: 0, count: Int(min(to - from, 1 << 20)))
        var bytes = zeros
        var offset = from
        while offset < to {
            let count = Int(min(to - offset, Int64(bytes.count)))
            let got = bytes.withUnsafeMutableBytes {
                readAll(fd, UnsafeMutableRawBufferPointer(rebasing: $0[..<count]), at: offset)
            }
            guard got >= 0 else { throw error("reading the event journal failed") }
            guard got == count, memcmp(bytes, zeros, count) == 0 else { return false }
            offset += Int64(count)
        }
        return true
    }

    /// Whether a sound entry with a seq after `lastSeq` starts anywhere in `from..<to` after its
    /// first byte: then the bad entry at `from` is damage, not a torn write. Start-up only, and
    /// only when an entry failed; reads the rest of the segment.
    func soundEntryFollows(fd: Int32, from: Int64, to: Int64, after lastSeq: Int64) throws(StoreError)
        -> Bool
    {
        var bytes = [UInt8](repeating: 0, count: Int(to - from))
        let got = bytes.withUnsafeMutableBytes { Self.readAll(fd, $0, at: from) }
        guard got >= 0 else { throw Self.error("reading the event journal failed") }
        // Entries take at least a header each: no later seq can be larger than this.
        let highest = lastSeq + 1 + Int64(got / Self.headerBytes)
        return bytes.withUnsafeBytes { raw in
            let data = UnsafeRawBufferPointer(rebasing: raw[..<got])
            var position = 1
            while position + Self.headerBytes <= data.count {
                defer { position += 1 }
                let seq = Int64(
                    littleEndian: data.loadUnaligned(fromByteOffset: position + 8, as: Int64.self))
                // The seq bounds come first: the checksum is costly, and most positions fail them.
                guard seq > lastSeq, seq <= highest else { continue }
                if Self.soundFrame(in: data, at: position) != nil { return true }
            }
            return false
        }
    }
}
