import EmbeddedStore
import ProgressStore

/// One article of a million readers over 19 UTC days — half of them on its busiest day, the
/// others on 14 more (about 33,000 each), one in 20 of those again on the next day, one in
/// 1,000 of all on a sparse last day — and what a one-day range costs cold
/// (the first ask after a new event on that day, as the stats route asks once an event has
/// moved the article's version): the statistics of each kind of day, the article's line of the
/// listing over the busiest day, and two queries that still fold every reader.
enum DayRangeBench {
    static let firstDay: Int32 = 20_400
    static let busiest = firstDay + 15
    static let sparse = firstDay + 30

    static func run(pairs: Int) {
        let index = StandaloneIndex()
        // 12-byte reader ids; one in 20 readers again on the next day, one in 1000 on the sparse day.
        for start in stride(from: 0, to: pairs, by: 10_000) {
            var batch: [EventRecord] = []
            for i in start..<min(pairs, start + 10_000) {
                let day = i % 2 == 0 ? busiest : firstDay + Int32(i % 30)
                batch.append(event(reader: i, day: day, i))
                if i % 20 == 1 && day + 1 < sparse { batch.append(event(reader: i, day: day + 1, i + 1)) }
                if i % 1000 == 3 { batch.append(event(reader: i, day: sparse, i + 2)) }
            }
            index.apply(batch)
        }
        check(index.pairCount == pairs, "\(index.pairCount) pairs held of \(pairs) applied")
        var next = pairs
        // Each round a new event on the day (a new reader), then the query, timed alone.
        func cold(on day: Int32, _ ask: () -> Void) -> String {
            var samples: [Double] = []
            for _ in 0..<15 {
                index.apply([event(reader: next, day: day, next)])
                next += 1
                samples.append(timed(ask).wall)
            }
            return figure(samples.sorted()[samples.count / 2] * 1e3, 3) + " ms"
        }
        func stats(_ days: DayRange, metric: ArticleStatistics.Metric = .progress, engaged: Double = 0) {
            _ = index.statistics(
                StatisticsQuery(
                    article: "/million", days: days, metric: metric, threshold: 0.9,
                    minEngagedSeconds: engaged))
        }
        func one(_ day: Int32) -> DayRange { DayRange(from: day, to: day) }
        let ordinary = firstDay + 7
        let figures = [
            "stats of the busiest day " + cold(on: busiest) { stats(one(busiest)) },
            "seenDepth " + cold(on: busiest) { stats(one(busiest), metric: .seenDepth) },
            "an ordinary day " + cold(on: ordinary) { stats(one(ordinary)) },
            "the sparse day " + cold(on: sparse) { stats(one(sparse)) },
            "a range holding only the sparse day "
                + cold(on: sparse) { stats(DayRange(from: sparse, to: sparse + 6)) },
            "listing over the busiest day "
                + cold(on: busiest) { _ = index.listing(ListingQuery(days: one(busiest), threshold: 0.9)) },
        ]
        let folded = [
            "an engaged minimum " + cold(on: busiest) { stats(one(busiest), engaged: 1) },
            "a 7-day range " + cold(on: busiest) { stats(DayRange(from: busiest, to: busiest + 6)) },
        ]
        let kept = index.dayCounters(of: "/million")
        let recounting = medianSeconds(rounds: 3, calls: 1) {
            check(index.recountDayCounters(of: "/million") == kept.days, "the days recounted differ")
        }
        // A restart's share: the article restored from its snapshot, which recounts every counter.
        let blobs = index.encodedArticles()
        let restoring = medianSeconds(rounds: 3, calls: 1) {
            let restored = StandaloneIndex()
            do {
                try restored.restoreSources(index.sources())
                for blob in blobs { try restored.restoreArticle(blob) }
            } catch {
                check(false, "the article failed to restore: \(error)")
            }
        }
        print(
            "index, one article of \(pairs) readers over 19 days, one-day ranges cold (median of 15): "
                + figures.joined(separator: ", ") + "; still folding every reader: "
                + folded.joined(separator: ", ") + "; "
                + "\(figure(Double(index.footprint) / Double(pairs))) bytes allocated a pair, of which the "
                + "counters of \(kept.days) days (\(kept.withHistograms) with histograms) "
                + "\(kept.bytes) bytes; restoring the article \(figure(restoring * 1e3)) ms, of which "
                + "recounting the day counters \(figure(recounting * 1e3)) ms (medians of 3)")
    }

    private static func event(reader: Int, day: Int32, _ seed: Int) -> EventRecord {
        let id = String(reader, radix: 16)
        return EventRecord(
            article: "/million", reader: String(repeating: "0", count: 12 - id.count) + id,
            timeMs: Int64(day) * 86_400_000 + Int64(seed % 86_400_000), progress: Double(seed % 1000) / 999,
            seenDepth: Double(seed % 997) / 996, scrollable: seed % 50 != 0, engagedMs: Int64(seed % 7_000))
    }
}
