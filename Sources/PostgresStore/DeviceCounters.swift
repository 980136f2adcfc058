import ProgressCore
import ProgressStore

/// The counters of a large article's readers over the reader-days of one device class
/// (`rp_article_devices`), so that a device filter, or the segments by device, read a row each
/// whatever the number of readers. An article gets them once it has more than
/// ``ArticleCounters/histogramMinimumReaders`` readers; folding, erasure and retention keep
/// them up to date from then on.
extension Segmenting {
    struct DeviceKey: Hashable {
        var article: String
        var device: Int16
    }

    /// The counters `rp_article_devices` holds for `articles`.
    static func deviceCounters(of articles: Set<String>, on connection: PGConnection) throws(StoreError)
        -> [DeviceKey: ArticleCounters]
    {
        guard !articles.isEmpty else { return [:] }
        let rows = try connection.execute(
            "SELECT article, device, \(ArticleCounters.columns) FROM rp_article_devices "
                + "WHERE article = ANY($1::text[])", [.textArray(articles)])
        var found: [DeviceKey: ArticleCounters] = [:]
        for row in 0..<rows.rowCount {
            let key = DeviceKey(article: rows.string(row, 0), device: Int16(try rows.int64(row, 1)))
            found[key] = try ArticleCounters(rows, row: row, from: 2)
        }
        return found
    }

    /// Moves the device counters of the `kept` articles by a fold of `days`: `changes` are the
    /// upsert's rows of those articles (article, reader, day, the day's class before or `NULL`
    /// for a new day, after), `before` the pairs' figures by class before it. A pair one of
    /// whose days changed class (an earlier event named another) is read again and moved out
    /// and back in, and the times of a class it left are read from the rows that stay.
    static func moveDevices(
        of kept: Set<String>, days: [Folding.DayKey: Folding.DayFold], changes: PGResult,
        before: [Folding.PairKey: [Int16: ReaderFigures]], on connection: PGConnection
    ) throws(StoreError) {
        guard !kept.isEmpty else { return }
        var counters = try deviceCounters(of: kept, on: connection)
        var batch: [Folding.PairKey: [Int16: ReaderFigures]] = [:]
        var changed: Set<Folding.PairKey> = []
        for row in 0..<changes.rowCount {
            let key = Folding.DayKey(
                article: changes.string(row, 0), reader: changes.string(row, 1),
                day: Int32(try changes.int64(row, 2)))
            let pair = Folding.PairKey(article: key.article, reader: key.reader)
            let now = Int16(try changes.int64(row, 4))
            if !changes.isNull(row, 3), Int16(try changes.int64(row, 3)) != now { changed.insert(pair) }
            guard let fold = days[key]?.figures else { continue }
            batch[pair, default: [:]][now] = batch[pair]?[now].map { $0.folded(fold) } ?? fold
        }
        for (pair, byDevice) in batch where !changed.contains(pair) {
            for (device, figures) in byDevice {
                let prior = before[pair]?[device]
                counters[
                    DeviceKey(article: pair.article, device: device),
                    default: ArticleCounters(keepsHistograms: true)
                ]
                .move(from: prior, to: prior.map { $0.folded(figures) } ?? figures)
            }
        }
        var left: Set<DeviceKey> = []
        let after = try Folding.allTimeByDevice(of: Array(changed), on: connection)
        for pair in changed {
            for (device, figures) in before[pair] ?? [:] {
                let key = DeviceKey(article: pair.article, device: device)
                counters[key]?.drop(figures)
                left.insert(key)
            }
            for (device, figures) in after[pair] ?? [:] {
                counters[
                    DeviceKey(article: pair.article, device: device),
                    default: ArticleCounters(keepsHistograms: true)
                ]
                .move(from: nil, to: figures)
            }
        }
        try recountTimes(of: left, in: &counters, on: connection)
        try save(counters, on: connection)
    }

    /// Sets the counters of every class of `articles` from their rows (an article that grew
    /// past the bound, or lost days to retention); an article without rows loses its counters.
    static func countDevices(of articles: Set<String>, on connection: PGConnection) throws(StoreError) {
        guard !articles.isEmpty else { return }
        let rows = try connection.execute(
            """
            SELECT d.article, \(device("d")), \(ReaderFigures.sql("d"))
            FROM rp_reader_days AS d WHERE d.article = ANY($1::text[]) GROUP BY d.article, d.reader, 2
            """, [.textArray(articles)])
        var counters: [DeviceKey: ArticleCounters] = [:]
        for row in 0..<rows.rowCount {
            let key = DeviceKey(article: rows.string(row, 0), device: Int16(try rows.int64(row, 1)))
            counters[key, default: ArticleCounters(keepsHistograms: true)].move(
                from: nil, to: try ReaderFigures(rows, row: row, from: 2))
        }
        try connection.execute(
            "DELETE FROM rp_article_devices WHERE article = ANY($1::text[])", [.textArray(articles)])
        try save(counters, on: connection)
    }

    /// Sets the first and last event times of `keys` from the rows of their class that stay.
    static func recountTimes(
        of keys: Set<DeviceKey>, in counters: inout [DeviceKey: ArticleCounters], on connection: PGConnection
    ) throws(StoreError) {
        guard !keys.isEmpty else { return }
        let list = Array(keys)
        let rows = try connection.execute(
            """
            SELECT k.article, k.device, min(d.first_ms), max(d.last_ms)
            FROM unnest($1::text[], $2::int2[]) AS k (article, device)
            JOIN rp_reader_days AS d ON d.article = k.article AND \(device("d")) = k.device
            GROUP BY k.article, k.device
            """, [.textArray(list.map(\.article)), .numberArray(list.map(\.device))])
        for row in 0..<rows.rowCount {
            let key = DeviceKey(article: rows.string(row, 0), device: Int16(try rows.int64(row, 1)))
            counters[key]?.firstMs = try rows.int64(row, 2)
            counters[key]?.lastMs = try rows.int64(row, 3)
        }
    }

    /// Writes `counters` back; a class left without readers is deleted.
    static func save(_ counters: [DeviceKey: ArticleCounters], on connection: PGConnection) throws(StoreError)
    {
        let emptied = counters.filter { $0.value.readers <= 0 }.map(\.key)
        if !emptied.isEmpty {
            try connection.execute(
                """
                DELETE FROM rp_article_devices AS a USING unnest($1::text[], $2::int2[]) AS k (article, device)
                WHERE a.article = k.article AND a.device = k.device
                """, [.textArray(emptied.map(\.article)), .numberArray(emptied.map(\.device))])
        }
        let entries = counters.filter { $0.value.readers > 0 }.map { ($0.key, $0.value) }
        guard !entries.isEmpty else { return }
        try connection.execute(
            """
            INSERT INTO rp_article_devices AS a (article, device, \(ArticleCounters.columns))
            SELECT article, device, readers, unscrollable, events, engaged_ms, first_ms, last_ms,
                progress_units::numeric, seen_units::numeric, progress_bins, seen_bins
            FROM unnest($1::text[], $2::int2[], $3::int8[], $4::int8[], $5::int8[], $6::int8[], $7::int8[],
                $8::int8[], $9::text[], $10::text[], $11::bytea[], $12::bytea[])
                AS u (article, device, readers, unscrollable, events, engaged_ms, first_ms, last_ms,
                    progress_units, seen_units, progress_bins, seen_bins)
            ON CONFLICT (article, device) DO UPDATE SET readers = excluded.readers,
                unscrollable = excluded.unscrollable, events = excluded.events,
                engaged_ms = excluded.engaged_ms, first_ms = excluded.first_ms, last_ms = excluded.last_ms,
                progress_units = excluded.progress_units, seen_units = excluded.seen_units,
                progress_bins = excluded.progress_bins, seen_bins = excluded.seen_bins
            """,
            [
                .textArray(entries.map(\.0.article)), .numberArray(entries.map(\.0.device)),
                .numberArray(entries.map { Int64($0.1.readers) }),
                .numberArray(entries.map { Int64($0.1.unscrollable) }),
                .numberArray(entries.map(\.1.events)), .numberArray(entries.map(\.1.engagedMs)),
                .numberArray(entries.map { $0.1.firstMs ?? .max }),
                .numberArray(entries.map { $0.1.lastMs ?? .min }),
                .textArray(entries.map { String($0.1.progressSum.totalUnits) }),
                .textArray(entries.map { String($0.1.seenSum.totalUnits) }),
                .bytesArray(entries.map { ArticleCounters.bins($0.1.histograms?.progress) }),
                .bytesArray(entries.map { ArticleCounters.bins($0.1.histograms?.seenDepth) }),
            ])
    }
}
