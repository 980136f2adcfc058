/// Where in the article readers stop and where their time goes (docs/api.md, "Sections and
/// attention"): the figures of an article's latest section map and of its attention bands over
/// a day range. Pure arithmetic shared by every store.
public struct SectionStatistics: Sendable, Equatable {
    /// One section of the map with its readers' figures.
    public struct Figures: Sendable, Equatable {
        public var title: String
        public var start: Double
        /// The next section's start, 1 for the last.
        public var end: Double
        public var words: Int32?
        /// Share of readers whose depth (their maximum `seenDepth`) is ≥ `start`.
        public var reached: Double
        /// Share of readers whose depth lies in `[start, end)`.
        public var stoppedWithin: Double
        /// The attention inside the section, in seconds, per reader who reached it; `nil` when
        /// none did, or under a segment filter.
        public var seconds: Double?
        /// `words ÷ (seconds ÷ 60)`; `nil` without words, with 0 words, or without seconds.
        public var wordsPerMinute: Double?

        public init(
            title: String, start: Double, end: Double, words: Int32?, reached: Double, stoppedWithin: Double,
            seconds: Double?, wordsPerMinute: Double?
        ) {
            self.title = title
            self.start = start
            self.end = end
            self.words = words
            self.reached = reached
            self.stoppedWithin = stoppedWithin
            self.seconds = seconds
            self.wordsPerMinute = wordsPerMinute
        }
    }

    /// ``AttentionBands/count`` values: band *i*'s summed attention in seconds ÷ readers, or
    /// `nil` under a segment filter (attention is kept by article and day, not by reader).
    public var attention: [Double]?
    /// The latest map's sections, `[]` without a map.
    public var sections: [Figures]

    public init(attention: [Double]?, sections: [Figures]) {
        self.attention = attention
        self.sections = sections
    }

    /// The figures of `map` over `readers` readers, `readersAtOrAbove(d)` of whom have a depth
    /// ≥ `d` (each reader's maximum `seenDepth` in range, 1 for an unscrollable one), with
    /// `attentionMs` the bands' summed milliseconds in range — `nil` under a segment filter.
    public static func compute(
        map: [Section], readers: Int, readersAtOrAbove: (Double) -> Int, attentionMs: [Int64]?
    ) -> SectionStatistics {
        let share = { (count: Int) in readers > 0 ? Double(count) / Double(readers) : 0 }
        let attention = attentionMs.map { bands in
            bands.map { readers > 0 ? Double($0) / 1000 / Double(readers) : 0 }
        }
        let figures = map.indices.map { index -> Figures in
            let section = map[index]
            let end = index + 1 < map.count ? map[index + 1].start : 1
            let reachedCount = readersAtOrAbove(section.start)
            let stopped = reachedCount - (end < 1 ? readersAtOrAbove(end) : readersAtOrAbove(1))
            var seconds: Double?
            if let attentionMs, reachedCount > 0 {
                seconds =
                    millisecondsInside(section.start, end, of: attentionMs) / 1000 / Double(reachedCount)
            }
            var wordsPerMinute: Double?
            if let words = section.words, words > 0, let seconds, seconds > 0 {
                wordsPerMinute = Double(words) / (seconds / 60)
            }
            return Figures(
                title: section.title, start: section.start, end: end, words: section.words,
                reached: share(reachedCount), stoppedWithin: share(stopped), seconds: seconds,
                wordsPerMinute: wordsPerMinute)
        }
        return SectionStatistics(attention: attention, sections: figures)
    }

    /// The attention inside `[start, end)`: band *i*, `[i/20, (i+1)/20)`, gives its
    /// milliseconds times the share of the band inside the section.
    package static func millisecondsInside(_ start: Double, _ end: Double, of bands: [Int64]) -> Double {
        // In units of bands, so that a boundary on a band's edge gives whole bands exactly.
        let count = Double(bands.count)
        let low = start * count
        let high = end * count
        var total = 0.0
        for (index, ms) in bands.enumerated() where ms > 0 {
            let band = Double(index)
            let share = min(max(high - band, 0), 1) - min(max(low - band, 0), 1)
            if share > 0 { total += Double(ms) * share }
        }
        return total
    }

    /// `readersAtOrAbove` over depths sorted ascending.
    public static func countAtOrAbove(_ bound: Double, inSorted depths: [Double]) -> Int {
        var low = 0
        var high = depths.count
        while low < high {
            let middle = (low + high) / 2
            if depths[middle] < bound { low = middle + 1 } else { high = middle }
        }
        return depths.count - low
    }
}
