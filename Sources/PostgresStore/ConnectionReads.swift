import ProgressCore
import ProgressStore

/// PostgreSQL's reads (``StoreReads``), over one connection of the read queue that has folded
/// the log first: each one or two statements over `rp_articles`, `rp_article_days`,
/// `rp_article_segments`, `rp_reader_days`, `rp_sections` and `rp_attention`, or a listing's
/// kept range. Every read may fold: a connection is already off the caller's thread.
struct ConnectionReads: StoreReads {
    let connection: PGConnection
    /// Now, for the listing's ranges.
    let nowMs: Int64

    var mayFold: Bool { true }

    func counters(of article: String) throws(StoreError) -> ArticleCounters? {
        let rows = try connection.execute(
            "SELECT \(ArticleCounters.columns) FROM rp_articles WHERE article = $1", [.text(article)])
        return rows.rowCount == 1 ? try ArticleCounters(rows, row: 0, from: 0) : nil
    }

    func daySpan(of article: String, in days: DayRange) throws(StoreError) -> AnswerCascade.DaySpan? {
        try DayCounting.span(of: article, in: days, on: connection)
    }

    func segmentCounters(
        of article: String, by dimension: SegmentStatistics.Dimension, only: String?,
        metric: ArticleStatistics.Metric
    ) throws(StoreError) -> [(name: String, counters: ArticleCounters)]? {
        try Segmenting.counters(of: article, by: dimension, only: only, metric: metric, on: connection)
    }

    /// Past ``CounterPolicy/histogramMinimumReaders`` readers the readers are counted in SQL,
    /// by segment and bin (``Segmenting/counted(_:by:on:)``): rows by bin, not by reader.
    func counted(_ query: StatisticsQuery, by dimension: SegmentStatistics.Dimension?)
        throws(StoreError) -> [(name: String, counted: CountedReaders)]?
    {
        try Segmenting.counted(query, by: dimension, on: connection)
    }

    func readers(of article: String, in days: DayRange, segment: SegmentFilter) throws(StoreError)
        -> [ReaderSummary]?
    {
        try PostgresStore.readers(of: article, in: days, segment: segment, on: connection)
    }

    func figures(of article: String, in days: DayRange, segment: SegmentFilter) throws(StoreError)
        -> [ReaderFigures]
    {
        try readers(of: article, in: days, segment: segment)?.map(\.figures) ?? []
    }

    func figures(
        of article: String, in days: DayRange, segment: SegmentFilter,
        by dimension: SegmentStatistics.Dimension
    ) throws(StoreError) -> [(name: String, figures: [ReaderFigures])] {
        try Segmenting.figures(of: article, in: days, segment: segment, by: dimension, on: connection)
    }

    func sectionMap(of article: String) throws(StoreError) -> [Section] {
        let rows = try connection.execute("SELECT map FROM rp_sections WHERE article = $1", [.text(article)])
        return rows.rowCount == 1 && !rows.isNull(0, 0) ? try SectionMap.decode(rows.bytes(0, 0)) : []
    }

    func attention(of article: String, in days: DayRange) throws(StoreError) -> [Int64] {
        try PostgresStore.attention(of: article, in: days, on: connection)
    }

    func depthCounts(of article: String, in days: DayRange, segment: SegmentFilter, bounds: [Double])
        throws(StoreError) -> (readers: Int, atOrAbove: [Double: Int])
    {
        try PostgresStore.depthCounts(of: article, in: days, segment: segment, bounds: bounds, on: connection)
    }

    func listing(_ query: ListingQuery) throws(StoreError) -> ListingPage {
        try ListingRanges.page(query, nowMs: nowMs, on: connection)
    }
}
