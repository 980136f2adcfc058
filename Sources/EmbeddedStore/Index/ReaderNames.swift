import ProgressStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The reader ids of one article, interned as slots 0, 1, 2, … in the order they first appear.
///
/// A `Dictionary<String, Int32>` costs a 16-byte key, a value and its load-factor slack per
/// reader, plus a heap object for every id longer than 15 bytes: 60–100 bytes before any figure.
/// Here an id costs its UTF-8 bytes and a one-byte length in an arena, half a byte of offsets
/// (one for every 8 slots: the slots between are reached by skipping lengths) and 4-byte
/// buckets of an open-addressing table at most 7/8 full: about 7 bytes plus the id. Arenas
/// hold ``slotsPerArena`` slots each, so a snapshot shares them and a new reader copies one
/// arena at most.
///
/// A bucket holds its slot in the low bits and, above them, as many bits of the id's hash as
/// the table's size leaves free (9 at 4M buckets): probing past other ids compares those bits,
/// and reads an id's bytes only when they match, so a table this full still probes quickly.
/// Buckets are found with SipHash-1-3 under a random key, as `Hasher` finds them, so ids chosen by
/// clients cannot be crafted to collide.
struct ReaderNames {
    /// Arena `a` holds slots `a * slotsPerArena` onwards, each a LEB128 length and the id's bytes.
    private var arenas: [[UInt8]] = []
    /// `offsets[k]` is where slot `8 * k` starts in its arena.
    private var offsets = ChunkedArray<UInt32>()
    private var buckets = ChunkedArray<UInt32>()
    /// Bits of a bucket that hold the slot: the table's size is below `1 << slotBits`.
    private var slotBits = 0
    private(set) var count = 0

    static let arenaShift = 10
    static var slotsPerArena: Int { 1 << arenaShift }
    private static let empty = UInt32.max

    init() {}

    /// Names decoded from a snapshot: arenas of ``slotsPerArena`` ids (the last one of the rest)
    /// whose lengths the caller has checked, and the offsets of every 8th slot. Builds the table.
    init(arenas: [[UInt8]], offsets: ChunkedArray<UInt32>, count: Int) {
        self.arenas = arenas
        self.offsets = offsets
        self.count = count
        rebuild(capacity: count + count / 4)
    }

    /// The slot of `name`, adding it if new; `isNew` says which. `hash` is ``hash(of:)``.
    mutating func slot(for name: String, hash: UInt64) -> (slot: Int32, isNew: Bool) {
        withUTF8(of: name) { utf8 in
            if let found = lookup(utf8, hash: hash) { return (found, false) }
            return (insert(utf8, hash: hash), true)
        }
    }

    /// The slot of `name`, if it is held.
    func existingSlot(of name: String) -> Int32? {
        withUTF8(of: name) { lookup($0, hash: Self.hash(of: name)) }
    }

    /// What ``slot(for:hash:)`` and ``prefetch(_:)`` take for `name`: the same for every
    /// article.
    static func hash(of name: String) -> UInt64 {
        withUTF8(of: name) { hash($0) }
    }

    /// SipHash-1-3 under this process's key, drawn once from the system's generator.
    @inline(__always)
    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        SipHash.hash13(bytes, key: key)
    }

    private static let key = SipHash.Key.random()

    /// Starts bringing in the bucket where looking up `hash` begins: a table of millions of
    /// ids is far larger than the caches, and that bucket is a miss. Folding a batch asks for
    /// those of the events a few places ahead, so that their misses overlap.
    @inline(__always) func prefetch(_ hash: UInt64) {
        if !buckets.isEmpty { buckets.prefetch(home(hash)) }
    }

    /// The id held in `slot`.
    func name(at slot: Int32) -> String {
        withBytes(of: slot) { String(decoding: $0, as: UTF8.self) }
    }

    /// Calls `body` with the bytes of `slot`'s id.
    func withBytes<Result>(of slot: Int32, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        let index = Int(slot)
        return arenas[index >> Self.arenaShift].withUnsafeBufferPointer { arena in
            var offset = Int(offsets[index >> 3])
            for _ in 0..<index & 7 {
                let (length, size) = Self.length(in: arena, at: offset)
                offset += size + length
            }
            let (length, size) = Self.length(in: arena, at: offset)
            return body(UnsafeBufferPointer(rebasing: arena[offset + size..<offset + size + length]))
        }
    }

    /// The arenas, each a run of (LEB128 length, bytes), as ``ArticleCodec`` writes them.
    var arenaBytes: [[UInt8]] { arenas }

    /// Bytes held, counting capacity.
    var footprint: Int {
        arenas.reduce(arenas.capacity * 8) { $0 + $1.capacity } + offsets.footprint + buckets.footprint
    }

    /// The LEB128 length at `offset` and how many bytes it takes. The arena was built or
    /// checked whole: the length is there.
    @inline(__always)
    static func length(in arena: UnsafeBufferPointer<UInt8>, at offset: Int) -> (Int, Int) {
        let first = arena[offset]
        if first < 0x80 { return (Int(first), 1) }
        var value = Int(first & 0x7F)
        var size = 1
        while true {
            let byte = arena[offset + size]
            value |= Int(byte & 0x7F) << (7 * size)
            size += 1
            if byte < 0x80 { return (value, size) }
        }
    }

    /// The first bucket to probe for `hash`: its high 32 bits scaled to the table's size.
    private func home(_ hash: UInt64) -> Int {
        Int(((hash &>> 32) &* UInt64(buckets.count)) &>> 32)
    }

    /// The bits of `hash` a bucket keeps above its slot.
    private func tag(_ hash: UInt64) -> UInt32 {
        UInt32(truncatingIfNeeded: hash) &<< slotBits
    }

    private func lookup(_ utf8: UnsafeBufferPointer<UInt8>, hash: UInt64) -> Int32? {
        guard !buckets.isEmpty else { return nil }
        let tag = tag(hash)
        let slotMask = (UInt32(1) &<< slotBits) &- 1
        var index = home(hash)
        while true {
            let bucket = buckets[index]
            if bucket == Self.empty { return nil }
            if bucket & ~slotMask == tag {
                let slot = Int32(bitPattern: bucket & slotMask)
                let equal = withBytes(of: slot) { bytes in
                    bytes.count == utf8.count
                        && (bytes.isEmpty || memcmp(bytes.baseAddress!, utf8.baseAddress!, bytes.count) == 0)
                }
                if equal { return slot }
            }
            index += 1
            if index == buckets.count { index = 0 }
        }
    }

    private mutating func insert(_ utf8: UnsafeBufferPointer<UInt8>, hash: UInt64) -> Int32 {
        precondition(count < Int32.max / 2, "too many readers for one article")
        if (count + 1) * 8 > buckets.count * 7 {
            rebuild(capacity: max(64, buckets.count + buckets.count / 2))
        }
        let slot = Int32(count)
        let arena = count >> Self.arenaShift
        if arena == arenas.count { startArena() }
        if count & 7 == 0 { offsets.append(UInt32(arenas[arena].count)) }
        precondition(
            arenas[arena].count + utf8.count <= UInt32.max - 5, "reader ids of one arena exceed 4 GiB")
        var length = UInt(utf8.count)
        while length >= 0x80 {
            arenas[arena].append(UInt8(truncatingIfNeeded: length) | 0x80)
            length >>= 7
        }
        arenas[arena].append(UInt8(length))
        arenas[arena].append(contentsOf: utf8)
        count += 1
        place(slot, hash: hash)
        return slot
    }

    /// Starts the next arena at the size the last one reached, and trims the last one's growth
    /// slack: it takes no more ids.
    private mutating func startArena() {
        var next: [UInt8] = []
        if let last = arenas.last {
            next.reserveCapacity(last.count + last.count / 16)
            if last.capacity > last.count + last.count / 64 {
                arenas[arenas.count - 1] = [UInt8](unsafeUninitializedCapacity: last.count) { buffer, count in
                    _ = buffer.initialize(from: last)
                    count = last.count
                }
            }
        }
        arenas.append(next)
    }

    private mutating func place(_ slot: Int32, hash: UInt64) {
        var index = home(hash)
        while buckets[index] != Self.empty {
            index += 1
            if index == buckets.count { index = 0 }
        }
        buckets[index] = tag(hash) | UInt32(slot)
    }

    /// A table of `capacity` buckets (rounded up to a multiple of 64), every id re-placed by
    /// rehashing its bytes.
    ///
    /// Built in one flat buffer, then cut into chunks: placing through the chunks'
    /// copy-on-write checks took twice as long. And a large table is filled in order of home
    /// bucket: ids are first grouped by the top bits of their home (one counting-sort pass),
    /// so that placing sweeps the table forward instead of taking a cache and TLB miss per id.
    private mutating func rebuild(capacity: Int) {
        let capacity = (capacity + 63) & ~63
        slotBits = Int.bitWidth - capacity.leadingZeroBitCount
        // Each id as its home bucket (high half) and the bucket's value (low half).
        var placements = [UInt64](unsafeUninitializedCapacity: count) { placements, initialized in
            var slot: UInt32 = 0
            for arena in arenas {
                arena.withUnsafeBufferPointer { arena in
                    var offset = 0
                    while offset < arena.count {
                        let (length, size) = Self.length(in: arena, at: offset)
                        offset += size
                        let hash = Self.hash(UnsafeBufferPointer(rebasing: arena[offset..<offset + length]))
                        let home = ((hash &>> 32) &* UInt64(capacity)) &>> 32
                        let value = UInt32(truncatingIfNeeded: hash) &<< slotBits | slot
                        placements[Int(slot)] = home &<< 32 | UInt64(value)
                        offset += length
                        slot += 1
                    }
                }
            }
            initialized = count
        }
        // Groups of about 1024 buckets: 4 KiB of table each, placed while it sits in cache.
        let groupShift = max(0, slotBits - 11)
        if capacity > 1 << 15 {
            placements = Self.grouped(placements, by: groupShift + 32, groups: (capacity >> groupShift) + 1)
        }
        var table = [UInt32](repeating: Self.empty, count: capacity)
        table.withUnsafeMutableBufferPointer { table in
            for placement in placements {
                var index = Int(placement &>> 32)
                while table[index] != Self.empty {
                    index += 1
                    if index == capacity { index = 0 }
                }
                table[index] = UInt32(truncatingIfNeeded: placement)
            }
        }
        buckets = table.withUnsafeBufferPointer { table in
            ChunkedArray(count: capacity) { start, chunk in
                _ = chunk.initialize(from: UnsafeBufferPointer(rebasing: table[start..<start + chunk.count]))
            }
        }
    }

    /// `values` ordered by `value >> shift` (a counting sort; `groups` bounds that key).
    private static func grouped(_ values: [UInt64], by shift: Int, groups: Int) -> [UInt64] {
        var starts = [Int](repeating: 0, count: groups + 1)
        for value in values { starts[Int(value &>> shift) + 1] += 1 }
        for group in 0..<groups { starts[group + 1] += starts[group] }
        return [UInt64](unsafeUninitializedCapacity: values.count) { sorted, initialized in
            starts.withUnsafeMutableBufferPointer { next in
                for value in values {
                    let group = Int(value &>> shift)
                    sorted[next[group]] = value
                    next[group] += 1
                }
            }
            initialized = values.count
        }
    }
}
