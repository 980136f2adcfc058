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
