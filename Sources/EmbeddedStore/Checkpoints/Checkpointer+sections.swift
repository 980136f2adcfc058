import ProgressStore

/// Section maps and attention in the database: a row of `section_maps` and of `attention_days`
/// an article (``SectionsCodec``), written with the article's snapshot in the checkpoint's
/// transaction and deleted with it, so that they hold exactly what the snapshot's journal seq
/// does.
extension Checkpointer {
    /// Saves article `name`'s map and attention. Callers hold a transaction.
    static func writeSections(name: String, _ sections: ArticleSections, in state: SQLiteConnection)
        throws(StoreError)
    {
        if let map = sections.map {
            let upsert = try state.cached(
                "INSERT INTO section_maps (name, time_ms, data) VALUES (?1, ?2, ?3) "
                    + "ON CONFLICT (name) DO UPDATE SET time_ms = excluded.time_ms, data = excluded.data")
            try upsert.bind(1, name)
            try upsert.bind(2, sections.mapTimeMs)
            try upsert.bind(3, blob: SectionsCodec.encode(map: map))
            try upsert.run()
        }
        if !sections.days.isEmpty {
            let upsert = try state.cached(
                "INSERT INTO attention_days (name, data) VALUES (?1, ?2) "
                    + "ON CONFLICT (name) DO UPDATE SET data = excluded.data")
            try upsert.bind(1, name)
            try upsert.bind(2, blob: SectionsCodec.encode(days: sections.days, bands: sections.bands))
            try upsert.run()
        } else if sections.hadAttention {
            // Every day of it expired while the article's later days stay.
            let delete = try state.cached("DELETE FROM attention_days WHERE name = ?1")
            try delete.bind(1, name)
            try delete.run()
        }
    }

    /// Deletes article `name`'s map and attention. Callers hold a transaction.
    static func deleteSections(name: String, in state: SQLiteConnection) throws(StoreError) {
        for sql in ["DELETE FROM section_maps WHERE name = ?1", "DELETE FROM attention_days WHERE name = ?1"]
        {
            let delete = try state.cached(sql)
            try delete.bind(1, name)
            try delete.run()
        }
    }

    /// Gives the articles `index` holds (restored from their snapshots) their saved maps and
    /// attention, leaving their versions as saved.
    func restoreSections(into index: MemoryIndex) throws(StoreError) {
        var maps: [ExactKey: (timeMs: Int64, map: [Section])] = [:]
        let mapRows = try state.cached("SELECT name, time_ms, data FROM section_maps")
        do {
            defer { mapRows.reset() }
            while try mapRows.step() {
                let name = mapRows.string(0)
                maps[ExactKey(name)] = (
                    mapRows.int64(1), try SectionsCodec.decodeMap(mapRows.blob(2), article: name)
                )
            }
        }
        var restored: [ExactKey: ArticleSections] = [:]
        let attentionRows = try state.cached("SELECT name, data FROM attention_days")
        do {
            defer { attentionRows.reset() }
            while try attentionRows.step() {
                let name = attentionRows.string(0)
                let (days, bands) = try SectionsCodec.decodeAttention(attentionRows.blob(1), article: name)
                let map = maps.removeValue(forKey: ExactKey(name))
                restored[ExactKey(name)] = ArticleSections(
                    map: map?.map, mapTimeMs: map?.timeMs ?? .min, days: days, bands: bands)
            }
        }
        for (key, map) in maps {
            restored[key] = ArticleSections(map: map.map, mapTimeMs: map.timeMs, days: [], bands: [])
        }
        index.restoreSections(restored)
    }
}

extension MemoryIndex {
    /// Sets the maps and attention of held articles, as a checkpoint saved them, without moving
    /// their versions (start-up, before the journal's replay). Rows of an article without a
    /// snapshot cannot be (both are written and deleted in one transaction) and are ignored.
    func restoreSections(_ restored: [ExactKey: ArticleSections]) {
        guard !restored.isEmpty else { return }
        state.write { state in
            for (key, sections) in restored {
                guard let slot = state.slots[key] else { continue }
                state.articles[Int(slot)].sections = sections
            }
        }
    }
}
