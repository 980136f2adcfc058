/// The questions the service asks a store, each answered by ``Analytics`` over the store's
/// reads (``ProgressStore/read(_:completion:)``).
extension ProgressStore {
    /// The figures of one article (docs/api.md, "Statistics"), or `nil` when it never had an
    /// event: ``ArticleStatistics/compute(readers:query:)`` over ``readers(of:in:segment:completion:)``
    /// with `query.segment`, but for quantiles, which counters may answer up to 0.001 low.
    public func statistics(
        _ query: StatisticsQuery,
        completion: @escaping @Sendable (Result<ArticleStatistics?, StoreError>) -> Void
    ) {
        read(
            { (reads) throws(StoreError) in try Analytics.statistics(query, from: reads) },
            completion: completion)
    }

    /// The readers of `query.statistics.article` split by segment (docs/api.md, "Segments of
    /// one article"), or `nil` when it never had an event: ``SegmentStatistics/compute(readers:by:limit:query:)``
    /// over the readers of each segment in range, but for quantiles, as ``statistics(_:completion:)``.
    public func segments(
        _ query: SegmentsQuery,
        completion: @escaping @Sendable (Result<SegmentStatistics?, StoreError>) -> Void
    ) {
        read(
            { (reads) throws(StoreError) in try Analytics.segments(query, from: reads) },
            completion: completion)
    }

    /// Where in `query.article` its readers stop and spend their time over `query.days`
    /// (docs/api.md, "Sections and attention"), or `nil` when it never had an event:
    /// ``SectionStatistics/compute(map:readers:readersAtOrAbove:attentionMs:)`` over the latest
    /// map, the readers' maximum `seenDepth` in range (1 for an unscrollable reader) and the
    /// attention summed over the range's days; `metric`, `threshold` and `minEngagedSeconds`
    /// play no part. Under a segment filter there is no attention.
    public func sections(
        _ query: StatisticsQuery,
        completion: @escaping @Sendable (Result<SectionStatistics?, StoreError>) -> Void
    ) {
        read(
            { (reads) throws(StoreError) in try Analytics.sections(query, from: reads) },
            completion: completion)
    }

    /// One page of the listing (docs/api.md, "Every article"): the articles that ever had an
    /// event, in `query.order`, from `query.offset`, at most `query.limit` of them.
    public func listing(
        _ query: ListingQuery, completion: @escaping @Sendable (Result<ListingPage, StoreError>) -> Void
    ) {
        read(
            { (reads) throws(StoreError) in try Analytics.listing(query, from: reads) },
            completion: completion)
    }

    /// The readers of `article` with their figures folded over those of `days` whose segment
    /// `segment` admits, in the byte order of their ids — a reader with no such day is not
    /// among them — or `nil` when the article never had an event.
    public func readers(
        of article: String, in days: DayRange, segment: SegmentFilter = .all,
        completion: @escaping @Sendable (Result<[ReaderSummary]?, StoreError>) -> Void
    ) {
        read(
            { (reads) throws(StoreError) in
                try Analytics.readers(of: article, in: days, segment: segment, from: reads)
            }, completion: completion)
    }

    /// Whether the store accepts writes right now (``health``).
    public var isWritable: Bool { health.isWritable }

    /// Why the store is not wholly well while it still takes writes (``health``).
    public var healthProblem: String? { health.problem }
}
