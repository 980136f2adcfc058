import ProgressStore

/// A load shaped like production: 100 articles whose sizes fall off as 1/rank (the largest
/// holds a fifth of the pairs), reader ids like "reader-1234567" drawn from a pool a quarter
/// the size of the pairs (so a reader reads about four articles), one day record per pair
/// mostly: 1 in 20 pairs has an event on a second day and 1 in 10 a second event on the same
/// day. Every event gives a width, a third name their device and two thirds one of 200 sources.
struct Workload {
    let pairs: Int
    let articles: [String]
    let sizes: [Int]
    private let pool: Int
    /// Prime to the pool, so that one article's readers are distinct.
    private let stride = 1_000_003

    init(pairs: Int, articleCount: Int = 100) {
        self.pairs = pairs
        articles = (0..<articleCount).map { "/articles/2026/a-fairly-ordinary-slug-\($0)" }
        let weights = (0..<articleCount).map { 1 / Double($0 + 1) }
        let total = weights.reduce(0, +)
        var sizes = weights.map { Int(Double(pairs) * $0 / total) }
        sizes[0] += pairs - sizes.reduce(0, +)
        self.sizes = sizes
        var pool = max(pairs / 4, sizes[0])
        while greatestCommonDivisor(pool, stride) != 1 { pool += 1 }
        self.pool = pool
    }

    /// Every event, in batches of `batchSize`, articles interleaved as traffic mixes them.
    func forEachBatch(of batchSize: Int = 1_000, _ body: ([EventRecord]) -> Void) {
        var batch: [EventRecord] = []
        batch.reserveCapacity(batchSize + 2)
        let dayMs: Int64 = 86_400_000
        for i in 0..<sizes[0] {
            for (a, article) in articles.enumerated() where sizes[a] > i {
                var random = XorShift(seed: UInt64(a) << 40 | UInt64(i))
                let reader = "reader-\(1_000_000 + (a &* 7_777_777 + i &* stride) % pool)"
                let day = Int64(20_000 + random.next() % 60)
                let progress = Double(random.next() % 1_000_001) / 1_000_000
                func event(on day: Int64) -> EventRecord {
                    EventRecord(
                        article: article, reader: reader,
                        timeMs: day * dayMs + Int64(random.next() % 86_400_000),
                        progress: progress, seenDepth: min(1, progress + 0.05),
                        scrollable: random.next() % 50 != 0, engagedMs: Int64(random.next() % 120_000),
                        device: random.next() % 3 == 0 ? .phone : nil,
                        widthDevice: random.next() % 2 == 0 ? .phone : .desktop,
                        source: random.next() % 3 == 0 ? nil : "source-\(random.next() % 200).example")
                }
                batch.append(event(on: day))
                switch random.next() % 20 {
                case 0: batch.append(event(on: day + 1 + Int64(random.next() % 30)))
                case 1, 2: batch.append(event(on: day))
                default: break
                }
                if batch.count >= batchSize {
                    body(batch)
                    batch.removeAll(keepingCapacity: true)
                }
            }
        }
        if !batch.isEmpty { body(batch) }
    }
}

private func greatestCommonDivisor(_ a: Int, _ b: Int) -> Int {
    b == 0 ? a : greatestCommonDivisor(b, a % b)
}

/// xorshift64*, seeded through one SplitMix step so that neighbouring seeds scatter.
struct XorShift {
    private var state: UInt64

    init(seed: UInt64) {
        var z = seed &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        state = (z ^ (z >> 27)) | 1
    }

    mutating func next() -> UInt64 {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        return state &* 0x2545_F491_4F6C_DD1D
    }
}
