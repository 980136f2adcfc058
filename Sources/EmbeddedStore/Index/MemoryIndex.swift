import ProgressStore
import Synchronization

/// An in-memory read model of the store: every (article, reader, day) record, folded as the
/// store commits, so that statistics need no I/O and, for the default query, cost the same for
/// a million readers as for a thousand.
///
/// One writer thread calls ``apply(_:mark:)`` (and, at start-up, ``restore(_:)``); any number
/// of threads query at once behind a readers–writer lock. The index trusts its input: events
/// are durable and deduplicated before they arrive, depths are 0…1, a record's times fall on
/// their UTC day, and that day lies within ``DayRecord/days``, some 23,000 years either side of
/// 1970 (a record that breaks either of the last two rules traps).
///
/// Article snapshots (MemoryIndex+snapshots.swift) let a store keep the index as one blob per
/// article: ``encodeArticle(_:)`` from any thread, holding the read lock only to copy the
/// article; ``decodeArticle(_:)`` on any number of threads, touching no index; ``insert(_:)`` or
/// ``restoreArticle(_:)`` from any thread, holding the write lock only to add the articles.
///
/// Figures over a date range are exact, from per-day records. All-time statistics with no
/// engaged minimum and a threshold with at most three decimals come from per-article totals
/// and 1/1000 histograms, without visiting readers; their quantiles may then be up to 0.001
/// low (SPEC §5 allows 0.01), and are exact when the quantile's bin holds a single value.
final class MemoryIndex: Sendable {
    let state = ReadWriteLocked(IndexState())
    /// Article indices by name, byte order, for ``listing(in:threshold:)``; rebuilt when an
    /// article has been added since.
    private let nameOrder = Mutex<[Int32]>([])

    /// An empty index.
    init() {}

    /// Folds events that are already durable and deduplicated (the store's writer thread calls
    /// this after each commit). `mark`, when given, becomes the index's ``mark``: pass the
    /// commit's log sequence number, and every article snapshot taken afterwards says it holds
    /// the events up to it (see ``encodeArticle(_:)``).
    func apply(_ events: [EventRecord], mark: Int64? = nil) {
        state.write { state in
            // Through the buffer, each event's strings are lent to `fold`, not copied (a retain
            // and a release each, on the writer's lock).
            events.withUnsafeBufferPointer { state.fold($0) }
            if let mark { state.mark = mark }
        }
    }

    /// The last `mark` given to ``apply(_:mark:)``; 0 before any.
    var mark: Int64 {
        state.read { $0.mark }
    }

    /// Folds in one whole (article, reader, day) record, as tests build an index with records
    /// that many events would take to make. A record folded twice for one key joins the first.
    func restore(
        article: String, reader: String, day: Int32, maxProgress: Double, maxSeenDepth: Double,
        scrollable: Bool, events: Int64, engagedMs: Int64, firstMs: Int64, lastMs: Int64
    ) {
        restore([
            StoredReaderDay(
                article: article, reader: reader, day: day, maxProgress: maxProgress,
                maxSeenDepth: maxSeenDepth,
                scrollable: scrollable, events: events, engagedMs: engagedMs, firstMs: firstMs, lastMs: lastMs
            )
        ])
    }

    /// Folds in many whole records under one acquisition of the lock.
    func restore(_ rows: [StoredReaderDay]) {
        state.write { state in
            for row in rows {
                state.fold(
                    article: row.article, reader: row.reader, day: row.day,
                    DayFigures(
                        maxProgress: row.maxProgress, maxSeenDepth: row.maxSeenDepth,
                        scrollable: row.scrollable,
                        events: row.events, engagedMs: row.engagedMs, firstMs: row.firstMs, lastMs: row.lastMs
                    ))
            }
        }
    }

    /// The readers of `article` with their figures folded over `days`, in byte order of their
    /// ids (as ``ProgressStore/readers(of:in:)``); `nil` when the article never had an event.
    func readers(of article: String, in days: DayRange) -> [ReaderSummary]? {
        // Folding visits every reader: do it on a snapshot, so the writer (and every
        // acknowledgement waiting for it) never waits for a long read.
        guard let index = state.read({ $0.article(named: article) }) else { return nil }
        return index.names.slotsInByteOrder().compactMap { slot in
            index.figures(of: slot, in: days).map { figures in
                ReaderSummary(
                    reader: index.names.name(at: slot), maxProgress: figures.maxProgress,
                    maxSeenDepth: figures.maxSeenDepth, scrollable: figures.scrollable,
                    events: figures.events, engagedMs: figures.engagedMs, firstMs: figures.firstMs,
                    lastMs: figures.lastMs)
            }
        }
    }

    /// The statistics of SPEC §5 for `article` over `days`; `nil` for an unknown article.
    ///
    /// Equal to ``ArticleStatistics/compute(readers:metric:threshold:minEngagedSeconds:)`` of
    /// ``readers(of:in:)``, except that on the fast path (all time, `minEngagedSeconds == 0`,
    /// `threshold` a multiple of 0.001, an article with more than 512 readers) `p25`, `median`
    /// and `p75` may be up to 0.001 low.
    func statistics(
        of article: String, in days: DayRange, metric: ArticleStatistics.Metric, threshold: Double,
        minEngagedSeconds: Double
    ) -> ArticleStatistics? {
        enum Work {
            case done(ArticleStatistics?)
            case fold(ArticleIndex)
        }
        // Counters answer under the lock in microseconds; a fold over every reader runs on a
        // snapshot outside it, so the writer never waits for a long read.
        let work = state.read { state -> Work in
            guard let index = state.article(named: article) else { return .done(nil) }
            if index.answersFromCounters(in: days, threshold: threshold, minEngagedSeconds: minEngagedSeconds)
            {
                return .done(
                    index.statistics(
                        in: days, metric: metric, threshold: threshold, minEngagedSeconds: minEngagedSeconds))
            }
            return .fold(index)
        }
        switch work {
        case .done(let statistics):
            return statistics
        case .fold(let index):
            return index.statistics(
                in: days, metric: metric, threshold: threshold, minEngagedSeconds: minEngagedSeconds)
        }
    }

    /// One line per article that ever had an event, by name in byte order, with its figures over
    /// `days` (as ``ProgressStore/listing(in:threshold:)``).
    func listing(in days: DayRange, threshold: Double) -> [ArticleListing] {
        if days == .allTime {
            return state.read { state in
                articlesByName(state).map { $0.listing(in: days, threshold: threshold) }
            }
        }
        // A range folds every reader of every article: on snapshots, outside the lock.
        let snapshots = state.read { state in articlesByName(state) }
        return snapshots.map { $0.listing(in: days, threshold: threshold) }
    }

    /// Every article, by name in byte order; the order is rebuilt only when articles were added.
    private func articlesByName(_ state: IndexState) -> [ArticleIndex] {
        let order = nameOrder.withLock { order in
            if order.count != state.articles.count {
                order = (0..<Int32(state.articles.count)).sorted {
                    state.articles[Int($0)].name.utf8.lexicographicallyPrecedes(
                        state.articles[Int($1)].name.utf8)
                }
            }
            return order
        }
        return order.map { state.articles[Int($0)] }
    }

    /// A number that changes whenever any figure of `article` may have changed (`nil` for an
    /// unknown article): what an answer computed at one version stays right for.
    func version(of article: String) -> UInt64? {
        state.read { $0.version(of: article) }
    }

    /// (article, reader) pairs held, for metrics and benchmarks.
    var pairCount: Int {
        state.read { $0.pairCount }
    }

    /// Bytes allocated for records, reader ids, hash tables and histograms, counting capacity
    /// not yet used but not the allocator's own overhead: a gauge for metrics (about 60 a pair).
    /// Sums each article's chunk lists under the read lock.
    var footprint: Int {
        state.read { $0.articles.reduce(0) { $0 + $1.footprint } }
    }
}
