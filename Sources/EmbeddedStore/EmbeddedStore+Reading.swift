import Dispatch
public import ProgressStore

extension EmbeddedStore {
    /// See ``ProgressStore/readers(of:in:segment:completion:)``; folded from the in-memory index
    /// on the store's read queue. Readers come in the order of their ids' UTF-8 bytes.
    public func readers(
        of article: String, in days: DayRange, segment: SegmentFilter,
        completion: @escaping @Sendable (Result<[ReaderSummary]?, StoreError>) -> Void
    ) {
        guard !isClosed else { return completion(.failure(.closed)) }
        readQueue.async { [index] in
            completion(.success(index.readers(of: article, in: days, segment: segment)))
        }
    }

    /// See ``ProgressStore/listing(_:completion:)``: all time, on the calling thread (a page
    /// costs what changed since the last one, whatever the number of articles); over a range,
    /// which folds every article, on the store's read queue.
    public func listing(
        _ query: ListingQuery, completion: @escaping @Sendable (Result<ListingPage, StoreError>) -> Void
    ) {
        guard !isClosed else { return completion(.failure(.closed)) }
        guard query.days == .allTime else {
            readQueue.async { [index] in completion(.success(index.listing(query))) }
            return
        }
        completion(.success(index.listing(query)))
    }

    /// See ``ProgressStore/sections(_:completion:)``: from the index's counters on the calling
    /// thread when they answer (see ``ArticleIndex/sectionsFromCounters(_:)``), otherwise by
    /// folding the article's readers on the store's read queue.
    public func sections(
        _ query: StatisticsQuery,
        completion: @escaping @Sendable (Result<SectionStatistics?, StoreError>) -> Void
    ) {
        guard !isClosed else { return completion(.failure(.closed)) }
        switch index.sections(query) {
        case .answered(let sections):
            completion(.success(sections))
        case .fold(let article, let match):
            readQueue.async { completion(.success(article.sectionsFolded(query, matching: match))) }
        }
    }

    /// See ``ProgressStore/segments(_:completion:)``: by device over all of an article's days,
    /// from the counters of each class on the calling thread (articles past
    /// ``CounterPolicy/segmentCountersFrom`` readers keep them); the rest by folding the
    /// article's reader-days on the store's read queue.
    public func segments(
        _ query: SegmentsQuery,
        completion: @escaping @Sendable (Result<SegmentStatistics?, StoreError>) -> Void
    ) {
        guard !isClosed else { return completion(.failure(.closed)) }
        switch index.segments(query) {
        case .answered(let segments):
            completion(.success(segments))
        case .fold(let article, let match, let sources):
            readQueue.async {
                completion(.success(article.segmentsFolded(query, matching: match, sources: sources)))
            }
        }
    }

    /// See ``ProgressStore/statistics(_:completion:)``: what the index's counters answer (the
    /// article's, or its device class's under a device filter), on the calling thread in
    /// microseconds whatever the article's size; the rest by folding the article's readers on
    /// the store's read queue.
    public func statistics(
        _ query: StatisticsQuery,
        completion: @escaping @Sendable (Result<ArticleStatistics?, StoreError>) -> Void
    ) {
        guard !isClosed else { return completion(.failure(.closed)) }
        switch index.statistics(query) {
        case .answered(let statistics):
            completion(.success(statistics))
        case .fold(let article, let match):
            readQueue.async { completion(.success(article.statistics(query, matching: match))) }
        }
    }

    /// See ``ProgressStore/version(of:)``: the in-memory index counts each article's changes.
    public func version(of article: String) -> UInt64? {
        isClosed ? nil : index.version(of: article)
    }

    /// See ``ProgressStore/salt(forDay:completion:)``: from memory for today and tomorrow (made
    /// and saved ahead, see ``start()``); another day's is read from the database's `salts` table,
    /// or made and saved there, on the caller's thread.
    public func salt(
        forDay day: Int32, completion: @escaping @Sendable (Result<DailySalt, StoreError>) -> Void
    ) {
        guard !isClosed else { return completion(.failure(.closed)) }
        completion(
            Result { () throws(StoreError) in
                try salts.salt(forDay: day, today: UTCDay.of(ms: options.clock()))
            })
    }

    /// See ``ProgressStore/erase(_:completion:)``: an entry in the event journal, then out of the
    /// index — articles of many readers are folded anew without the erased records, which holds
    /// appends up meanwhile — and out of the saved files with the next checkpoint.
    public func erase(
        _ erasure: Erasure, completion: @escaping @Sendable (Result<ErasureCount, StoreError>) -> Void
    ) {
        writer.erase(erasure, completion: completion)
    }

    /// See ``ProgressStore/report(completion:)``.
    public func report(completion: @escaping @Sendable (StoreReport) -> Void) {
        completion(StoreReport(sizeBytes: sizeBytes, gauges: gauges))
    }

    /// The checkpointer's lag and health, and the pairs held in memory.
    var gauges: [StoreGauge] {
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
                help: "Event ids remembered so that a repeat counts once (those of the last 24 to 48 hours).",
                value: Double(writer.rememberedIDCount)),
        ]
    }

    /// (article, reader) pairs held in memory.
    public var pairCount: Int { index.pairCount }
}
