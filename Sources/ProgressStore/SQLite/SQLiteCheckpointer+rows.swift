/// How a checkpoint lays out what it saves in rows: event ids in blobs of bounded size, and an
/// article too large for one blob in parts. SQLite takes no blob over 10⁹ bytes (and binding one
/// over 2³¹ would not even be tried): an article of some 13 million readers, or a day of ids at a
/// few hundred events a second, is more than that.
extension SQLiteCheckpointer {
    /// The ids younger than `horizon`, in blobs of a little over `size` bytes at most: each a
    /// count, then each id and when it was seen. There is always at least one blob.
    static func idBlobs(_ ids: RecentIDs, after horizon: Int64, size: Int) -> [[UInt8]] {
        var blobs: [[UInt8]] = []
        var entries = CheckpointWriter()
        var count = 0
        func close() {
            var blob = CheckpointWriter()
            blob.integer(UInt64(count))
            blob.bytes.append(contentsOf: entries.bytes)
            blobs.append(blob.bytes)
            entries = CheckpointWriter()
            count = 0
        }
        ids.forEachID { key, seenMs in
            guard seenMs > horizon else { return }
            entries.string(key.string)
            entries.integer(UInt64(bitPattern: seenMs))
            count += 1
            if entries.bytes.count >= size { close() }
        }
        if count > 0 || blobs.isEmpty { close() }
        return blobs
    }

    /// `recent_ids` for the first blob (as releases before the split wrote it), then
    /// `recent_ids.1`, `recent_ids.2`…
    static func idBlobKey(_ index: Int) -> String {
        index == 0 ? "recent_ids" : "recent_ids.\(index)"
    }

    /// Writes `data` as article `name`'s snapshot: whole in `snapshots` when it fits in
    /// `partBytes`, otherwise its first part there and the others in `snapshot_parts` (1, 2…),
    /// removing parts an earlier, larger snapshot left. `hadParts`: the article may have parts
    /// now. Callers hold a transaction.
    static func writeSnapshot(
        name: String, data: [UInt8], partBytes: Int, hadParts: Bool, in state: SQLiteConnection
    ) throws(StoreError) {
        let size = max(partBytes, 1)
        let upsert = try state.cached(
            "INSERT INTO snapshots (name, data) VALUES (?1, ?2) "
                + "ON CONFLICT (name) DO UPDATE SET data = excluded.data")
        try upsert.bind(1, name)
        try upsert.bind(2, blob: data.count <= size ? data : Array(data[..<size]))
        try upsert.run()
        var part = 0
        if data.count > size {
            let insert = try state.cached(
                "INSERT INTO snapshot_parts (name, part, data) VALUES (?1, ?2, ?3) "
                    + "ON CONFLICT (name, part) DO UPDATE SET data = excluded.data")
            var start = size
            while start < data.count {
                part += 1
                try insert.bind(1, name)
                try insert.bind(2, Int64(part))
                try insert.bind(3, blob: Array(data[start..<min(start + size, data.count)]))
                try insert.run()
                start += size
            }
        }
        guard hadParts else { return }
        let spare = try state.cached("DELETE FROM snapshot_parts WHERE name = ?1 AND part > ?2")
        try spare.bind(1, name)
        try spare.bind(2, Int64(part))
        try spare.run()
    }

    /// The parts after the first of every article saved in parts, joined, by article (by its
    /// bytes: "/é" and "/e\u{301}" are two articles, though equal as Swift strings). Throws when
    /// one is missing (the article's checksum would refuse it anyway; this says why).
    static func snapshotParts(in state: SQLiteConnection) throws(StoreError) -> [ExactKey: [UInt8]] {
        let rows = try state.cached("SELECT name, part, data FROM snapshot_parts ORDER BY name, part")
        defer { rows.reset() }
        var parts: [ExactKey: [UInt8]] = [:]
        var last: (name: ExactKey, part: Int64)?
        while try rows.step() {
            let name = ExactKey(rows.string(0))
            let part = rows.int64(1)
            let expected = last?.name == name ? last!.part + 1 : 1
            guard part == expected else {
                throw StoreError(
                    code: 0,
                    message:
                        "the snapshot of article \(name.string) lacks part \(expected) (found part \(part))")
            }
            parts[name, default: []].append(contentsOf: rows.blob(2))
            last = (name, part)
        }
        return parts
    }
}
