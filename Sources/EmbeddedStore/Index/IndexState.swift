import ProgressStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Everything a ``MemoryIndex`` holds, behind its lock.
struct IndexState {
    /// By exact bytes: ids that differ only in Unicode normalization are different articles.
    var slots: [ArticleKey: Int32] = [:]
    var articles: [ArticleIndex] = []
    var pairCount = 0
    /// See ``MemoryIndex/mark``.
    var mark: Int64 = 0
    /// The article the last event went to: a batch's events mostly share one.
    var lastSlot: Int32 = -1
    /// The articles that changed since the listing last took them, each once, and by slot
    /// whether it is among them: so that the listing's orders follow the articles that
    /// changed rather than visit every article.
    private var changedSlots: [Int32] = []
    private var isChanged: [Bool] = []
    /// Articles erased since the last checkpoint capture, whose rows it deletes.
    var erasedSinceCapture: Set<ExactKey> = []
    /// Above every erased article's version: where a new article's versions start, so that no
    /// answer kept for an erased article passes for a new one of the same name.
    var versionFloor: UInt64 = 0

    func article(named name: String) -> ArticleIndex? {
        slots[ArticleKey(name)].map { articles[Int($0)] }
    }

    /// The version of the article `name`, read in place: copying the article out (as
    /// ``article(named:)`` does) retains every buffer it holds.
    func version(of name: String) -> UInt64? {
        slots[ArticleKey(name)].map { articles[Int($0)].version }
    }

    mutating func fold(article name: String, reader: String, day: Int32, _ figures: DayFigures) {
        fold(slot: slot(named: name), reader: reader, day: day, figures)
    }

    /// The articles that changed since the last call, each once.
    mutating func takeChangedSlots() -> [Int32] {
        let taken = changedSlots
        changedSlots = []
        for slot in taken { isChanged[Int(slot)] = false }
        return taken
    }

    @inline(__always) mutating func noteChange(of slot: Int32) {
        guard !isChanged[Int(slot)] else { return }
        isChanged[Int(slot)] = true
        changedSlots.append(slot)
    }

    /// Folds a batch of events. Each article is looked up in `slots` once for every distinct
    /// `String` value that names it rather than once an event: a batch's decoder makes one
    /// string per article id (`ArticleNames`), and hashing the id took a tenth of a bulk append.
    ///
    /// Every event's article and reader hash are found first; then, while event `i` folds, the
    /// bucket where event `i + lookahead`'s reader is looked up is brought in. An article of
    /// millions of readers has a table far larger than the caches, and waiting for one miss
    /// after another was a quarter of a restart's replay.
    mutating func fold(_ events: UnsafeBufferPointer<EventRecord>) {
        // A handful of events are looked up one by one: the memo is some 5 KiB to set up. Its
        // reasoning holds for the 16-byte strings of 64-bit platforms only.
        guard events.count >= 8, MemoryLayout<String>.size == 16 else {
            for index in events.indices {
                fold(
                    article: events[index].article, reader: events[index].reader, day: events[index].day,
                    DayFigures(events[index]))
            }
            return
        }
        var memo = ArticleMemo()
        var found: [(slot: Int32, readerHash: UInt64)] = []
        found.reserveCapacity(events.count)
        for index in events.indices {
            let bits = ArticleMemo.Bits(events[index].article)
            let slot: Int32
            if let known = memo[bits] {
                slot = known
            } else {
                slot = self.slot(named: events[index].article)
                memo[bits] = slot
            }
            found.append((slot, ReaderNames.hash(of: events[index].reader)))
        }
        let lookahead = 8
        for index in found.indices.prefix(lookahead) {
            prefetch(found[index])
        }
        for index in events.indices {
            if index + lookahead < found.count {
                prefetch(found[index + lookahead])
            }
            let isNew = articles[Int(found[index].slot)].fold(
                reader: events[index].reader, readerHash: found[index].readerHash, day: events[index].day,
                DayFigures(events[index]))
            if isNew { pairCount += 1 }
            noteChange(of: found[index].slot)
        }
    }

    @inline(__always) private func prefetch(_ found: (slot: Int32, readerHash: UInt64)) {
        articles[Int(found.slot)].prefetch(readerHash: found.readerHash)
    }

    /// The slot of the article `name`, added if new.
    private mutating func slot(named name: String) -> Int32 {
        let slot: Int32
        if lastSlot >= 0 && bytesEqual(articles[Int(lastSlot)].name, name) {
            slot = lastSlot
        } else if let found = slots[ArticleKey(name)] {
            slot = found
        } else {
            slot = Int32(articles.count)
            slots[ArticleKey(name)] = slot
            articles.append(ArticleIndex(name: name, version: versionFloor))
            isChanged.append(false)
        }
        lastSlot = slot
        return slot
    }

    private mutating func fold(slot: Int32, reader: String, day: Int32, _ figures: DayFigures) {
        if articles[Int(slot)].fold(reader: reader, day: day, figures) {
            pairCount += 1
        }
        noteChange(of: slot)
    }

    /// Adds whole articles; the caller has checked that none is held yet.
    mutating func insert(_ inserted: [ArticleIndex]) {
        articles.reserveCapacity(articles.count + inserted.count)
        for article in inserted {
            let slot = Int32(articles.count)
            slots[ArticleKey(article.name)] = slot
            articles.append(article)
            isChanged.append(false)
            noteChange(of: slot)
            pairCount += article.readerCount
        }
    }
}

/// Article slots by the 16 bytes of a `String` value, for the length of one batch.
///
/// Two strings whose 16 bytes are equal hold the same text: a short one holds its bytes in them,
/// a longer one the count and the address of its storage — the same storage, alive and
/// unchanged while the batch holding both strings is. (Equal texts may differ in their bytes,
/// which only costs a lookup.) Only valid while every string it has seen is alive: never keep
/// one beyond the batch whose events it saw.
struct ArticleMemo {
    struct Bits: Equatable {
        let low: UInt64
        let high: UInt64

        init(_ string: String) {
            (low, high) = withUnsafeBytes(of: string) {
                ($0.loadUnaligned(as: UInt64.self), $0.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
            }
        }
    }

    /// Direct-mapped: a clash replaces the older entry. 256 entries: more than the articles of
    /// most batches.
    private static let count = 256
    private var keys = [Bits](repeating: Bits(""), count: count)
    private var values = [Int32](repeating: -1, count: count)

    static func position(_ bits: Bits) -> Int {
        Int(truncatingIfNeeded: ((bits.low ^ bits.high) &* 0x9E37_79B9_7F4A_7C15) &>> 56)
    }

    subscript(bits: Bits) -> Int32? {
        get {
            let position = Self.position(bits)
            return values[position] >= 0 && keys[position] == bits ? values[position] : nil
        }
        set {
            let position = Self.position(bits)
            keys[position] = bits
            values[position] = newValue ?? -1
        }
    }
}

/// An article id as a dictionary key by its exact bytes, like ``ExactKey``, compared with
/// `memcmp` rather than `String.UTF8View.elementsEqual`: that walk took a fifth of `apply`.
struct ArticleKey: Hashable {
    let name: String

    init(_ name: String) {
        self.name = name
    }

    static func == (lhs: ArticleKey, rhs: ArticleKey) -> Bool {
        bytesEqual(lhs.name, rhs.name)
    }

    func hash(into hasher: inout Hasher) {
        withUTF8(of: name) { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}
