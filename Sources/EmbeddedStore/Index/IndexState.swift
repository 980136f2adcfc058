import ProgressStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Everything a ``MemoryIndex`` holds, behind its lock.
struct IndexState {
    /// By exact bytes: ids that differ only in Unicode normalization are different articles.
    var slots: [ExactKey: Int32] = [:]
    var articles: [ArticleIndex] = []
    var pairCount = 0
    /// See ``MemoryIndex/mark``.
    var mark: Int64 = 0
    /// The article the last event went to: a batch's events mostly share one.
    var lastSlot: Int32 = -1
    /// The articles that changed, for the listing's orders to follow them rather than visit
    /// every article.
    var changes = ChangeLog()
    /// Articles erased since the last checkpoint capture, whose rows it deletes.
    var erasedSinceCapture: Set<ExactKey> = []
    /// Above every erased article's version: where a new article's versions start, so that no
    /// answer kept for an erased article passes for a new one of the same name.
    var versionFloor: UInt64 = 0
    /// The sources the reader-days' segments name.
    var sources = SourceTable()
    /// The last source interned and its id: a reader's events mostly repeat one.
    private var lastSource: (name: String, id: UInt16)?

    /// Readers past which an article keeps counters by day (see ``DayCounters``).
    let dayCountersFrom: Int

    /// An empty index's state, keeping `sources`.
    init(sources: SourceTable = SourceTable(), dayCountersFrom: Int = CounterPolicy.embedded.dayCountersFrom)
    {
        self.sources = sources
        self.dayCountersFrom = dayCountersFrom
    }

    func article(named name: String) -> ArticleIndex? {
        slots[ExactKey(name)].map { articles[Int($0)] }
    }

    /// `body` of the article `name` where it lies in `state` (`nil` when it never had an event):
    /// copying the article out, as ``article(named:)`` does, retains every buffer it holds,
    /// which costs more than a read of its counters; so does a call of one of its methods that
    /// the compiler cannot see through. `body` reads the parts it needs through the pointer.
    static func inPlace<Value>(
        _ state: UnsafePointer<IndexState>, _ name: String, _ body: (UnsafePointer<ArticleIndex>) -> Value?
    ) -> Value? {
        guard let slot = state.pointee.slots[ExactKey(name)] else { return nil }
        return state.pointee.articles.withUnsafeBufferPointer {
            body($0.baseAddress.unsafelyUnwrapped + Int(slot))
        }
    }

    /// The version of the article `name`.
    func version(of name: String) -> UInt64? {
        slots[ExactKey(name)].map { articles[Int($0)].version }
    }

    mutating func fold(article name: String, reader: String, day: Int32, _ figures: ReaderFigures) {
        fold(slot: slot(named: name), reader: reader, day: day, figures)
    }

    @inline(__always) mutating func noteChange(of slot: Int32) {
        changes.note(slot)
    }

    /// Folds a batch of events. Most of a batch's events name one of a few articles: each is
    /// found in ``ArticleMemo`` and compared byte for byte rather than looked up in `slots`,
    /// whose hashing of the id took a tenth of a bulk append.
    ///
    /// Every event's article and reader hash are found first; then, while event `i` folds, the
    /// bucket where event `i + lookahead`'s reader is looked up is brought in. An article of
    /// millions of readers has a table far larger than the caches, and waiting for one miss
    /// after another was a quarter of a restart's replay.
    mutating func fold(_ events: UnsafeBufferPointer<EventRecord>) {
        // A handful of events are looked up one by one: the memo is 1 KiB to set up.
        guard events.count >= 8 else {
            for index in events.indices {
                let slot = slot(named: events[index].article)
                fold(
                    slot: slot, reader: events[index].reader, day: events[index].day,
                    ReaderFigures(events[index]), segment: segment(of: events, at: index))
                if events[index].parts != nil { articles[Int(slot)].foldSections(events[index]) }
            }
            return
        }
        var memo = ArticleMemo()
        var found: [(slot: Int32, readerHash: UInt64)] = []
        found.reserveCapacity(events.count)
        for index in events.indices {
            let article = events[index].article
            let slot = withUTF8(of: article) { utf8 -> Int32 in
                let position = ArticleMemo.position(of: utf8)
                if let known = memo[position], Self.holds(articles[Int(known)].name, utf8) { return known }
                let slot = self.slot(named: article)
                memo[position] = slot
                return slot
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
                ReaderFigures(events[index]), segment: segment(of: events, at: index))
            // Most events have no parts: no copy of the event for them.
            if events[index].parts != nil { articles[Int(found[index].slot)].foldSections(events[index]) }
            if isNew { pairCount += 1 }
            noteChange(of: found[index].slot)
        }
    }

    /// Whether `name` is made of the bytes `utf8`.
    @inline(__always)
    private static func holds(_ name: String, _ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        withUTF8(of: name) { name in
            name.count == utf8.count
                && (name.isEmpty || memcmp(name.baseAddress!, utf8.baseAddress!, name.count) == 0)
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
        } else if let found = slots[ExactKey(name)] {
            slot = found
        } else {
            slot = Int32(articles.count)
            slots[ExactKey(name)] = slot
            articles.append(ArticleIndex(name: name, version: versionFloor, dayCountersFrom: dayCountersFrom))
            changes.addSlot()
        }
        lastSlot = slot
        return slot
    }

    /// What event `index` of `events` says of its reader-day's segment, its source interned;
    /// read field by field, so that the event is not copied.
    @inline(__always)
    private mutating func segment(of events: UnsafeBufferPointer<EventRecord>, at index: Int) -> SegmentRecord
    {
        var source: UInt16?
        if let name = events[index].source {
            if let last = lastSource, bytesEqual(last.name, name) {
                source = last.id
            } else {
                let id = sources.id(of: name)
                lastSource = (name, id)
                source = id
            }
        }
        let time = events[index].timeMs
        return SegmentRecord(
            offset: time - UTCDay.start(of: UTCDay.of(ms: time)), device: events[index].device,
            widthDevice: events[index].widthDevice, source: source)
    }

    private mutating func fold(
        slot: Int32, reader: String, day: Int32, _ figures: ReaderFigures, segment: SegmentRecord = .unknown
    ) {
        if articles[Int(slot)].fold(reader: reader, day: day, figures, segment: segment) {
            pairCount += 1
        }
        noteChange(of: slot)
    }

    /// Adds whole articles; the caller has checked that none is held yet.
    mutating func insert(_ inserted: [ArticleIndex]) {
        articles.reserveCapacity(articles.count + inserted.count)
        for var article in inserted {
            article.countDays(past: dayCountersFrom)
            let slot = Int32(articles.count)
            slots[ExactKey(article.name)] = slot
            articles.append(article)
            changes.addSlot()
            noteChange(of: slot)
            pairCount += article.readerCount
        }
    }
}

/// The slots of the articles a batch named last, for the length of one batch.
///
/// Direct-mapped by a quick digest of an id's UTF-8 — its length and its first and last eight
/// bytes, which tell apart the ids of one site, that mostly differ at one end — rather than a
/// hash of every byte; the caller confirms an entry against the article's own id, byte for byte.
/// A clash replaces the older entry, and costs a lookup in the dictionary of every article.
struct ArticleMemo {
    /// 256 entries: more than the articles of most batches.
    private static let count = 256
    private var slots = [Int32](repeating: -1, count: count)

    /// The entry for the id of these bytes, 0..<256.
    @inline(__always)
    static func position(of utf8: UnsafeBufferPointer<UInt8>) -> Int {
        let bytes = UnsafeRawBufferPointer(utf8)
        let count = bytes.count
        let head: UInt64
        let tail: UInt64
        if count >= 8 {
            head = bytes.loadUnaligned(as: UInt64.self)
            tail = bytes.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
        } else if count >= 4 {
            head = UInt64(bytes.loadUnaligned(as: UInt32.self))
            tail = UInt64(bytes.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self))
        } else {
            // 0 to 3 bytes: the first, middle and last (some twice) tell them apart.
            head =
                count == 0
                ? 0 : UInt64(bytes[0]) | UInt64(bytes[count / 2]) << 8 | UInt64(bytes[count - 1]) << 16
            tail = 0
        }
        let mixed =
            ((head &* 0x9E37_79B9_7F4A_7C15) ^ tail ^ UInt64(truncatingIfNeeded: count))
            &* 0xBF58_476D_1CE4_E5B9
        return Int(truncatingIfNeeded: mixed &>> 56)
    }

    /// The slot entry `position` holds, if any.
    subscript(position: Int) -> Int32? {
        get { slots[position] >= 0 ? slots[position] : nil }
        set { slots[position] = newValue ?? -1 }
    }
}
