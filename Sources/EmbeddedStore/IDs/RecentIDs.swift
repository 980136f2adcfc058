import Foundation
import ProgressStore

/// A deduplication key (``EventRecord/deduplicationKey``) reduced to 64 bits: SipHash-1-3 under
/// a random per-process key. Clients choose ids but not the key, so they cannot craft two keys
/// with one digest; by chance, a new id finds the digest of another among n held with a
/// probability of n / 2⁶⁴ — with 100 million held, one event in 180 billion counted as a
/// repeat. Only the writer's tables hold digests — rows, journal entries and checkpoints keep
/// the keys themselves, digested again at each start.
struct IDDigest: Hashable {
    /// Never 0 (the table's empty slot).
    let value: UInt64

    private static let keys = (key: SipHash.Key.random(), salt: SipHash.Key.random())

    /// The digest of a key's bytes.
    init(of key: UnsafeBufferPointer<UInt8>) {
        self.init(nonZero: SipHash.hash13(key, key: Self.keys.key))
    }

    init(of key: ExactKey) {
        self = withUTF8(of: key.string) { IDDigest(of: $0) }
    }

    /// A digest given by its value (a table's own slots, tests); 0 becomes 1.
    init(nonZero value: UInt64) {
        self.value = value == 0 ? 1 : value
    }

    /// This digest under `salt` (0: itself): another digest for every salt, unrelated to the
    /// digests under other salts. See ``IDGenerations`` for what salts are for.
    func salted(by salt: UInt64) -> IDDigest {
        guard salt != 0 else { return self }
        return withUnsafeBytes(of: (value.littleEndian, salt.littleEndian)) { raw in
            IDDigest(
                nonZero: SipHash.hash13(raw.bindMemory(to: UInt8.self), key: Self.keys.salt))
        }
    }
}

/// A set of ``IDDigest``s: an open-addressing table of 8-byte slots (0 is empty), probed
/// linearly, its capacity a power of two, at most 75% full — 10.7 to 21.3 bytes a digest
/// (docs/performance.md). No allocation per id and no reference counting.
///
/// The slots live in an anonymous mapping that asks for huge pages: a day of ids can take a
/// gigabyte, each lookup lands on a random slot, and with 4 KiB pages most of them would miss
/// the TLB as well as the cache. The kernel hands the pages over zeroed, which is every slot
/// empty.
final class RecentIDTable {
    private var slots: UnsafeMutableBufferPointer<UInt64>
    private(set) var count = 0

    init() {
        slots = Self.allocate(0)
    }

    deinit {
        Self.free(slots)
    }

    /// Slots held.
    var capacity: Int { slots.count }
    /// The memory the slots take.
    var bytes: Int { slots.count * MemoryLayout<UInt64>.stride }

    func contains(_ digest: IDDigest) -> Bool {
        count > 0 && slots[find(digest.value)] == digest.value
    }

    /// Adds `digest`; false when it was held already.
    @discardableResult
    func insert(_ digest: IDDigest) -> Bool {
        reserveOne()
        let index = find(digest.value)
        guard slots[index] != digest.value else { return false }
        slots[index] = digest.value
        count += 1
        return true
    }

    /// Grows, if need be, so that one more digest fits: after this, ``slot(for:)`` and
    /// ``fill(_:_:)`` add one without moving the others.
    func reserveOne() {
        if (count + 1) * 4 > slots.count * 3 { resize(to: max(64, slots.count * 2)) }
    }

    /// Where `digest` is, or the empty slot where it would go, and whether it is there.
    func slot(for digest: IDDigest) -> (index: Int, holds: Bool) {
        precondition(!slots.isEmpty, "a slot asked for without reserveOne()")
        let index = find(digest.value)
        return (index, slots[index] == digest.value)
    }

    /// Puts `digest` in the empty slot `index` that ``slot(for:)`` gave for it, with no change
    /// to the table between (``reserveOne()`` before both).
    func fill(_ index: Int, _ digest: IDDigest) {
        precondition(slots[index] == 0, "a filled slot, or a table changed since the slot was found")
        slots[index] = digest.value
        count += 1
    }

    /// Forgets `digest`.
    func remove(_ digest: IDDigest) {
        guard count > 0 else { return }
        var hole = find(digest.value)
        guard slots[hole] == digest.value else { return }
        // Backward-shift deletion (as in ``WideValues``): later members of the probe run move
        // into the hole, so that no lookup stops early at it and no tombstones pile up.
        let mask = slots.count - 1
        var next = (hole + 1) & mask
        while slots[next] != 0 {
            let home = Self.home(slots[next], mask)
            if (next &- home) & mask >= (next &- hole) & mask {
                slots[hole] = slots[next]
                hole = next
            }
            next = (next + 1) & mask
        }
        slots[hole] = 0
        count -= 1
    }

    /// The digest is a keyed hash already: its low bits are as good as any.
    @inline(__always) private static func home(_ value: UInt64, _ mask: Int) -> Int {
        Int(truncatingIfNeeded: value) & mask
    }

    /// The slot holding `value`, or the empty one where it would go. The table is never full.
    @inline(__always) private func find(_ value: UInt64) -> Int {
        let mask = slots.count - 1
        var index = Self.home(value, mask)
        while true {
            let slot = slots[index]
            if slot == value || slot == 0 { return index }
            index = (index + 1) & mask
        }
    }

    private func resize(to size: Int) {
        let old = slots
        slots = Self.allocate(size)
        for value in old where value != 0 { slots[find(value)] = value }
        Self.free(old)
    }

    /// `count` empty slots (a power of two, or 0).
    private static func allocate(_ count: Int) -> UnsafeMutableBufferPointer<UInt64> {
        guard count > 0 else { return UnsafeMutableBufferPointer(start: nil, count: 0) }
        let bytes = count * MemoryLayout<UInt64>.stride
        let address = mmap(nil, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        guard let address, address != MAP_FAILED else {
            fatalError("out of memory for \(count) event ids (mmap: errno \(errno))")
        }
        #if os(Linux)
            // Only a hint: without transparent huge pages the table works as well, more slowly.
            if bytes >= 2 << 20 { _ = madvise(address, bytes, MADV_HUGEPAGE) }
        #endif
        return UnsafeMutableBufferPointer(
            start: address.bindMemory(to: UInt64.self, capacity: count), count: count)
    }

    private static func free(_ slots: UnsafeMutableBufferPointer<UInt64>) {
        guard let base = slots.baseAddress else { return }
        munmap(base, slots.count * MemoryLayout<UInt64>.stride)
    }
}
