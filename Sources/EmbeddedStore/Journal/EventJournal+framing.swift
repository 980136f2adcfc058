import Foundation
import ProgressStore

/// How entries sit in a segment file: the frame (length, CRC-32, seq, commit time, payload),
/// laying one out, and reading whole runs of them back.
extension EventJournal {
    /// Reads whole, sound entries of `fd` between `from` and `to`; stops early at `maxEntries`
    /// or at the first entry that is short or fails its checksum.
    func readEntries(fd: Int32, from: Int64, to: Int64, maxEntries: Int) throws(StoreError) -> (
        entries: [Entry], offset: Int64
    ) {
        let span = Int(min(to - from, 4 << 20))
        var bytes = [UInt8](repeating: 0, count: span)
        let got = bytes.withUnsafeMutableBytes { Self.readAll(fd, $0, at: from) }
        guard got >= 0 else { throw Self.error("reading the event journal failed") }
        var entries: [Entry] = []
        var position = 0
        bytes.withUnsafeBytes { raw in
            let data = UnsafeRawBufferPointer(rebasing: raw[..<got])
            while entries.count < maxEntries, let frame = Self.soundFrame(in: data, at: position) {
                entries.append(frame.entry(in: data))
                position += frame.total
            }
        }
        if entries.isEmpty, position == 0, got == span, span < to - from {
            // An entry larger than one read: read exactly it.
            return try readLargeEntry(fd: fd, at: from, limit: to)
        }
        return (entries, from + Int64(position))
    }

    func readLargeEntry(fd: Int32, at offset: Int64, limit: Int64) throws(StoreError) -> (
        entries: [Entry], offset: Int64
    ) {
        var header = [UInt8](repeating: 0, count: Self.headerBytes)
        guard header.withUnsafeMutableBytes({ Self.readAll(fd, $0, at: offset) }) == Self.headerBytes else {
            return ([], offset)
        }
        let length = header.withUnsafeBytes { Int($0.loadUnaligned(as: UInt32.self).littleEndian) }
        guard offset + Int64(Self.headerBytes + length) <= limit else { return ([], offset) }
        return try readEntriesExactly(fd: fd, from: offset, count: Self.headerBytes + length)
    }

    func readEntriesExactly(fd: Int32, from: Int64, count: Int) throws(StoreError) -> (
        entries: [Entry], offset: Int64
    ) {
        var bytes = [UInt8](repeating: 0, count: count)
        guard bytes.withUnsafeMutableBytes({ Self.readAll(fd, $0, at: from) }) == count else {
            return ([], from)
        }
        return bytes.withUnsafeBytes { data in
            guard let frame = Self.soundFrame(in: data, at: 0), frame.total == count else {
                return ([], from)
            }
            return ([frame.entry(in: data)], from + Int64(count))
        }
    }

    /// Where one whole entry lies in a buffer read from a segment.
    struct Frame {
        var position: Int
        var total: Int
        var seq: Int64

        func entry(in data: UnsafeRawBufferPointer) -> Entry {
            Entry(
                seq: seq,
                committedMs: Int64(
                    littleEndian: data.loadUnaligned(fromByteOffset: position + 16, as: Int64.self)),
                payload: [UInt8](
                    UnsafeRawBufferPointer(rebasing: data[(position + headerBytes)..<(position + total)])))
        }
    }

    /// The entry starting at `position` of `data`, if it is whole there and its checksum holds —
    /// the one test of soundness reading, start-up and the damage search share.
    static func soundFrame(in data: UnsafeRawBufferPointer, at position: Int) -> Frame? {
        guard position + headerBytes <= data.count else { return nil }
        let length = Int(data.loadUnaligned(fromByteOffset: position, as: UInt32.self).littleEndian)
        let total = headerBytes + length
        guard total <= data.count - position else { return nil }
        let checksum = data.loadUnaligned(fromByteOffset: position + 4, as: UInt32.self).littleEndian
        guard
            CRC32.checksum(UnsafeRawBufferPointer(rebasing: data[(position + 8)..<(position + total)]))
                == checksum
        else { return nil }
        let seq = Int64(littleEndian: data.loadUnaligned(fromByteOffset: position + 8, as: Int64.self))
        return Frame(position: position, total: total, seq: seq)
    }

    /// Lays out one entry in `destination`, which is exactly its size — in the active
    /// segment's mapping, where the checksum is then computed over the bytes just copied.
    static func frame(
        seq: Int64, committedMs: Int64, payload: [UInt8], into destination: UnsafeMutableRawBufferPointer
    ) {
        destination.storeBytes(of: UInt32(truncatingIfNeeded: payload.count).littleEndian, as: UInt32.self)
        destination.storeBytes(of: seq.littleEndian, toByteOffset: 8, as: Int64.self)
        destination.storeBytes(of: committedMs.littleEndian, toByteOffset: 16, as: Int64.self)
        payload.withUnsafeBytes { bytes in
            guard let source = bytes.baseAddress else { return }
            (destination.baseAddress! + headerBytes).copyMemory(from: source, byteCount: bytes.count)
        }
        let checksum = CRC32.checksum(UnsafeRawBufferPointer(rebasing: destination[8...]))
        destination.storeBytes(of: checksum.littleEndian, toByteOffset: 4, as: UInt32.self)
    }

    /// Reads up to `bytes.count` bytes at `offset`; how many, or -1.
    static func readAll(_ fd: Int32, _ bytes: UnsafeMutableRawBufferPointer, at offset: Int64) -> Int {
        var done = 0
        while done < bytes.count {
            let count = pread(fd, bytes.baseAddress! + done, bytes.count - done, off_t(offset) + off_t(done))
            if count < 0 {
                if errno == EINTR { continue }
                return -1
            }
            if count == 0 { break }
            done += count
        }
        return done
    }
}
