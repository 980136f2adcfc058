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
/// and 1/1000 histograms, without visiting readers — and so do those over a range that holds
/// one day of a large article, from that day's (see ``DayCounters``); their quantiles may then
/// be up to 0.001 low (docs/api.md allows 0.01), and are exact when the quantile's bin holds a
/// single value.
final class MemoryIndex: Sendable {
    let state: ReadWriteLocked<IndexState>
    /// The listing's orders (MemoryIndex+listing.swift).
    let listingBook = Mutex(ListingBook())

    /// An empty index, which keeps at most `sourceBound` sources (see ``SourceTable``) and
    /// counters by day for articles past `dayCountersFrom` readers (see ``DayCounters``).
    init(
        sourceBound: Int = SourceTable.defaultBound,
        dayCountersFrom: Int = CounterPolicy.embedded.dayCountersFrom
    ) {
        state = ReadWriteLocked(
            IndexState(sources: SourceTable(bound: sourceBound), dayCountersFrom: dayCountersFrom))
    }

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

    /// Folds in whole (article, reader, day) records under one acquisition of the lock, as
    /// tests build an index with records that many events would take to make. A record folded
    /// twice for one key joins the first.
    func restore(_ records: [(article: String, reader: String, day: Int32, figures: ReaderFigures)]) {
        state.write { state in
            for record in records {
                state.fold(article: record.article, reader: record.reader, day: record.day, record.figures)
            }
        }
    }

    /// The readers of `article` with their figures folded over `days`, in byte order of their
    /// ids (as ``ProgressStore/readers(of:in:completion:)``); `nil` when the article never had
    /// an event.
    func readers(of article: String, in days: DayRange, segment: SegmentFilter = .all) -> [ReaderSummary]? {
        // Folding visits every reader: do it on a snapshot, so the writer (and every
        // acknowledgement waiting for it) never waits for a long read.
        guard
            let (index, match) = state.read({ state in
                state.article(named: article).map { ($0, state.match(segment)) }
            })
        else { return nil }
        return index.names.slotsInByteOrder().compactMap { slot in
            index.figures(of: slot, in: days, matching: match).map {
                ReaderSummary(reader: index.names.name(at: slot), figures: $0)
            }
        }
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
