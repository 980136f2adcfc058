import Foundation
import ProgressStore

/// A deduplication key (``EventRecord/deduplicationKey``) reduced to 128 bits: two SipHash-1-3
/// runs under random per-process keys. Clients choose ids but not these keys, so they cannot
/// craft two keys with one digest; by chance, two of a billion ids share one with a
/// probability of about 10⁻²⁰. Only the writer's table holds digests — rows, journal entries
/// and checkpoints keep the keys themselves, digested again at each start.
struct IDDigest: Equatable {
    var low: UInt64
    var high: UInt64

    private static let keys = {
        var random = SystemRandomNumberGenerator()
        return (
            SipHash13(k0: random.next(), k1: random.next()), SipHash13(k0: random.next(), k1: random.next())
        )
    }()

    /// The digest of a key's bytes; never all zeros (the table's empty slot).
    init(of key: UnsafeBufferPointer<UInt8>) {
        low = Self.keys.0.hash(key)
        high = Self.keys.1.hash(key)
        if low == 0 && high == 0 { low = 1 }
    }

    init(of key: ExactKey) {
        self = withUTF8(of: key.string) { IDDigest(of: $0) }
    }
}

/// The ids acknowledged within the retention window, by digest, each with the time it was
/// acknowledged (ms since the epoch). An open-addressing table of 24-byte slots, probed
/// linearly, at most 70% full: no allocation per id and no reference counting, where a
/// `Dictionary` of key strings held ~200 bytes an id and spent most of an id-bearing event's
/// time comparing strings along its probe runs.
///
/// The slots live in an anonymous mapping that asks for huge pages: a day of ids can take
/// gigabytes, each lookup lands on a random slot, and with 4 KiB pages most of them missed the
/// TLB as well as the cache. The kernel hands the pages over zeroed, which is every slot empty.
final class RecentIDTable {
    private struct Slot {
        var low: UInt64
        var high: UInt64
        var seenMs: Int64
    }

    private var slots: UnsafeMutableBufferPointer<Slot>
    private(set) var count = 0

    init() {
        slots = Self.allocate(0)
    }

    deinit {
        Self.free(slots)
    }

    /// Slots held (24 bytes each).
    var capacity: Int { slots.count }

    /// When `digest` was acknowledged, if it is held.
    subscript(digest: IDDigest) -> Int64? {
        guard count > 0 else { return nil }
        let slot = slots[find(digest)]
        return slot.low == digest.low && slot.high == digest.high ? slot.seenMs : nil
    }

    /// Holds `digest` as acknowledged at `seenMs`; returns the time it replaced.
    @discardableResult
    func updateValue(_ seenMs: Int64, for digest: IDDigest) -> Int64? {
        if (count + 1) * 10 > slots.count * 7 { grow() }
        let index = find(digest)
        let old = slots[index]
        slots[index] = Slot(low: digest.low, high: digest.high, seenMs: seenMs)
        if old.low == digest.low && old.high == digest.high { return old.seenMs }
        count += 1
        return nil
    }

    /// Forgets `digest`.
    func remove(_ digest: IDDigest) {
        guard count > 0 else { return }
        var hole = find(digest)
        guard slots[hole].low == digest.low && slots[hole].high == digest.high else { return }
        // Backward-shift deletion (as in ``WideValues``): later members of the probe run move
        // into the hole, so that no lookup stops early at it and no tombstones pile up.
        let mask = slots.count - 1
        var next = (hole + 1) & mask
        while !Self.isEmpty(slots[next]) {
            let home = Int(truncatingIfNeeded: slots[next].low) & mask
            if (next &- home) & mask >= (next &- hole) & mask {
                slots[hole] = slots[next]
                hole = next
            }
            next = (next + 1) & mask
        }
        slots[hole] = Slot(low: 0, high: 0, seenMs: 0)
        count -= 1
    }

    private static func isEmpty(_ slot: Slot) -> Bool { slot.low == 0 && slot.high == 0 }

    /// The slot holding `digest`, or the empty one where it would go. The table is never full.
    private func find(_ digest: IDDigest) -> Int {
        let mask = slots.count - 1
        // The digest is a keyed hash already: its low bits are as good as any.
        var index = Int(truncatingIfNeeded: digest.low) & mask
        while true {
            let slot = slots[index]
            if slot.low == digest.low && slot.high == digest.high { return index }
            if slot.low == 0 && slot.high == 0 { return index }
            index = (index + 1) & mask
        }
    }

    /// Moves the ids into a smaller table once they fill less than an eighth of this one (after
    /// a busy day has expired), to about a third full: the memory a burst took comes back.
    func shrinkIfSparse() {
        guard slots.count > 64, count * 8 < slots.count else { return }
        var size = 64
        while size * 3 < count * 10 { size *= 2 }
        resize(to: size)
    }

    private func grow() {
        resize(to: max(64, slots.count * 2))
    }

    private func resize(to size: Int) {
        let old = slots
        slots = Self.allocate(size)
        for slot in old where !Self.isEmpty(slot) {
            slots[find(IDDigest(low: slot.low, high: slot.high))] = slot
        }
        Self.free(old)
    }

    /// `count` empty slots (a power of two, or 0).
    private static func allocate(_ count: Int) -> UnsafeMutableBufferPointer<Slot> {
        guard count > 0 else { return UnsafeMutableBufferPointer(start: nil, count: 0) }
        let bytes = count * MemoryLayout<Slot>.stride
        let address = mmap(nil, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        guard let address, address != MAP_FAILED else {
            fatalError("out of memory for \(count) event ids (mmap: errno \(errno))")
        }
        #if os(Linux)
            // Only a hint: without transparent huge pages the table works as well, more slowly.
            if bytes >= 2 << 20 { _ = madvise(address, bytes, MADV_HUGEPAGE) }
        #endif
        return UnsafeMutableBufferPointer(
            start: address.bindMemory(to: Slot.self, capacity: count), count: count)
    }

    private static func free(_ slots: UnsafeMutableBufferPointer<Slot>) {
        guard let base = slots.baseAddress else { return }
        munmap(base, slots.count * MemoryLayout<Slot>.stride)
    }
}

extension IDDigest {
    /// A digest given by its halves (a table's own slots, tests); never all zeros.
    init(low: UInt64, high: UInt64) {
        precondition(low != 0 || high != 0, "an all-zero digest is the table's empty slot")
        self.low = low
        self.high = high
    }
}
