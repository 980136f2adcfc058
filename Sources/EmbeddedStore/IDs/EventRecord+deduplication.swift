import Foundation
import ProgressStore

extension EventRecord {
    /// What makes a repeat a repeat: the client's id within its article and reader, so that two
    /// readers whose apps both number events from 1 do not cancel each other out. Lengths are
    /// spelled out so that no two (article, reader, id) triples share a key:
    /// `<bytes>:<article><bytes>:<reader><id>`. Saved ids and journal replays depend on it.
    var deduplicationKey: String? {
        withDeduplicationKey { String(decoding: $0, as: UTF8.self) }
    }

    /// `body` applied to the bytes of ``deduplicationKey``, made in a temporary buffer (on the
    /// stack unless it is large) rather than as a `String`; `nil` when the event has no id.
    /// One closure deep: nesting a closure for each string's bytes had every level copy the
    /// record.
    func withDeduplicationKey<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result? {
        guard let id = eventID else { return nil }
        let (article, reader) = (self.article, self.reader)
        let articleBytes = article.utf8.count
        let readerBytes = reader.utf8.count
        // Each count takes at most 20 digits and a colon.
        let capacity = articleBytes + readerBytes + id.utf8.count + 2 * 21
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
            var end = 0
            end = Self.write(count: articleBytes, into: buffer, at: end)
            end = Self.write(utf8Of: article, into: buffer, at: end)
            end = Self.write(count: readerBytes, into: buffer, at: end)
            end = Self.write(utf8Of: reader, into: buffer, at: end)
            end = Self.write(utf8Of: id, into: buffer, at: end)
            return body(UnsafeBufferPointer(rebasing: buffer[..<end]))
        }
    }

    /// Writes `string`'s bytes at `end`; returns the new end.
    private static func write(
        utf8Of string: String, into buffer: UnsafeMutableBufferPointer<UInt8>, at end: Int
    )
        -> Int
    {
        let copied = string.utf8.withContiguousStorageIfAvailable { bytes -> Int in
            guard let base = bytes.baseAddress else { return 0 }
            (buffer.baseAddress! + end).initialize(from: base, count: bytes.count)
            return bytes.count
        }
        if let copied { return end + copied }
        var index = end
        for byte in string.utf8 {
            buffer[index] = byte
            index += 1
        }
        return index
    }

    /// Writes `count` in decimal and a colon at `end`; returns the new end.
    private static func write(count: Int, into buffer: UnsafeMutableBufferPointer<UInt8>, at end: Int) -> Int
    {
        var digits = 1
        var rest = count
        while rest >= 10 {
            rest /= 10
            digits += 1
        }
        var value = count
        for position in stride(from: end + digits - 1, through: end, by: -1) {
            buffer[position] = UInt8(ascii: "0") + UInt8(value % 10)
            value /= 10
        }
        buffer[end + digits] = UInt8(ascii: ":")
        return end + digits + 1
    }
}

/// The article and reader a deduplication key names (see
/// ``EventRecord/deduplicationKey``), read back from its bytes.
enum DeduplicationKey {
    /// The article's and the reader's bytes in `key`, or nil for bytes not made as a key.
    static func parts(_ key: UnsafeBufferPointer<UInt8>) -> (
        article: UnsafeBufferPointer<UInt8>, reader: UnsafeBufferPointer<UInt8>
    )? {
        var offset = 0
        func counted() -> UnsafeBufferPointer<UInt8>? {
            var length = 0
            while offset < key.count, key[offset] != UInt8(ascii: ":") {
                let digit = Int(key[offset]) - Int(UInt8(ascii: "0"))
                guard (0...9).contains(digit), length < 1 << 20 else { return nil }
                length = length * 10 + digit
                offset += 1
            }
            guard offset < key.count, offset + 1 + length <= key.count else { return nil }
            let start = offset + 1
            offset = start + length
            return UnsafeBufferPointer(rebasing: key[start..<offset])
        }
        guard let article = counted(), let reader = counted() else { return nil }
        return (article, reader)
    }
}

extension Erasure {
    /// Whether this erasure takes the pair `article`, `reader`.
    func covers(article: String, reader: String) -> Bool {
        switch self {
        case .reader(let erased): bytesEqual(erased, reader)
        case .article(let erased): bytesEqual(erased, article)
        }
    }

    /// Whether this erasure takes the pair the deduplication key `key` belongs to.
    func covers(key: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let (article, reader) = DeduplicationKey.parts(key) else { return false }
        let erased: String
        let named: UnsafeBufferPointer<UInt8>
        switch self {
        case .reader(let id): (erased, named) = (id, reader)
        case .article(let id): (erased, named) = (id, article)
        }
        return withUTF8(of: erased) { erased in
            erased.count == named.count
                && (erased.isEmpty || memcmp(erased.baseAddress!, named.baseAddress!, erased.count) == 0)
        }
    }
}
