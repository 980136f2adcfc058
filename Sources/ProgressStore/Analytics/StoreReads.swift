/// What a store lets the analytics (``Analytics``) read: its counters and its readers' records,
/// of one article, over a range of days and a segment. Each store answers these from what it
/// keeps — the embedded store from its in-memory index, PostgreSQL from its tables — and the
/// analytics decide which to read and what to make of them, once for both.
///
/// Reads are synchronous: a store hands them to the analytics on a thread where they may take
/// their time (see ``ProgressStore/read(_:completion:)``). Ids are compared by their bytes
/// (docs/api.md, "Ids").
public protocol StoreReads {
    /// Whether reads that visit every reader are allowed here. The embedded store first answers
    /// on the caller's thread with counters alone (`false`) and folds on its read queue.
    var mayFold: Bool { get }

    /// The article's all-time counters, or `nil` when it never had an event.
    func counters(of article: String) throws(StoreError) -> ArticleCounters?

    /// What the article's counters by day say of `days` (``AnswerCascade/DaySpan``), or `nil`
    /// when it keeps none or the range holds several of its days.
    func daySpan(of article: String, in days: DayRange) throws(StoreError) -> AnswerCascade.DaySpan?

    /// The article's all-time counters of each segment along `dimension` with readers — of the
    /// one named `only`, when given — by segment name, with `metric`'s histogram (the other may
    /// be left empty); `nil` when the article keeps no such counters, or they cannot be had here
    /// (``mayFold`` is false and they need a scan).
    func segmentCounters(
        of article: String, by dimension: SegmentStatistics.Dimension, only: String?,
        metric: ArticleStatistics.Metric
    ) throws(StoreError) -> [(name: String, counters: ArticleCounters)]?

    /// The readers of `query`'s segment over its range counted by the store, by segment along
    /// `dimension` (one segment named `""` when `nil`), without sending them one by one; `nil`
    /// where the store folds them instead.
    func counted(_ query: StatisticsQuery, by dimension: SegmentStatistics.Dimension?)
        throws(StoreError) -> [(name: String, counted: CountedReaders)]?

    /// The readers of `article` with their figures folded over their days in `days` that
    /// `segment` admits, in the byte order of their ids; `nil` when the article never had an event.
    func readers(of article: String, in days: DayRange, segment: SegmentFilter) throws(StoreError)
        -> [ReaderSummary]?

    /// The figures of ``readers(of:in:segment:)`` alone, in any order.
    func figures(of article: String, in days: DayRange, segment: SegmentFilter) throws(StoreError)
        -> [ReaderFigures]

    /// The same readers' figures by segment along `dimension`: a reader with days of two
    /// segments is in both, with each one's days folded.
    func figures(
        of article: String, in days: DayRange, segment: SegmentFilter,
        by dimension: SegmentStatistics.Dimension
    ) throws(StoreError) -> [(name: String, figures: [ReaderFigures])]

    /// The article's latest section map (empty when it has none).
    func sectionMap(of article: String) throws(StoreError) -> [Section]

    /// The attention of the article's bands summed over `days`, in ms.
    func attention(of article: String, in days: DayRange) throws(StoreError) -> [Int64]

    /// The readers over `days` that `segment` admits, and for each of `bounds` (ascending) how
    /// many of them have a depth — their maximum `seenDepth`, 1 for an unscrollable reader — at
    /// or above it.
    func depthCounts(
        of article: String, in days: DayRange, segment: SegmentFilter, bounds: [Double]
    ) throws(StoreError) -> (readers: Int, atOrAbove: [Double: Int])

    /// One page of the listing (docs/api.md, "Every article").
    func listing(_ query: ListingQuery) throws(StoreError) -> ListingPage
}

/// An answer the analytics reached, or word that it needs reads that visit every reader
/// (``StoreReads/mayFold``).
public enum Planned<Answer> {
    case answered(Answer)
    case fold

    /// The answer of a plan whose reads allowed folding, which always answers.
    public func folded() throws(StoreError) -> Answer {
        guard case .answered(let answer) = self else {
            throw StoreError.configuration("the analytics asked to fold where folding was allowed")
        }
        return answer
    }
}
