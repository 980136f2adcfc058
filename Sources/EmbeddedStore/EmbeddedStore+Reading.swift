public import ProgressStore

extension EmbeddedStore {
    /// See ``ProgressStore/readers(of:in:)``; served from the in-memory index.
    /// Readers come in the order of their ids' UTF-8 bytes.
    public func readers(of article: String, in days: DayRange) throws(StoreError) -> [ReaderSummary]? {
        try requireOpen()
        return index.readers(of: article, in: days)
    }

    /// See ``ProgressStore/listing(in:threshold:)``; served from the in-memory index.
    public func listing(in days: DayRange, threshold: Double) throws(StoreError) -> [ArticleListing] {
        try requireOpen()
        return index.listing(in: days, threshold: threshold)
    }

    /// See ``ProgressStore/statistics(of:in:metric:threshold:minEngagedSeconds:)``: for the
    /// default query, from counters the index keeps up to date, whatever the article's size.
    public func statistics(
        of article: String, in days: DayRange, metric: ArticleStatistics.Metric, threshold: Double,
        minEngagedSeconds: Double
    ) throws(StoreError) -> ArticleStatistics? {
        try requireOpen()
        return index.statistics(
            of: article, in: days, metric: metric, threshold: threshold, minEngagedSeconds: minEngagedSeconds)
    }

    /// See ``ProgressStore/version(of:)``: the in-memory index counts each article's changes.
    public func version(of article: String) -> UInt64? {
        (try? requireOpen()) == nil ? nil : index.version(of: article)
    }

    /// The checkpointer's lag and health, and the pairs held in memory.
    public var gauges: [StoreGauge] {
        [
            StoreGauge(
                name: "journal_entries",
                help: "Acknowledged journal entries since the last checkpoint (replayed by a restart).",
                value: Double(max(0, committedSeqValue - checkpointSeq))),
            StoreGauge(
                name: "checkpoint_failing",
                help: "1 while the last checkpoint failed (the events wait in the journal).",
                value: checkpointFailing ? 1 : 0),
            StoreGauge(
                name: "pairs", help: "(article, reader) pairs held in memory.", value: Double(index.pairCount)
            ),
            StoreGauge(
                name: "recent_ids",
                help: "Event ids remembered so that a repeat counts once (those of the last 24 hours).",
                value: Double(writer.rememberedIDCount)),
        ]
    }

    /// (article, reader) pairs held in memory.
    public var pairCount: Int { index.pairCount }
}

extension EmbeddedStore {
    /// Loads every reader day of a database of an earlier release into the index.
    static func restore(_ index: MemoryIndex, from state: SQLiteConnection) throws(StoreError) {
        let rows = try state.cached(
            """
            SELECT r.article, a.name, r.reader, r.day, r.max_progress, r.max_seen, r.scrollable,
                r.events, r.engaged_ms, r.first_ms, r.last_ms
            FROM reader_days AS r JOIN articles AS a ON a.id = r.article
            ORDER BY r.article, r.reader, r.day
            """)
        defer { rows.reset() }
        var article = ""
        var articleID: Int64 = -1
        var batch: [StoredReaderDay] = []
        batch.reserveCapacity(8192)
        while try rows.step() {
            // Rows come grouped by article: decode its name once per article.
            let id = rows.int64(0)
            if id != articleID {
                article = rows.string(1)
                articleID = id
            }
            let day = rows.int64(3)
            guard Int64(DayRecord.days.lowerBound)...Int64(DayRecord.days.upperBound) ~= day else {
                throw StoreError(
                    code: 0,
                    message: "reader_days holds a row whose day \(day) is out of range (article \(article))")
            }
            let dayStart = day * 86_400_000
            guard (dayStart..<dayStart + 86_400_000).contains(rows.int64(9)),
                (dayStart..<dayStart + 86_400_000).contains(rows.int64(10)), rows.int64(9) <= rows.int64(10)
            else {
                throw StoreError(
                    code: 0,
                    message: "reader_days holds a row whose times lie outside its day (article \(article))")
            }
            batch.append(
                StoredReaderDay(
                    article: article, reader: rows.string(2), day: Int32(truncatingIfNeeded: day),
                    maxProgress: rows.double(4), maxSeenDepth: rows.double(5), scrollable: rows.int64(6) != 0,
                    events: rows.int64(7), engagedMs: rows.int64(8), firstMs: rows.int64(9),
                    lastMs: rows.int64(10)))
            if batch.count == 8192 {
                index.restore(batch)
                batch.removeAll(keepingCapacity: true)
            }
        }
        index.restore(batch)
    }

    /// The deduplication keys acknowledged after `sinceMs` that an earlier release recorded.
    static func recentIDs(
        in state: SQLiteConnection, since sinceMs: Int64
    ) throws(StoreError) -> [ExactKey: Int64] {
        let rows = try state.cached("SELECT id, seen_ms FROM event_ids WHERE seen_ms > ?1")
        defer { rows.reset() }
        try rows.bind(1, sinceMs)
        var ids: [ExactKey: Int64] = [:]
        while try rows.step() { ids[ExactKey(rows.string(0))] = rows.int64(1) }
        return ids
    }

    /// Applies the journal entries after the last checkpoint, in order, as they were
    /// acknowledged; returns their ids with when each was acknowledged, in that order.
    static func replay(_ journal: EventJournal, after foldedSeq: Int64, into index: MemoryIndex)
        throws(StoreError) -> [(key: ExactKey, seenMs: Int64)]
    {
        var ids: [(key: ExactKey, seenMs: Int64)] = []
        try journal.entries(after: foldedSeq) { entry throws(StoreError) in
            let events = try EventLogCodec.decode(entry.payload)
            for key in events.lazy.compactMap(\.deduplicationKey) {
                ids.append((ExactKey(key), entry.committedMs))
            }
            index.apply(events)
        }
        return ids
    }
}
