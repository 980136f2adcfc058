import EmbeddedStore
import ProgressStore

/// One article of a million readers over 30 UTC days: what a one-day range costs cold (the
/// first ask after a new event, as the stats route asks once an event has moved the article's
/// version), for the statistics, a range that holds one of the article's days, and the
/// article's line of the listing over the day.
enum DayRangeBench {
    static let firstDay: Int32 = 20_400
    static let days: Int32 = 30

    static func run(pairs: Int) {
        let index = StandaloneIndex()
        // 12-byte reader ids, reader i on day i mod 30, one in 20 again on the next day.
        for start in stride(from: 0, to: pairs, by: 10_000) {
            var batch: [EventRecord] = []
            for i in start..<min(pairs, start + 10_000) {
                let day = firstDay + Int32(i % Int(days))
                batch.append(event(reader: i, day: day, i))
                if i % 20 == 0 && day + 1 < firstDay + days {
                    batch.append(event(reader: i, day: day + 1, i + 1))
                }
            }
            index.apply(batch)
        }
        check(index.pairCount == pairs, "\(index.pairCount) pairs held of \(pairs) applied")
        let day = firstDay + days / 2
        var next = pairs
        // Each round a new event on the day (a new reader), then the query, timed alone.
        func cold(_ ask: () -> Void) -> Double {
            var samples: [Double] = []
            for _ in 0..<15 {
                index.apply([event(reader: next, day: day, next)])
                next += 1
                samples.append(timed(ask).wall)
            }
            return samples.sorted()[samples.count / 2]
        }
        let oneDay = DayRange(from: day, to: day)
        let stats = cold {
            _ = index.statistics(StatisticsQuery(article: "/million", days: oneDay, threshold: 0.9))
        }
        let seen = cold {
            _ = index.statistics(
                StatisticsQuery(article: "/million", days: oneDay, metric: .seenDepth, threshold: 0.5))
        }
        let listing = cold { _ = index.listing(ListingQuery(days: oneDay, threshold: 0.9)) }
        let engaged = cold {
            _ = index.statistics(
                StatisticsQuery(article: "/million", days: oneDay, threshold: 0.9, minEngagedSeconds: 1))
        }
        let week = cold {
            _ = index.statistics(
                StatisticsQuery(article: "/million", days: DayRange(from: day, to: day + 6), threshold: 0.9))
        }
        print(
            "index, one article of \(pairs) readers over \(days) days, one-day range cold (median of 15): "
                + "stats \(figure(stats * 1e3, 3)) ms, seenDepth \(figure(seen * 1e3, 3)) ms, "
                + "listing \(figure(listing * 1e3, 3)) ms; still folded: engaged minimum "
                + "\(figure(engaged * 1e3, 1)) ms, a 7-day range \(figure(week * 1e3, 1)) ms; "
                + "\(figure(Double(index.footprint) / Double(pairs))) bytes allocated a pair")
    }

    private static func event(reader: Int, day: Int32, _ seed: Int) -> EventRecord {
        let id = String(reader, radix: 16)
        return EventRecord(
            article: "/million", reader: String(repeating: "0", count: 12 - id.count) + id,
            timeMs: Int64(day) * 86_400_000 + Int64(seed % 86_400_000), progress: Double(seed % 1000) / 999,
            seenDepth: Double(seed % 997) / 996, scrollable: seed % 50 != 0, engagedMs: Int64(seed % 7_000))
    }
}
