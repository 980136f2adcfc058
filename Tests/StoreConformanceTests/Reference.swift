import ProgressStore

/// What every store must answer for a list of counted events, computed the plainest way.
struct Reference {
    private(set) var events: [EventRecord] = []

    mutating func add(_ new: [EventRecord]) {
        events += new
    }

    /// Takes out what `erasure` names, as a store's erasure does.
    mutating func erase(_ erasure: Erasure) {
        switch erasure {
        case .reader(let reader): events.removeAll { sameBytes($0.reader, reader) }
        case .article(let article): events.removeAll { sameBytes($0.article, article) }
        }
    }

    var articles: [String] {
        Set(events.map { ExactKey($0.article) }).map(\.string).sorted(by: bytesBefore)
    }

    /// The readers of `article` folded over `days`, in the byte order of their ids.
    func readers(of article: String, in days: DayRange) -> [ReaderSummary]? {
        let mine = events.filter { sameBytes($0.article, article) }
        guard !mine.isEmpty else { return nil }
        var byReader: [ExactKey: ReaderSummary] = [:]
        for event in mine where days.contains(event.day) {
            var summary =
                byReader[ExactKey(event.reader)]
                ?? ReaderSummary(
                    reader: event.reader,
                    figures: ReaderFigures(
                        maxProgress: 0, maxSeenDepth: 0, scrollable: false, events: 0,
                        engagedMs: 0, firstMs: .max, lastMs: .min))
            summary.maxProgress = max(summary.maxProgress, event.progress)
            summary.maxSeenDepth = max(summary.maxSeenDepth, event.seenDepth)
            summary.scrollable = summary.scrollable || event.scrollable
            summary.events += 1
            summary.engagedMs += event.engagedMs
            summary.firstMs = min(summary.firstMs, event.timeMs)
            summary.lastMs = max(summary.lastMs, event.timeMs)
            byReader[ExactKey(event.reader)] = summary
        }
        return byReader.values.sorted { bytesBefore($0.reader, $1.reader) }
    }

    func statistics(_ query: StatisticsQuery) -> ArticleStatistics? {
        readers(of: query.article, in: query.days).map {
            ArticleStatistics.compute(readers: $0, query: query)
        }
    }

    /// Every article's listing row over `days`.
    func rows(in days: DayRange, threshold: Double) -> [ArticleListing] {
        articles.map { article in
            let stats = statistics(StatisticsQuery(article: article, days: days, threshold: threshold))!
            return ArticleListing(
                article: article, readers: stats.readers, events: stats.events, completionRate: stats.rate,
                meanDepth: stats.depthMean, lastEventMs: stats.lastMs)
        }
    }

    /// The page `query` asks for, out of `rows` (by default every article's, computed anew).
    func listing(_ query: ListingQuery, of rows: [ArticleListing]? = nil) -> ListingPage {
        let sorted = (rows ?? self.rows(in: query.days, threshold: query.threshold))
            .filter { query.includes($0.article) }.sorted(by: query.order.areInIncreasingOrder)
        let page = sorted.dropFirst(query.offset).prefix(query.limit)
        return ListingPage(rows: Array(page), hasMore: query.offset + page.count < sorted.count)
    }
}

func bytesBefore(_ a: String, _ b: String) -> Bool {
    a.utf8.lexicographicallyPrecedes(b.utf8)
}

/// Whether `a` and `b` are one id: the same bytes (docs/api.md, "Fields"), where `==` takes two canonically
/// equivalent strings for one.
func sameBytes(_ a: String, _ b: String) -> Bool {
    a.utf8.elementsEqual(b.utf8)
}

let dayMs: Int64 = 86_400_000
/// 2026-11-20, the first day of the generated events.
let firstDay: Int32 = 20_412

/// Random events over `articles` (ids chosen to sort differently by bytes and by length, one
/// beyond ASCII), their readers and ten days; depths on a 1/1000 grid and off it.
func randomEvents(count: Int, articles: [String], readers: Int, seed: UInt64) -> [EventRecord] {
    var random = SplitMix(state: seed)
    return (0..<count).map { _ in
        let scrollable = Int.random(in: 0..<10, using: &random) > 0
        let progress = scrollable ? Double(Int.random(in: 0...1000, using: &random)) / 1000 : 0
        let seen = scrollable ? min(1, progress + Double.random(in: 0...0.3, using: &random)) : 1
        let day = Int64(firstDay) + Int64.random(in: 0..<10, using: &random)
        return EventRecord(
            article: articles.randomElement(using: &random)!,
            reader: "reader-\(Int.random(in: 0..<readers, using: &random))",
            timeMs: day * dayMs + Int64.random(in: 0..<dayMs, using: &random),
            progress: progress, seenDepth: seen, scrollable: scrollable,
            engagedMs: Int64.random(in: 0...20_000, using: &random))
    }
}

/// Whether two statistics agree: exactly, but for quantiles, which a store may answer up to
/// 0.001 low from histograms.
func agree(_ a: ArticleStatistics?, _ b: ArticleStatistics?) -> Bool {
    guard let a, let b else { return a == nil && b == nil }
    func near(_ x: Double, _ y: Double, _ tolerance: Double = 1e-9) -> Bool { abs(x - y) <= tolerance }
    return a.readers == b.readers && a.unscrollableReaders == b.unscrollableReaders && a.counted == b.counted
        && a.events == b.events && a.completed == b.completed && near(a.rate, b.rate)
        && near(a.depthMean, b.depthMean) && near(a.p25, b.p25, 0.001 + 1e-9)
        && near(a.median, b.median, 0.001 + 1e-9) && near(a.p75, b.p75, 0.001 + 1e-9)
        && zip(a.reach, b.reach).allSatisfy { near($0, $1) } && a.reach.count == b.reach.count
        && near(a.engagedSecondsTotal, b.engagedSecondsTotal)
        && near(a.engagedMeanPerReader, b.engagedMeanPerReader)
        && a.firstMs == b.firstMs && a.lastMs == b.lastMs
}

/// Whether two pages agree: the same rows in the same order, means within rounding (a store
/// may sum depths in another order, or exactly).
func agree(_ a: ListingPage, _ b: ListingPage) -> Bool {
    a.hasMore == b.hasMore && a.rows.count == b.rows.count
        && zip(a.rows, b.rows).allSatisfy { x, y in
            sameBytes(x.article, y.article) && x.readers == y.readers && x.events == y.events
                && x.completionRate == y.completionRate && abs(x.meanDepth - y.meanDepth) <= 1e-9
                && x.lastEventMs == y.lastEventMs
        }
}
