import Foundation
import ProgressCore
import ProgressStore

/// `serve --demo`: four weeks of readers on a handful of articles of different lengths and
/// shapes of drop-off, on phones, tablets and desktops and from a few sources, appended through the store's own API before the service starts, so
/// that the dashboard has something to show on a first run.
///
/// Deterministic: fixed seeds give the same readers, depths and engaged times every run, on the
/// same days before the start (today's readers only up to the time of the start).
enum DemoData {
    /// One sample article.
    struct Article {
        var id: String
        /// The article's length in phone screens; a desktop shows 45–75% of that per screen,
        /// and a reader with one screen or less cannot scroll.
        var screens: Double
        /// Readers on a weekday at its usual level.
        var readersPerDay: Double
        /// Days since it was published (its first days draw more readers), or nil: evergreen.
        var publishedDaysAgo: Int?
        /// The shape of the drop-off: where readers stop, as a mixture of
        /// `(weight, low, high, power)`, each a depth `low + (high − low) × u^power`.
        var stops: [(weight: Double, low: Double, high: Double, power: Double)]
    }

    static let articles: [Article] = [
        Article(
            id: "/blog/how-to-read-a-long-article", screens: 14, readersPerDay: 38, publishedDaysAgo: nil,
            stops: [(0.18, 0, 0.08, 1), (0.55, 0.05, 0.95, 1.2), (0.27, 0.9, 1, 1)]),
        Article(
            id: "/news/2026/city-council-passes-budget", screens: 3.2, readersPerDay: 30,
            publishedDaysAgo: 11,
            stops: [(0.1, 0, 0.2, 1), (0.22, 0.2, 0.9, 1), (0.68, 0.88, 1, 0.5)]),
        Article(
            id: "/guides/getting-started", screens: 9, readersPerDay: 24, publishedDaysAgo: nil,
            stops: [(0.1, 0, 0.1, 1), (0.45, 0.1, 0.42, 0.8), (0.15, 0.42, 0.9, 1), (0.3, 0.9, 1, 1)]),
        Article(
            id: "/blog/10-tips-for-better-sleep", screens: 7, readersPerDay: 30, publishedDaysAgo: 20,
            stops: [(0.35, 0, 0.15, 1), (0.3, 0.15, 0.85, 1.5), (0.35, 0.85, 1, 0.7)]),
        Article(
            id: "/recipes/sourdough-bread", screens: 11, readersPerDay: 26, publishedDaysAgo: nil,
            stops: [(0.25, 0, 0.2, 1), (0.1, 0.2, 0.65, 1), (0.5, 0.65, 0.88, 1), (0.15, 0.88, 1, 1)]),
        Article(
            id: "/docs/api/reference", screens: 28, readersPerDay: 20, publishedDaysAgo: nil,
            stops: [(0.6, 0, 0.25, 1.5), (0.3, 0.25, 0.7, 1), (0.1, 0.7, 1, 1)]),
        Article(
            id: "/blog/2026-in-review", screens: 12, readersPerDay: 22, publishedDaysAgo: 4,
            stops: [(0.2, 0, 0.1, 1), (0.5, 0.1, 0.95, 1), (0.3, 0.9, 1, 1)]),
        Article(
            id: "/about", screens: 1.6, readersPerDay: 10, publishedDaysAgo: nil,
            stops: [(0.3, 0, 0.5, 1), (0.7, 0.5, 1, 0.6)]),
    ]

    static let days = 28
    private static let dayMs: Int64 = 86_400_000

    /// Appends the sample to `store`, waiting until each batch is committed; returns the number
    /// of readers and events.
    static func fill(_ store: any ProgressStore, nowMs: Int64) throws(StoreError) -> (
        readers: Int, events: Int
    ) {
        let (records, readers) = sample(nowMs: nowMs)
        for start in stride(from: 0, to: records.count, by: 1000) {
            let batch = Array(records[start..<min(records.count, start + 1000)])
            let done = DispatchSemaphore(value: 0)
            let outcome = Outcome()
            store.append(batch) { result in
                outcome.result = result
                done.signal()
            }
            done.wait()
            if case .failure(let error) = outcome.result { throw error }
        }
        return (readers, records.count)
    }

    /// The sample's events, in time order, and the number of readers they come from.
    static func sample(nowMs: Int64) -> (records: [EventRecord], readers: Int) {
        var records: [EventRecord] = []
        var readers = 0
        let today = nowMs / dayMs
        for (index, article) in articles.enumerated() {
            for daysAgo in (0..<days).reversed() {
                // A stream of its own for each article and day, so that how much of today has
                // passed changes nothing of the other days.
                var random = SplitMix64(seed: 0x5EED_DA7A ^ UInt64(index) << 32 ^ UInt64(daysAgo))
                let day = today - Int64(daysAgo)
                let count = readerCount(article, daysAgo: daysAgo, weekday: Int((day + 3) % 7), &random)
                for _ in 0..<count {
                    let start = day * dayMs + hourOfDay(&random) * 3_600_000 + Int64(random.below(3_600_000))
                    // Today's readers only up to now; later hours have not happened yet.
                    guard start < nowMs - 60_000 else { continue }
                    readers += 1
                    records += visit(of: article, startingAt: start, until: nowMs, &random)
                }
            }
        }
        records.sort { $0.timeMs < $1.timeMs }
        return (records, readers)
    }

    private static func readerCount(
        _ article: Article, daysAgo: Int, weekday: Int, _ random: inout SplitMix64
    )
        -> Int
    {
        var level = article.readersPerDay * (weekday >= 5 ? 0.6 : 1)
        if let published = article.publishedDaysAgo {
            guard daysAgo <= published else { return 0 }
            // A launch draws four times the usual readers, halving every two days.
            let age = Double(published - daysAgo)
            level *= 1 + 3 * pow(2, -age / 2)
        }
        return Int((level * (0.8 + 0.4 * random.unit())).rounded())
    }

    /// Mornings and evenings, UTC.
    private static func hourOfDay(_ random: inout SplitMix64) -> Int64 {
        let weights: [Double] = [1, 1, 1, 1, 1, 2, 4, 7, 9, 8, 6, 5, 6, 6, 5, 5, 5, 6, 7, 8, 8, 6, 4, 2]
        var pick = random.unit() * weights.reduce(0, +)
        for (hour, weight) in weights.enumerated() {
            pick -= weight
            if pick < 0 { return Int64(hour) }
        }
        return 23
    }

    /// One reader's events on one article: a first one on load, then one each time their depth
    /// grew, as the web tracker sends them, with the engaged time since the one before.
    private static func visit(
        of article: Article, startingAt start: Int64, until nowMs: Int64, _ random: inout SplitMix64
    ) -> [EventRecord] {
        let reader = readerID(&random)
        let onPhone = random.unit() < 0.6
        let screens = onPhone ? article.screens : article.screens * (0.45 + 0.3 * random.unit())
        let width: Double = onPhone ? 390 : random.unit() < 0.3 ? 820 : 1440
        let source = Self.source(&random)
        let segment = { (record: EventRecord) -> EventRecord in
            var record = record
            record.widthDevice = DeviceClass(containerWidth: width)
            record.source = source
            return record
        }
        let secondsPerScreen = 6 + 14 * random.unit() * random.unit()
        guard screens > 1 else {
            // The whole article fits the screen: nothing to scroll, seen in full.
            let engaged = Int64((5 + 35 * random.unit()) * 1000)
            return [
                EventRecord(
                    article: article.id, reader: reader, timeMs: start, progress: 0, seenDepth: 1,
                    scrollable: false,
                    engagedMs: 0),
                EventRecord(
                    article: article.id, reader: reader, timeMs: min(nowMs, start + engaged), progress: 0,
                    seenDepth: 1,
                    scrollable: false, engagedMs: engaged,
                    attention: [UInt32](repeating: UInt32(engaged), count: 20)),
            ].filter { $0.timeMs <= nowMs }.map(segment)
        }
        let depth = segmentDepth(stop(in: article.stops, &random), onPhone: onPhone, source: source)
        let steps = 1 + Int((depth * 5 * random.unit()).rounded(.up))
        let visible = 1 / screens
        var events: [EventRecord] = []
        var time = start
        var previous = 0.0
        for step in 0...steps {
            let progress = step == 0 ? 0 : depth * pow(Double(step) / Double(steps), 0.7)
            var engaged =
                step == 0
                ? 0
                : Int64(
                    secondsPerScreen * 1000 * (depth / Double(steps)) * screens * (0.6 + 0.8 * random.unit()))
            var attention: [UInt32]?
            if step > 0 {
                (engaged, attention) = read(article, from: previous, to: progress, visible: visible, engaged)
            }
            previous = progress
            time += engaged + Int64(random.below(4000))
            guard time <= nowMs else { break }
            events.append(
                EventRecord(
                    article: article.id, reader: reader, timeMs: time, progress: progress,
                    seenDepth: min(1, progress * (1 - visible) + visible), scrollable: true,
                    engagedMs: engaged, sections: step == 0 ? article.sections : nil, attention: attention))
        }
        return events.map(segment)
    }

    /// Where readers come from, as the web tracker names them: a referrer's host or a
    /// campaign's `utm_source`; `nil` for a reader who typed the address.
    private static let sources: [(weight: Double, name: String?)] = [
        (0.36, nil), (0.2, "news.google.com"), (0.16, "newsletter"), (0.12, "duckduckgo.com"),
        (0.1, "t.co"), (0.06, "reddit.com"),
    ]

    private static func source(_ random: inout SplitMix64) -> String? {
        var pick = random.unit()
        for (weight, name) in sources {
            pick -= weight
            if pick < 0 { return name }
        }
        return nil
    }

    /// Segments worth comparing: readers on phones give up sooner, and those who came from the
    /// newsletter (they chose to) read further than those a link happened to bring.
    private static func segmentDepth(_ depth: Double, onPhone: Bool, source: String?) -> Double {
        // Powers keep 0 and 1 where they are: a phone reader who finishes still finishes.
        var depth = onPhone ? pow(depth, 1.35) : depth
        if source == "newsletter" { depth = pow(depth, 0.6) }
        if source == "t.co" { depth = pow(depth, 2.2) }
        return min(1, depth)
    }

    private static func stop(
        in stops: [(weight: Double, low: Double, high: Double, power: Double)], _ random: inout SplitMix64
    ) -> Double {
        var pick = random.unit() * stops.reduce(0) { $0 + $1.weight }
        for part in stops {
            pick -= part.weight
            if pick < 0 { return min(1, part.low + (part.high - part.low) * pow(random.unit(), part.power)) }
        }
        return 1
    }

    /// Sixteen hex digits: an opaque id, as a hashed one looks.
    private static func readerID(_ random: inout SplitMix64) -> String {
        let hex = String(random.next(), radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    private final class Outcome: @unchecked Sendable {
        // Written by the completion before it signals, read after the wait: never at once.
        var result: Result<AppendResult, StoreError>?
    }
}

/// SplitMix64 (Steele, Lea, Flood 2014): small, fast, and the same sequence on every platform.
struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    mutating func unit() -> Double {
        Double(next() >> 11) / Double(1 << 53)
    }

    mutating func below(_ bound: Int) -> Int {
        Int(next() % UInt64(bound))
    }
}
