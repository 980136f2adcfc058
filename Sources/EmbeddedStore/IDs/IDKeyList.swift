import ProgressStore

/// Event-id deduplication keys with the times they were acknowledged, packed one after the other
/// in one buffer — as the writer gathers them for the next checkpoint and as a checkpoint saves
/// them (a `recent_id_chunks` blob is a version byte and these bytes). One allocation for
/// thousands of ids, where a `String` each cost an allocation, and a row each cost the
/// checkpointer a B-tree insert about as dear as the event's whole ingest.
///
/// Each entry: the time (ms since the epoch, Int64) and the key's length (UInt32), little-endian,
/// then the key's bytes.
struct IDKeyList: Sendable {
    private(set) var bytes: [UInt8] = []
    private(set) var count = 0
    /// The latest time of any entry (`Int64.min` when empty).
    private(set) var newestMs = Int64.min

    static let headerBytes = 12
    /// The version byte that begins a saved blob.
    static let blobVersion: UInt8 = 1

    init() {}

    /// `ids` in the given order.
    init(_ ids: [(key: ExactKey, seenMs: Int64)]) {
        for (key, seenMs) in ids { withUTF8(of: key.string) { append($0, seenMs: seenMs) } }
    }

    var isEmpty: Bool { count == 0 }

    /// The time of the first entry (the oldest, where entries come in the order acknowledged).
    var firstSeenMs: Int64? {
        isEmpty ? nil : bytes.withUnsafeBytes { Int64(littleEndian: $0.loadUnaligned(as: Int64.self)) }
    }

    mutating func append(_ key: UnsafeBufferPointer<UInt8>, seenMs: Int64) {
        Self.appendEntry(key, seenMs: seenMs, to: &bytes)
        count += 1
        newestMs = max(newestMs, seenMs)
    }

    mutating func append(contentsOf other: IDKeyList) {
        bytes.append(contentsOf: other.bytes)
        count += other.count
        newestMs = max(newestMs, other.newestMs)
    }

    /// Where the list ends now, to ``truncate(to:)`` back to.
    var mark: (bytes: Int, count: Int, newestMs: Int64) { (bytes.count, count, newestMs) }

    /// Drops the entries appended since `mark`.
    mutating func truncate(to mark: (bytes: Int, count: Int, newestMs: Int64)) {
        bytes.removeSubrange(mark.bytes...)
        count = mark.count
        newestMs = mark.newestMs
    }

    /// Calls `body` with each key and its time, in order.
    func forEachKey<Failure: Error>(_ body: (UnsafeBufferPointer<UInt8>, Int64) throws(Failure) -> Void)
        throws(Failure)
    {
        try bytes.withUnsafeBufferPointer { buffer throws(Failure) in
            let raw = UnsafeRawBufferPointer(buffer)
            var offset = 0
            while offset < raw.count {
                let seenMs = Int64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: Int64.self))
                let length = Int(
                    UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: offset + 8, as: UInt32.self)))
                let start = offset + Self.headerBytes
                try body(UnsafeBufferPointer(rebasing: buffer[start..<start + length]), seenMs)
                offset = start + length
            }
        }
    }

    /// The entries acknowledged after `horizon`.
    /// The keys `keep` keeps, in order.
    func filter(_ keep: (UnsafeBufferPointer<UInt8>) -> Bool) -> IDKeyList {
        var kept = IDKeyList()
        forEachKey { key, seenMs in
            if keep(key) { kept.append(key, seenMs: seenMs) }
        }
        return kept
    }

    func seen(after horizon: Int64) -> IDKeyList {
        guard newestMs > horizon else { return IDKeyList() }
        var kept = IDKeyList()
        forEachKey { key, seenMs in if seenMs > horizon { kept.append(key, seenMs: seenMs) } }
        return kept
    }

    /// Calls `body` with the entries as blobs to save, one at a time (so that only one is held
    /// at once besides the list): the version byte and up to about `maxBytes` of entries each,
    /// with the latest time in each.
    func forEachBlob<Failure: Error>(maxBytes: Int, _ body: ([UInt8], Int64) throws(Failure) -> Void)
        throws(Failure)
    {
        var blob: [UInt8] = [Self.blobVersion]
        var newestMs = Int64.min
        try forEachKey { (key, seenMs) throws(Failure) in
            if blob.count > 1 && blob.count - 1 + Self.headerBytes + key.count > maxBytes {
                try body(blob, newestMs)
                blob = [Self.blobVersion]
                newestMs = .min
            }
            Self.appendEntry(key, seenMs: seenMs, to: &blob)
            newestMs = max(newestMs, seenMs)
        }
        if blob.count > 1 { try body(blob, newestMs) }
    }

    private static func appendEntry(_ key: UnsafeBufferPointer<UInt8>, seenMs: Int64, to bytes: inout [UInt8])
    {
        withUnsafeBytes(of: seenMs.littleEndian) { bytes.append(contentsOf: $0) }
        withUnsafeBytes(of: UInt32(key.count).littleEndian) { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: key)
    }

    /// The list a saved blob holds; throws when it is not one.
    init(blob: UnsafeRawBufferPointer) throws(StoreError) {
        func damaged(_ detail: String) -> StoreError {
            StoreError.corrupt("a saved chunk of event ids is damaged: \(detail)")
        }
        guard blob.first == Self.blobVersion else {
            throw damaged("unknown version \(blob.first.map(String.init) ?? "none")")
        }
        var offset = 1
        while offset < blob.count {
            guard blob.count - offset >= Self.headerBytes else {
                throw damaged("a cut entry at byte \(offset)")
            }
            let seenMs = Int64(littleEndian: blob.loadUnaligned(fromByteOffset: offset, as: Int64.self))
            let length = Int(
                UInt32(littleEndian: blob.loadUnaligned(fromByteOffset: offset + 8, as: UInt32.self)))
            let start = offset + Self.headerBytes
            guard length > 0, blob.count - start >= length else {
                throw damaged("a key past the end at byte \(offset)")
            }
            UnsafeRawBufferPointer(rebasing: blob[start..<start + length]).withMemoryRebound(to: UInt8.self) {
                append($0, seenMs: seenMs)
            }
            offset = start + length
        }
    }
}
