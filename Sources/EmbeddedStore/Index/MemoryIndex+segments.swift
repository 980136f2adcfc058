import ProgressStore

extension IndexState {
    /// `filter` in the index's terms: its source as an id, ``SegmentMatch/none`` for a source
    /// the store never saw.
    func match(_ filter: SegmentFilter) -> SegmentMatch {
        guard !filter.isAll else { return .all }
        guard let source = filter.source else { return SegmentMatch(device: filter.device) }
        guard let id = sources.existingID(of: source) else { return .none }
        return SegmentMatch(device: filter.device, source: id)
    }
}

/// Segments answered, or an article to fold for them (as ``StatisticsWork``).
enum SegmentsWork {
    case answered(SegmentStatistics?)
    /// A snapshot of the article, the reader-days to fold and the sources' names.
    case fold(ArticleIndex, SegmentMatch, SourceTable)
}

extension MemoryIndex {
    /// How the segments of `query` are had: answered under the lock from the device counters
    /// (see ``ArticleIndex/segmentsFromCounters(_:)``), or by folding a snapshot of the article
    /// outside it.
    func segments(_ query: SegmentsQuery) -> SegmentsWork {
        state.read { state -> SegmentsWork in
            guard let index = state.article(named: query.statistics.article) else { return .answered(nil) }
            if let answered = index.segmentsFromCounters(query) { return .answered(answered) }
            // The table is copied on write: the writer's next new source copies its 10,000 names
            // at most, and seldom.
            return .fold(index, state.match(query.statistics.segment), state.sources)
        }
    }

    /// The segments of `query` now, folding on this thread if need be.
    func segmentsNow(_ query: SegmentsQuery) -> SegmentStatistics? {
        switch segments(query) {
        case .answered(let answered): answered
        case .fold(let article, let match, let sources):
            article.segmentsFolded(query, matching: match, sources: sources)
        }
    }

    /// The sources held, `(direct)` and `(other)` first, by id.
    func sourceNames() -> [String] {
        state.read { $0.sources.names }
    }

    /// Sets the sources a checkpoint saved (start-up, before anything is restored or folded).
    func restoreSources(_ saved: [String]) throws(StoreError) {
        try state.write { state throws(StoreError) in try state.sources.restore(saved) }
    }
}
