import ProgressCore
import ProgressStore

/// The embedded store's reads (``StoreReads``), from the in-memory index: each article from a
/// snapshot taken once under the index's lock, sharing the article's buffers, so that folding
/// its readers holds no lock and never keeps the writer waiting.
final class IndexReads: StoreReads {
    let index: MemoryIndex
    let mayFold: Bool
    /// The article last taken, with the index's sources then.
    private var taken: (name: String, article: ArticleIndex?, sources: SourceTable)?

    init(_ index: MemoryIndex, mayFold: Bool) {
        self.index = index
        self.mayFold = mayFold
    }

    /// A snapshot of `name`'s article (`nil` when it never had an event) and the sources.
    private func take(_ name: String) -> (article: ArticleIndex?, sources: SourceTable) {
        if let taken, bytesEqual(taken.name, name) { return (taken.article, taken.sources) }
        let (article, sources) = index.state.read { ($0.article(named: name), $0.sources) }
        taken = (name, article, sources)
        return (article, sources)
    }

    /// `body` of `name`'s article (`nil` when it never had an event): on a snapshot where reads
    /// fold, under the index's lock where they read counters alone — a snapshot copies every
    /// buffer reference of the article, which costs more than such a read itself.
    private func reading<Value>(_ name: String, _ body: (UnsafePointer<ArticleIndex>) -> Value?) -> Value? {
        guard mayFold else { return index.state.peek { IndexState.inPlace($0, name, body) } }
        guard let article = take(name).article else { return nil }
        return withUnsafePointer(to: article) { body($0) }
    }

    private func match(_ segment: SegmentFilter) -> SegmentMatch {
        index.state.read { $0.match(segment) }
    }

    func counters(of article: String) -> ArticleCounters? {
        reading(article) { $0.pointee.counters }
    }

    func daySpan(of article: String, in days: DayRange) -> AnswerCascade.DaySpan? {
        reading(article) { mayFold ? $0.pointee.daySpan(days) : $0.pointee.dayCounters?.span(in: days) }
    }

    /// The device classes' counters (``DeviceCounters``), kept
    /// past ``CounterPolicy/segmentCountersFrom`` readers; the index keeps none by source. Only
    /// folding reads allow the scan that a class's times may need.
    func segmentCounters(
        of name: String, by dimension: SegmentStatistics.Dimension, only: String?,
        metric: ArticleStatistics.Metric
    ) -> [(name: String, counters: ArticleCounters)]? {
        guard dimension == .device else { return nil }
        return reading(name) { article in
            article.pointee.deviceCounters?.kept(
                only: only, scan: mayFold ? { article.pointee.timeSpan(of: $0) } : nil)
        }
    }

    /// The index folds: folding a million readers takes milliseconds.
    func counted(_ query: StatisticsQuery, by dimension: SegmentStatistics.Dimension?)
        -> [(name: String, counted: CountedReaders)]?
    {
        nil
    }

    func readers(of article: String, in days: DayRange, segment: SegmentFilter) -> [ReaderSummary]? {
        index.readers(of: article, in: days, segment: segment)
    }

    func figures(of article: String, in days: DayRange, segment: SegmentFilter) -> [ReaderFigures] {
        take(article).article?.figures(in: days, matching: match(segment)) ?? []
    }

    func figures(
        of name: String, in days: DayRange, segment: SegmentFilter, by dimension: SegmentStatistics.Dimension
    ) -> [(name: String, figures: [ReaderFigures])] {
        let (article, sources) = take(name)
        guard let article else { return [] }
        let groups = article.figuresBySegment(
            in: days, matching: match(segment), by: dimension, sourceCount: sources.count)
        return groups.map { key, figures in
            (
                dimension == .device ? DeviceClass.numbered(key).rawValue : sources.name(of: UInt16(key)),
                figures
            )
        }
    }

    func sectionMap(of article: String) -> [Section] {
        reading(article) { $0.pointee.sections.map } ?? []
    }

    func attention(of article: String, in days: DayRange) -> [Int64] {
        reading(article) { $0.pointee.sections.attention(in: days) } ?? []
    }

    func depthCounts(of name: String, in days: DayRange, segment: SegmentFilter, bounds: [Double])
        -> (readers: Int, atOrAbove: [Double: Int])
    {
        guard let article = take(name).article else { return (0, [:]) }
        var depths: [Double] = []
        let match = match(segment)
        if match.isAll {
            depths.reserveCapacity(article.readerCount)
            article.forEachReader(in: days) { _, figures in
                depths.append(figures.scrollable ? figures.maxSeenDepth : 1)
            }
        } else {
            depths = article.figures(in: days, matching: match).map { $0.scrollable ? $0.maxSeenDepth : 1 }
        }
        depths.sort()
        var atOrAbove: [Double: Int] = [:]
        for bound in bounds { atOrAbove[bound] = SectionStatistics.countAtOrAbove(bound, inSorted: depths) }
        return (depths.count, atOrAbove)
    }

    func listing(_ query: ListingQuery) -> ListingPage {
        index.listing(query)
    }
}

extension MemoryIndex {
    /// What ``Analytics`` answers of `plan` at once: ``Planned/fold`` when it must fold.
    func quickly<Answer>(_ plan: (any StoreReads) throws(StoreError) -> Planned<Answer>) throws(StoreError)
        -> Planned<Answer>
    {
        try plan(IndexReads(self, mayFold: false))
    }

    /// What ``Analytics`` answers of `plan`, folding on this thread if need be: at once when
    /// the counters answer, as the store does.
    func now<Answer>(_ plan: (any StoreReads) throws(StoreError) -> Planned<Answer>) throws(StoreError)
        -> Answer
    {
        if case .answered(let answer) = try quickly(plan) { return answer }
        return try folded(plan)
    }

    /// What ``Analytics`` answers of `plan` with reads that fold.
    func folded<Answer>(_ plan: (any StoreReads) throws(StoreError) -> Planned<Answer>) throws(StoreError)
        -> Answer
    {
        try plan(IndexReads(self, mayFold: true)).folded()
    }

    /// The statistics of `query` at once, or ``Planned/fold``.
    func statistics(_ query: StatisticsQuery) throws(StoreError) -> Planned<ArticleStatistics?> {
        try quickly { (reads) throws(StoreError) in try Analytics.statistics(query, from: reads) }
    }

    /// The statistics of `query`, folding on this thread if need be.
    func statisticsNow(_ query: StatisticsQuery) throws(StoreError) -> ArticleStatistics? {
        try now { (reads) throws(StoreError) in try Analytics.statistics(query, from: reads) }
    }

    /// The segments of `query` at once, or ``Planned/fold``.
    func segments(_ query: SegmentsQuery) throws(StoreError) -> Planned<SegmentStatistics?> {
        try quickly { (reads) throws(StoreError) in try Analytics.segments(query, from: reads) }
    }

    /// The segments of `query`, folding on this thread if need be.
    func segmentsNow(_ query: SegmentsQuery) throws(StoreError) -> SegmentStatistics? {
        try now { (reads) throws(StoreError) in try Analytics.segments(query, from: reads) }
    }
}
