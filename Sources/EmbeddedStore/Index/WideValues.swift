import ProgressStore

/// The event counts and engaged times that outgrow their day record's fields (16 and 32 bits),
/// by record index. Rare, but each further event of such a reader looks its value up and writes
/// it back, so this is no `Dictionary` (two SipHash runs, a delete and a re-insert each): the
/// table hashes the index with one multiplication (record indices are small dense integers,
/// which spread well that way), probes linearly and updates in place.
struct WideValues {
    /// A record index (or `empty`) and its value, side by side: one cache line holds both.
    private struct Entry {
        var key: Int32
        var value: Int64
    }

    private var slots: [Entry] = []
    private(set) var count = 0

    private static let empty: Int32 = -1

    init() {}

    /// Slots held (16 bytes each).
    var capacity: Int { slots.count }

    /// The value of record `key` (≥ 0); setting `nil` removes it.
    subscript(key: Int32) -> Int64? {
        get {
            // A negative key would match an empty slot.
            guard count > 0, key >= 0 else { return nil }
            let entry = slots[find(key)]
            return entry.key == key ? entry.value : nil
        }
        set {
            if let newValue {
                updateValue(newValue, forKey: key)
            } else {
                remove(key)
            }
        }
    }

    /// Sets the value of record `key` (≥ 0); returns the one it replaced.
    @discardableResult
    mutating func updateValue(_ value: Int64, forKey key: Int32) -> Int64? {
        precondition(key >= 0, "record indices are not negative")
        if (count + 1) * 2 > slots.count { grow() }
        let slot = find(key)
        let old = slots[slot]
        slots[slot] = Entry(key: key, value: value)
        if old.key == key { return old.value }
        count += 1
        return nil
    }

    /// The entries, in no particular order.
    var entries: [(key: Int32, value: Int64)] {
        slots.compactMap { $0.key == Self.empty ? nil : ($0.key, $0.value) }
    }

    /// The slot holding `key`, or the empty slot where it would go. The table is never full.
    private func find(_ key: Int32) -> Int {
        let mask = slots.count - 1
        var slot = Self.home(key, mask: mask)
        while slots[slot].key != key && slots[slot].key != Self.empty { slot = (slot + 1) & mask }
        return slot
    }

    private static func home(_ key: Int32, mask: Int) -> Int {
        // A multiplicative hash (the golden-ratio constant of Fibonacci hashing): bits 32 and up of
        // the product are well mixed, and dense indices land in distinct slots.
        Int(truncatingIfNeeded: (UInt64(UInt32(bitPattern: key)) &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
    }

    private mutating func remove(_ key: Int32) {
        guard count > 0, key >= 0 else { return }
        var hole = find(key)
        guard slots[hole].key == key else { return }
        // Backward-shift deletion: move later members of the probe run into the hole, so that
        // no lookup stops early at it, and no tombstones pile up.
        let mask = slots.count - 1
        var next = (hole + 1) & mask
        while slots[next].key != Self.empty {
            let home = Self.home(slots[next].key, mask: mask)
            // Whether `next`'s home lies cyclically outside (hole, next]: then it may move back.
            if (next &- home) & mask >= (next &- hole) & mask {
                slots[hole] = slots[next]
                hole = next
            }
            next = (next + 1) & mask
        }
        slots[hole].key = Self.empty
        count -= 1
    }

    private mutating func grow() {
        let old = slots
        slots = Array(repeating: Entry(key: Self.empty, value: 0), count: max(8, slots.count * 2))
        for entry in old where entry.key != Self.empty { slots[find(entry.key)] = entry }
    }
}
