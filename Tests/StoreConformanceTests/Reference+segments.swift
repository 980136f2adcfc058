import ProgressCore
import ProgressStore

extension Reference {
    /// Each event's source as a store keeps it: the first `bound` distinct sources in the order
    /// the events came (`(direct)` and `(other)` named by a client are those segments and take no
    /// room), later ones `(other)`.
    func keptSources(bound: Int = 10_000) -> [ExactKey: String] {
        var kept: [ExactKey: String] = [
            ExactKey(ReaderSource.direct): ReaderSource.direct,
            ExactKey(ReaderSource.other): ReaderSource.other,
        ]
        for event in events {
            guard let source = event.source, kept[ExactKey(source)] == nil else { continue }
            kept[ExactKey(source)] = kept.count - 2 < bound ? source : ReaderSource.other
        }
        return kept
    }

    /// The segment of each reader-day of `article`, by reader and day: ``DaySegment`` folded over
    /// the day's events in the order they came.
    func daySegments(of article: String, bound: Int = 10_000) -> [ExactKey: [Int32: ReaderSegment]] {
        let kept = keptSources(bound: bound)
        var folded: [ExactKey: [Int32: DaySegment]] = [:]
        for var event in events where sameBytes(event.article, article) {
            event.source = event.source.map { kept[ExactKey($0)]! }
            folded[ExactKey(event.reader), default: [:]][event.day, default: DaySegment()].fold(event)
        }
        return folded.mapValues { $0.mapValues(\.resolved) }
    }

    /// The readers of `article` folded over their days in `days` that `segment` admits; `nil`
    /// when the article never had an event.
    func readers(
        of article: String, in days: DayRange, segment: SegmentFilter, bound: Int = 10_000
    ) -> [ReaderSummary]? {
        guard events.contains(where: { sameBytes($0.article, article) }) else { return nil }
        let segments = daySegments(of: article, bound: bound)
        var admitted = Reference()
        admitted.add(
            events.filter {
                sameBytes($0.article, article) && segment.admits(segments[ExactKey($0.reader)]![$0.day]!)
            })
        return admitted.readers(of: article, in: days) ?? []
    }

    func statistics(_ query: StatisticsQuery, bound: Int = 10_000) -> ArticleStatistics? {
        readers(of: query.article, in: query.days, segment: query.segment, bound: bound).map {
            ArticleStatistics.compute(readers: $0, query: query)
        }
    }

    /// The segments `query` asks for: the readers of each segment name present in range (under
    /// the query's filter), their figures over that segment's days.
    func segments(_ query: SegmentsQuery, bound: Int = 10_000) -> SegmentStatistics? {
        let article = query.statistics.article
        guard events.contains(where: { sameBytes($0.article, article) }) else { return nil }
        let segments = daySegments(of: article, bound: bound)
        var names: Set<ExactKey> = []
        for (_, days) in segments {
            for (day, segment) in days where query.statistics.days.contains(day) {
                if query.statistics.segment.admits(segment) {
                    names.insert(ExactKey(segment.name(by: query.by)))
                }
            }
        }
        var groups: [ExactKey: [ReaderSummary]] = [:]
        for name in names.map(\.string) {
            var filter = query.statistics.segment
            if query.by == .device {
                filter.device = DeviceClass(rawValue: name)
            } else {
                filter.source = name
            }
            // A filter on both that disagrees with the segment admits nothing: then it is absent.
            let readers =
                self.readers(of: article, in: query.statistics.days, segment: filter, bound: bound) ?? []
            if !readers.isEmpty { groups[ExactKey(name)] = readers }
        }
        return SegmentStatistics.compute(
            readers: groups, by: query.by, limit: query.limit, query: query.statistics)
    }
}

extension Reference {
    /// The sections of `query` under its segment filter: the article's map, the reached and
    /// stopped-within shares over the segment's readers, and no attention.
    func segmentSections(_ query: StatisticsQuery, bound: Int = 10_000) -> SectionStatistics? {
        guard !query.segment.isAll else { return sections(query) }
        guard let all = sections(query) else { return nil }
        let depths = (readers(of: query.article, in: query.days, segment: query.segment, bound: bound) ?? [])
            .map { $0.scrollable ? $0.maxSeenDepth : 1 }.sorted()
        return SectionStatistics.compute(
            map: all.sections.map { Section(title: $0.title, start: $0.start, words: $0.words) },
            readers: depths.count,
            readersAtOrAbove: { SectionStatistics.countAtOrAbove($0, inSorted: depths) },
            attentionMs: nil)
    }
}

/// Random events whose readers name devices and sources, and give widths: some days of a
/// reader change class or source as later events (by time, or by arrival) come in.
func eventsWithSegments(
    count: Int, articles: [String], readers: Int, sources: [String] = segmentSources, seed: UInt64
) -> [EventRecord] {
    var random = SplitMix(state: seed &+ 1)
    var events = eventsWithParts(count: count, articles: articles, readers: readers, seed: seed)
    for index in events.indices {
        if Int.random(in: 0..<3, using: &random) == 0 {
            events[index].device = DeviceClass.allCases.randomElement(using: &random)
        }
        if Int.random(in: 0..<5, using: &random) > 0 {
            events[index].widthDevice = [DeviceClass.phone, .tablet, .desktop].randomElement(using: &random)
        }
        if Int.random(in: 0..<5, using: &random) < 2 {
            events[index].source = sources.randomElement(using: &random)
        }
    }
    return events
}

/// Sources as the service hands them over (normalised), of unequal popularity once random.
let segmentSources = [
    "news.ycombinator.com", "google.com", "newsletter", "t.co", "reddit.com", "bing.com", "(direct)",
    "lobste.rs", "duckduckgo.com", "mastodon.social", "é.example", "a", "b", "c", "spring-campaign",
]
