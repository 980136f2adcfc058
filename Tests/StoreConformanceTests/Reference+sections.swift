import ProgressStore

extension Reference {
    /// The sections and attention of `query.article` over `query.days`, the plainest way: the
    /// map of the latest event by time that carried one (the later arrival on a tie), each
    /// reader's maximum `seenDepth` in range (1 if none of its events in range was scrollable),
    /// the attention of the events in range summed band by band. `parts`, when given, holds the
    /// events whose maps and attention count: erasing a reader leaves those of its articles as
    /// they were (docs/api.md, "Sections and attention"), where it leaves this reference.
    func sections(_ query: StatisticsQuery, parts: Reference? = nil) -> SectionStatistics? {
        guard events.contains(where: { sameBytes($0.article, query.article) }) else { return nil }
        let mine = (parts ?? self).events.filter { sameBytes($0.article, query.article) }
        var map: (timeMs: Int64, sections: [Section])?
        for event in mine {
            guard let sections = event.sections else { continue }
            if map == nil || event.timeMs >= map!.timeMs { map = (event.timeMs, sections) }
        }
        var bands = [Int64](repeating: 0, count: AttentionBands.count)
        for event in mine where query.days.contains(event.day) {
            for (band, ms) in (event.attention ?? []).enumerated() { bands[band] += Int64(ms) }
        }
        let depths = (readers(of: query.article, in: query.days) ?? [])
            .map { $0.scrollable ? $0.maxSeenDepth : 1 }.sorted()
        return SectionStatistics.compute(
            map: map?.sections ?? [], readers: depths.count,
            readersAtOrAbove: { SectionStatistics.countAtOrAbove($0, inSorted: depths) }, attentionMs: bands)
    }
}

/// Events that carry section maps (several, with later and earlier times) and attention.
func eventsWithParts(count: Int, articles: [String], readers: Int, seed: UInt64) -> [EventRecord] {
    var random = SplitMix(state: seed)
    var events = randomEvents(count: count, articles: articles, readers: readers, seed: seed)
    for index in events.indices {
        let engaged = events[index].engagedMs
        if Int.random(in: 0..<4, using: &random) > 0 {
            events[index].attention = (0..<AttentionBands.count).map { _ in
                UInt32(Int64.random(in: 0...engaged, using: &random))
            }
        }
        if Int.random(in: 0..<40, using: &random) == 0 {
            let count = Int.random(in: 0...8, using: &random)
            var start = 0.0
            events[index].sections = (0..<count).map { number in
                defer { start += Double.random(in: 0.01...0.1, using: &random) }
                let words = Int.random(in: 0..<3, using: &random) == 0 ? nil : Int32(number * 100)
                return Section(title: "Section \(number) — \(seed) ✓", start: start, words: words)
            }
        }
    }
    return events
}
