/// The articles that changed, in the order they changed, for several readers that each keep
/// their own place in it: the listing keeps one set of orders for all time and one for each of a
/// few date ranges, and each moves only the articles that changed since it was last read.
///
/// A position counts every entry ever logged. A slot is logged again only when some reader has
/// read past its last entry, so that a fold costs one comparison when nobody has listed since;
/// and the log never holds more entries after the last read than there are articles.
struct ChangeLog {
    /// The slots logged from ``start`` on.
    private var entries: [Int32] = []
    /// The position of `entries[0]`: entries before it are forgotten.
    private(set) var start = 0
    /// By slot: the position of its last entry, or −1.
    private var loggedAt: [Int] = []
    /// The end of the log when it was last read: a slot logged at or after it is logged once.
    private var readTo = 0

    /// The position the next entry takes.
    var end: Int { start + entries.count }

    /// Makes room for the next slot.
    mutating func addSlot() {
        loggedAt.append(-1)
    }

    @inline(__always) mutating func note(_ slot: Int32) {
        guard loggedAt[Int(slot)] < readTo else { return }
        loggedAt[Int(slot)] = end
        entries.append(slot)
    }

    /// Marks the log read up to its end, and returns the end: a reader that then reads every
    /// article reads from there on.
    mutating func markRead() -> Int {
        readTo = end
        return readTo
    }

    /// The slots logged from `position` on, each once, and the position to read from next;
    /// `nil` when entries from `position` have been forgotten (the reader starts afresh).
    mutating func read(from position: Int) -> (slots: [Int32], next: Int)? {
        guard position >= start, position <= end else { return nil }
        // Past the previous read's end each slot appears once; before it, a slot read by one
        // reader and changed again may appear twice.
        let duplicates = position < readTo
        var slots = Array(entries[(position - start)...])
        if duplicates {
            slots.sort()
            slots = slots.indices.compactMap { index in
                index > 0 && slots[index - 1] == slots[index] ? nil : slots[index]
            }
        }
        return (slots, markRead())
    }

    /// Forgets the entries before `position`: no reader reads from before it.
    mutating func forget(before position: Int) {
        let dropped = min(position, end) - start
        guard dropped > 0 else { return }
        entries.removeFirst(dropped)
        start += dropped
    }
}
