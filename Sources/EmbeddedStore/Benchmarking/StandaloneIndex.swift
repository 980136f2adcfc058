package import ProgressStore

/// The store's in-memory index on its own — no journal, no SQLite — for `store-bench` to
/// measure what it costs in memory and time; the store itself never uses this.
package final class StandaloneIndex: Sendable {
    private let index = MemoryIndex()

    package init() {}

    /// Folds events, as the store does once they are durable and deduplicated.
    package func apply(_ events: [EventRecord]) {
        index.apply(events)
    }

    /// (article, reader) pairs held.
    package var pairCount: Int { index.pairCount }

    /// Bytes the index allocated for its records, ids, tables and histograms.
    package var footprint: Int { index.footprint }

    /// The figures the stats route answers, folded on this thread when counters cannot answer.
    package func statistics(_ query: StatisticsQuery) -> ArticleStatistics? {
        measured { () throws(StoreError) in try index.statisticsNow(query) }
    }

    /// The segments the segments route answers, folded on this thread when counters cannot answer.
    package func segments(_ query: SegmentsQuery) -> SegmentStatistics? {
        measured { () throws(StoreError) in try index.segmentsNow(query) }
    }

    /// What `read` answers: the index's reads fail only where a store's own would, and a
    /// measurement of a failed read would mislead, so a failure stops the bench.
    private func measured<Answer>(_ read: () throws(StoreError) -> Answer) -> Answer {
        do { return try read() } catch { preconditionFailure("the index's reads failed: \(error)") }
    }

    package func listing(_ query: ListingQuery) -> ListingPage {
        index.listing(query)
    }

    /// The days `article` keeps counters for, those of them with histograms, and the bytes
    /// the counters take (see ``DayCounters``).
    package func dayCounters(of article: String) -> (days: Int, withHistograms: Int, bytes: Int) {
        index.state.read { state in
            guard let days = state.article(named: article)?.dayCounters else { return (0, 0, 0) }
            return (
                days.days.count, days.days.filter(\.counters.keepsHistograms).count, days.footprint
            )
        }
    }

    /// Counts `article`'s day counters anew, as a restore does; returns the days counted.
    package func recountDayCounters(of article: String) -> Int {
        guard let article = index.state.read({ $0.article(named: article) }) else { return 0 }
        return DayCounters(article).days.count
    }

    /// Every article encoded whole, as a checkpoint saves it.
    package func encodedArticles() -> [[UInt8]] {
        index.articleVersions().compactMap { index.encodeArticle($0.article)?.bytes }
    }

    /// The sources the articles' reader-days name, by id, as a checkpoint saves them.
    package func sources() -> [String] {
        Array(index.sourceNames().dropFirst(2))
    }

    /// Sets the sources ``sources()`` gave, before any article is restored, as a restart does.
    package func restoreSources(_ sources: [String]) throws {
        try index.restoreSources(sources)
    }

    /// Adds an article from ``encodedArticles()``'s bytes, as a restart does; safe on any number
    /// of threads at once.
    package func restoreArticle(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try index.restoreArticle($0) }
    }
}
