import ProgressStore

extension ArticleIndex {
    /// The sections and attention `query` asks for without visiting a reader, when that is
    /// possible: the article has no map (only the number of readers is needed, known for all
    /// time), or the range spans the article's days and it keeps histograms — the same counters
    /// that answer ``statistics(_:)``. A reader's depth is its maximum `seenDepth`, which is 1
    /// for an unscrollable one (the figures make it so), so the seen-depth histogram counts
    /// depths ≥ a start: exactly for a start on the 1/1000 grid, and otherwise as the count of
    /// the start's bin and above, which may include readers up to 0.001 below the start
    /// (docs/api.md allows it, as it does for quantiles).
    func sectionsFromCounters(_ query: StatisticsQuery) -> SectionStatistics? {
        guard counters.spans(query.days) else { return nil }
        let attention = sections.attention(in: query.days)
        guard let map = sections.map, !map.isEmpty else {
            return SectionStatistics.compute(
                map: [], readers: counters.readers, readersAtOrAbove: { _ in 0 }, attentionMs: attention)
        }
        guard counters.readers > CounterPolicy.histogramMinimumReaders, let histograms = counters.histograms
        else { return nil }
        let atOrAbove = histograms.seenDepth.countsAtOrAbove()
        return SectionStatistics.compute(
            map: map, readers: counters.readers,
            readersAtOrAbove: { atOrAbove[DepthHistogram.bin(of: $0)] }, attentionMs: attention)
    }

    /// The sections and attention of `query`, folding every reader in range for its depth.
    func sectionsFolded(_ query: StatisticsQuery) -> SectionStatistics {
        var depths: [Double] = []
        depths.reserveCapacity(readerCount)
        forEachReader(in: query.days) { _, figures in
            depths.append(figures.scrollable ? figures.maxSeenDepth : 1)
        }
        depths.sort()
        return SectionStatistics.compute(
            map: sections.map ?? [], readers: depths.count,
            readersAtOrAbove: { SectionStatistics.countAtOrAbove($0, inSorted: depths) },
            attentionMs: sections.attention(in: query.days))
    }
}

/// Sections answered, or an article to fold for them (as ``StatisticsWork``).
enum SectionsWork {
    case answered(SectionStatistics?)
    /// A snapshot of the article, sharing its buffers: folding it needs no lock; and the
    /// reader-days to fold.
    case fold(ArticleIndex, SegmentMatch)
}

extension MemoryIndex {
    /// How the sections of `query` are had: answered under the lock from the counters (see
    /// ``ArticleIndex/sectionsFromCounters(_:)``) when it has no segment filter, or by folding a
    /// snapshot of the article outside it.
    func sections(_ query: StatisticsQuery) -> SectionsWork {
        state.read { state -> SectionsWork in
            guard let index = state.article(named: query.article) else { return .answered(nil) }
            let match = state.match(query.segment)
            if match.isAll, let answered = index.sectionsFromCounters(query) { return .answered(answered) }
            return .fold(index, match)
        }
    }

    /// The sections of `query` now, folding on this thread if need be.
    func sectionsNow(_ query: StatisticsQuery) -> SectionStatistics? {
        switch sections(query) {
        case .answered(let answered): answered
        case .fold(let article, let match): article.sectionsFolded(query, matching: match)
        }
    }
}
