/// Article slots kept in an order that changes one article at a time: a list of sorted blocks
/// of at most ``maximumBlock`` slots, so that moving an article costs a binary search and a
/// move within one block, and finding the k-th slot costs a walk over the block counts —
/// whatever the number of articles.
///
/// The order is given by `less`, which must be a strict total order over the slots held (the
/// listing's orders break ties by article id, which is unique). Removing a slot needs the
/// order it was inserted under: remove it before its key changes, insert it again after.
struct SortedSlots {
    private(set) var blocks: [[Int32]] = []
    private(set) var count = 0
    static let maximumBlock = 512

    init() {}

    /// `slots`, which are in order already, in half-full blocks.
    init(sorted slots: [Int32]) {
        let half = Self.maximumBlock / 2
        blocks = stride(from: 0, to: slots.count, by: half).map {
            Array(slots[$0..<min($0 + half, slots.count)])
        }
        count = slots.count
    }

    /// Puts `slot` in its place.
    mutating func insert(_ slot: Int32, by less: (Int32, Int32) -> Bool) {
        count += 1
        guard !blocks.isEmpty else {
            blocks.append([slot])
            return
        }
        // The first block whose last slot does not come before `slot`, or the last block.
        let block = min(firstBlock(notBefore: slot, by: less), blocks.count - 1)
        let position = Self.firstIndex(in: blocks[block], notBefore: slot, by: less)
        blocks[block].insert(slot, at: position)
        if blocks[block].count > Self.maximumBlock {
            let upper = Array(blocks[block][(Self.maximumBlock / 2)...])
            blocks[block].removeLast(blocks[block].count - Self.maximumBlock / 2)
            blocks.insert(upper, at: block + 1)
        }
    }

    /// Takes `slot` out; `less` must still place it where it was inserted. Returns whether it
    /// was found.
    @discardableResult
    mutating func remove(_ slot: Int32, by less: (Int32, Int32) -> Bool) -> Bool {
        let block = firstBlock(notBefore: slot, by: less)
        guard block < blocks.count else { return false }
        let position = Self.firstIndex(in: blocks[block], notBefore: slot, by: less)
        guard position < blocks[block].count, blocks[block][position] == slot else { return false }
        blocks[block].remove(at: position)
        if blocks[block].isEmpty { blocks.remove(at: block) }
        count -= 1
        return true
    }

    /// Calls `body` with the slots from rank `offset` on, in order, until it returns false.
    func forEach(from offset: Int, _ body: (Int32) -> Bool) {
        var skipped = 0
        for block in blocks {
            if skipped + block.count <= offset {
                skipped += block.count
                continue
            }
            for slot in block[max(0, offset - skipped)...] where !body(slot) { return }
            skipped += block.count
        }
    }

    /// The rank of the first slot that does not come before `probe`, where `before(s)` tells
    /// whether slot `s` comes before it.
    func firstRank(where before: (Int32) -> Bool) -> Int {
        var rank = 0
        for block in blocks {
            guard let last = block.last, before(last) else {
                var low = 0
                var high = block.count
                while low < high {
                    let middle = (low + high) / 2
                    if before(block[middle]) { low = middle + 1 } else { high = middle }
                }
                return rank + low
            }
            rank += block.count
        }
        return rank
    }

    private func firstBlock(notBefore slot: Int32, by less: (Int32, Int32) -> Bool) -> Int {
        var low = 0
        var high = blocks.count
        while low < high {
            let middle = (low + high) / 2
            if less(blocks[middle][blocks[middle].count - 1], slot) {
                low = middle + 1
            } else {
                high = middle
            }
        }
        return low
    }

    private static func firstIndex(in block: [Int32], notBefore slot: Int32, by less: (Int32, Int32) -> Bool)
        -> Int
    {
        var low = 0
        var high = block.count
        while low < high {
            let middle = (low + high) / 2
            if less(block[middle], slot) { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
