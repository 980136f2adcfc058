#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The reader ids of one article, interned as slots 0, 1, 2, … in the order they first appear.
///
/// A `Dictionary<String, Int32>` costs a 16-byte key, a value and its load-factor slack per
/// reader, plus a heap object for every id longer than 15 bytes (most real ids): 60–100 bytes
/// before any figure. Here an id costs its UTF-8 bytes in one arena, a 4-byte end offset and
/// one 4-byte bucket of an open-addressing table (at most 3/4 full): about 10 bytes plus the id.
/// Buckets are found with the standard library's seeded `Hasher`, so ids chosen by clients
/// cannot be crafted to collide.
struct ReaderNames {
    /// Every id's UTF-8 bytes, back to back.
    fileprivate var bytes: [UInt8] = []
    /// `ends[slot]` is where that slot's bytes end; they start where the previous slot's end.
    private var ends: [UInt32] = []
    /// Slot numbers, or -1 for an empty bucket; the count is a power of two (or zero).
    private var buckets: [Int32] = []

    /// How many readers hold a slot.
    var count: Int { ends.count }

    /// The slot of `name`, adding it if new; `isNew` says which.
    mutating func slot(for name: String) -> (slot: Int32, isNew: Bool) {
        var name = name
        return name.withUTF8 { utf8 in
            let hash = Self.hash(utf8)
            if let found = lookup(utf8, hash: hash) { return (found, false) }
            return (insert(utf8, hash: hash), true)
        }
    }

    /// The id held in `slot`.
    func name(at slot: Int32) -> String {
        let range = self.range(of: slot)
        return bytes.withUnsafeBufferPointer { String(decoding: $0[range], as: UTF8.self) }
    }

    fileprivate func range(of slot: Int32) -> Range<Int> {
        let index = Int(slot)
        let start = index == 0 ? 0 : Int(ends[index - 1])
        return start..<Int(ends[index])
    }

    private static func hash(_ utf8: UnsafeBufferPointer<UInt8>) -> Int {
        var hasher = Hasher()
        hasher.combine(bytes: UnsafeRawBufferPointer(utf8))
        return hasher.finalize()
    }

    private func lookup(_ utf8: UnsafeBufferPointer<UInt8>, hash: Int) -> Int32? {
        guard !buckets.isEmpty else { return nil }
        let mask = buckets.count - 1
        var index = hash & mask
        return bytes.withUnsafeBufferPointer { arena in
            while true {
                let slot = buckets[index]
                if slot < 0 { return nil }
                let range = range(of: slot)
                if range.count == utf8.count
                    && (range.isEmpty
                        || memcmp(arena.baseAddress! + range.lowerBound, utf8.baseAddress!, range.count) == 0)
                {
                    return slot
                }
                index = (index + 1) & mask
            }
        }
    }

    private mutating func insert(_ utf8: UnsafeBufferPointer<UInt8>, hash: Int) -> Int32 {
        precondition(ends.count < Int32.max, "too many readers for one article")
        precondition(bytes.count + utf8.count <= UInt32.max, "reader ids of one article exceed 4 GiB")
        if (ends.count + 1) * 4 > buckets.count * 3 {
            grow()
        }
        let slot = Int32(ends.count)
        bytes.append(contentsOf: utf8)
        ends.append(UInt32(bytes.count))
        place(slot, hash: hash)
        return slot
    }

    private mutating func place(_ slot: Int32, hash: Int) {
        let mask = buckets.count - 1
        var index = hash & mask
        while buckets[index] >= 0 {
            index = (index + 1) & mask
        }
        buckets[index] = slot
    }

    /// Doubles the table and re-places every slot, rehashing its bytes from the arena.
    private mutating func grow() {
        buckets = Array(repeating: -1, count: max(16, buckets.count * 2))
        for slot in 0..<Int32(ends.count) {
            let hash = bytes.withUnsafeBufferPointer {
                Self.hash(UnsafeBufferPointer(rebasing: $0[range(of: slot)]))
            }
            place(slot, hash: hash)
        }
    }
}

extension ReaderNames {
    /// Whether `a`'s id sorts before `b`'s byte by byte (SQLite's BINARY order).
    func precedes(_ a: Int32, _ b: Int32) -> Bool {
        bytes.withUnsafeBufferPointer { arena in
            let (left, right) = (range(of: a), range(of: b))
            let common = min(left.count, right.count)
            let order =
                common == 0
                ? 0
                : memcmp(arena.baseAddress! + left.lowerBound, arena.baseAddress! + right.lowerBound, common)
            return order != 0 ? order < 0 : left.count < right.count
        }
    }
}
