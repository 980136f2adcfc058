import ProgressStore

/// Section maps and attention (docs/api.md, "Sections and attention") folded from the log
/// into `rp_sections` and `rp_attention`, in the fold's transaction.
extension Folding {
    /// An article, by its bytes, and a day: as the counters by day key them.
    typealias AttentionKey = DayCounting.Key

    /// What one fold batch carries besides the readers' figures: per article the map of its
    /// latest event by time (the last such in arrival order on a tie), and the attention
    /// summed per article and UTC day.
    struct Parts {
        var maps: [ExactKey: (timeMs: Int64, sections: [Section])] = [:]
        var attention: [AttentionKey: [Int64]] = [:]

        /// Adds `event`; events come in the log's order, which is arrival order across nodes.
        mutating func add(_ event: EventRecord) {
            if let sections = event.sections, event.timeMs >= maps[ExactKey(event.article)]?.timeMs ?? .min {
                maps[ExactKey(event.article)] = (event.timeMs, sections)
            }
            if let bands = event.attention {
                let key = AttentionKey(article: event.article, day: event.day)
                var sums = attention[key] ?? [Int64](repeating: 0, count: AttentionBands.count)
                for (band, ms) in bands.enumerated() { sums[band] += Int64(ms) }
                attention[key] = sums
            }
        }
    }

    /// Writes `parts`: a map replaces the stored one unless that one's time is later (a later
    /// fold holds later arrivals, so a tie goes to it); attention adds to the day's.
    static func apply(_ parts: Parts, on connection: PGConnection) throws(StoreError) {
        if !parts.maps.isEmpty {
            let maps = Array(parts.maps)
            try connection.execute(
                """
                INSERT INTO rp_sections AS s (article, time_ms, map)
                SELECT * FROM unnest($1::text[], $2::int8[], $3::bytea[])
                ON CONFLICT (article) DO UPDATE SET time_ms = excluded.time_ms, map = excluded.map
                WHERE excluded.time_ms >= s.time_ms
                """,
                [
                    .textArray(maps.map(\.key.string)), .numberArray(maps.map(\.value.timeMs)),
                    .bytesArray(maps.map { SectionMap.encode($0.value.sections) }),
                ])
        }
        guard !parts.attention.isEmpty else { return }
        let days = Array(parts.attention)
        try connection.execute(
            """
            INSERT INTO rp_attention AS t (article, day, bands)
            SELECT u.article, u.day, ($3::int8[])[(u.n - 1) * \(AttentionBands.count) + 1 : u.n * \(AttentionBands.count)]
            FROM unnest($1::text[], $2::int4[]) WITH ORDINALITY AS u (article, day, n)
            ON CONFLICT (article, day) DO UPDATE SET bands = (
                SELECT array_agg(x + y ORDER BY i) FROM unnest(t.bands, excluded.bands) WITH ORDINALITY AS b (x, y, i))
            """,
            [
                .textArray(days.map(\.key.article)), .numberArray(days.map(\.key.day)),
                .numberArray(days.flatMap(\.value)),
            ])
    }
}
