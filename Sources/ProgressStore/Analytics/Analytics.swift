/// The analytics of every store: statistics, segments, sections, readers and the listing,
/// answered from what a store's ``StoreReads`` supply. Which reads answer a question — counters
/// before a day's counters before folding readers, a segment's counters before counting in the
/// store before folding — is decided here once, by ``CounterPolicy`` and ``AnswerCascade``, so
/// that both stores answer alike (docs/architecture.md, "Statistics").
///
/// Each answer is ``Planned/fold`` when it needs reads that visit every reader and `reads` does
/// not allow them; the store then asks again where they are allowed.
package enum Analytics {
    /// The figures of one article (docs/api.md, "Statistics"); `nil` when it never had an event.
    package static func statistics(_ query: StatisticsQuery, from reads: any StoreReads)
        throws(StoreError) -> Planned<ArticleStatistics?>
    {
        // A segment's counters first: an article that keeps them has had an event.
        if let (dimension, name) = query.segment.along,
            var kept = try reads.segmentCounters(
                of: query.article, by: dimension, only: name, metric: query.metric)
        {
            // Moved out, not copied: a copy retains every histogram's buffers.
            let held =
                kept.firstIndex { bytesEqual($0.name, name) }.map { kept.remove(at: $0).counters }
                ?? ArticleCounters(keepsHistograms: true)
            let spanned = held.spans(query.days)
            if let counted = CountedReaders(held, answering: query, spanned: spanned) {
                return .answered(counted.statistics)
            }
        }
        guard let counters = try reads.counters(of: query.article) else { return .answered(nil) }
        if query.segment.isAll {
            let answer = try AnswerCascade.statistics(
                query, counters: counters,
                daySpan: { () throws(StoreError) in try reads.daySpan(of: query.article, in: query.days) },
                folded: reads.mayFold
                    ? { () throws(StoreError) in
                        try reads.figures(of: query.article, in: query.days, segment: .all)
                    } : nil)
            return answer.map { .answered($0) } ?? .fold
        }
        guard reads.mayFold else { return .fold }
        if counters.readers > CounterPolicy.histogramMinimumReaders,
            let counted = try reads.counted(query, by: nil)
        {
            return .answered((counted.first?.counted ?? CountedReaders(metric: query.metric)).statistics)
        }
        let readers = try reads.figures(of: query.article, in: query.days, segment: query.segment)
        return .answered(ArticleStatistics.compute(readers: readers, query: query))
    }

    /// The readers of one article split by segment (docs/api.md, "Segments of one article");
    /// `nil` when it never had an event.
    package static func segments(_ query: SegmentsQuery, from reads: any StoreReads)
        throws(StoreError) -> Planned<SegmentStatistics?>
    {
        let statistics = query.statistics
        guard let counters = try reads.counters(of: statistics.article) else { return .answered(nil) }
        // The counters of the dimension answer when the filter names nothing along the other.
        let filter = statistics.segment
        let only = query.by == .device ? filter.device?.rawValue : filter.source
        if query.by == .device ? filter.source == nil : filter.device == nil,
            let kept = try reads.segmentCounters(
                of: statistics.article, by: query.by, only: only, metric: statistics.metric),
            let counted = answering(statistics, from: kept)
        {
            return .answered(SegmentStatistics.ranking(counted: counted, by: query.by, limit: query.limit))
        }
        guard reads.mayFold else { return .fold }
        if counters.readers > CounterPolicy.histogramMinimumReaders,
            let counted = try reads.counted(statistics, by: query.by)
        {
            return .answered(
                SegmentStatistics.ranking(
                    counted: counted.map { (name: $0.name, part: $0.counted) }, by: query.by,
                    limit: query.limit))
        }
        let groups = try reads.figures(
            of: statistics.article, in: statistics.days, segment: filter, by: query.by)
        return .answered(
            SegmentStatistics.compute(segments: groups, by: query.by, limit: query.limit, query: statistics))
    }

    /// Each segment's counters as `query` counts its readers, when every one answers it.
    /// The segments are moved out of `kept`, not copied: a copy retains every histogram's buffers.
    private static func answering(
        _ query: StatisticsQuery, from kept: consuming [(name: String, counters: ArticleCounters)]
    ) -> [(name: String, part: CountedReaders)]? {
        var counted: [(name: String, part: CountedReaders)] = []
        counted.reserveCapacity(kept.count)
        while let (name, counters) = kept.popLast() {
            let spanned = counters.spans(query.days)
            guard let part = CountedReaders(counters, answering: query, spanned: spanned) else { return nil }
            counted.append((name, part))
        }
        return counted
    }

    /// Where in the article its readers stop and spend their time (docs/api.md, "Sections and
    /// attention"); `nil` when it never had an event. Under a segment filter there is no
    /// attention: it is kept by article and day, not by reader.
    package static func sections(_ query: StatisticsQuery, from reads: any StoreReads)
        throws(StoreError) -> Planned<SectionStatistics?>
    {
        guard let counters = try reads.counters(of: query.article) else { return .answered(nil) }
        if query.segment.isAll, counters.spans(query.days),
            let answered = AnswerCascade.sections(
                map: try reads.sectionMap(of: query.article), counters: counters, days: query.days,
                attentionMs: try reads.attention(of: query.article, in: query.days))
        {
            return .answered(answered)
        }
        guard reads.mayFold else { return .fold }
        let map = try reads.sectionMap(of: query.article)
        // Each section's start and 1, and below every depth.
        let bounds = [-1] + Set(map.map(\.start) + [1]).sorted()
        let (readers, atOrAbove) = try reads.depthCounts(
            of: query.article, in: query.days, segment: query.segment, bounds: bounds)
        return .answered(
            SectionStatistics.compute(
                map: map, readers: readers, readersAtOrAbove: { atOrAbove[$0] ?? 0 },
                attentionMs: query.segment.isAll
                    ? try reads.attention(of: query.article, in: query.days) : nil))
    }

    /// The readers of `article` with their figures over `days` that `segment` admits, in the
    /// byte order of their ids; `nil` when the article never had an event.
    package static func readers(
        of article: String, in days: DayRange, segment: SegmentFilter, from reads: any StoreReads
    ) throws(StoreError) -> Planned<[ReaderSummary]?> {
        guard reads.mayFold else { return .fold }
        return .answered(try reads.readers(of: article, in: days, segment: segment))
    }

    /// One page of the listing. A page of all time costs what changed since the last one; a
    /// range listed for the first time counts every article, which is folding.
    package static func listing(_ query: ListingQuery, from reads: any StoreReads)
        throws(StoreError) -> Planned<ListingPage>
    {
        guard reads.mayFold || query.days == .allTime else { return .fold }
        return .answered(try reads.listing(query))
    }
}

extension SegmentFilter {
    /// The one dimension the filter names a segment along, and that segment's name; `nil` when
    /// it names none or both.
    package var along: (dimension: SegmentStatistics.Dimension, name: String)? {
        switch (device, source) {
        case (let device?, nil): (.device, device.rawValue)
        case (nil, let source?): (.source, source)
        default: nil
        }
    }
}
