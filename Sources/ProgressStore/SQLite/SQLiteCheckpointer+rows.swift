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
        let size = partSize(partBytes)
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

    /// The articles saved in parts.
    static func partedNames(in state: SQLiteConnection) throws(StoreError) -> Set<ExactKey> {
        let rows = try state.cached("SELECT DISTINCT name FROM snapshot_parts")
        defer { rows.reset() }
        var names: Set<ExactKey> = []
        while try rows.step() { names.insert(ExactKey(rows.string(0))) }
        return names
    }

    /// Article `name`'s snapshot: `first`, and its other parts joined on, in one allocation of the
    /// right size. Throws when a part is missing (the article's checksum would refuse it anyway;
    /// this says why).
    static func joinedSnapshot(name: String, first: UnsafeRawBufferPointer, in state: SQLiteConnection)
        throws(StoreError) -> [UInt8]
    {
        let total = try state.cached(
            "SELECT coalesce(sum(length(data)), 0) FROM snapshot_parts WHERE name = ?1")
        defer { total.reset() }
        try total.bind(1, name)
        _ = try total.step()
        var data: [UInt8] = []
        data.reserveCapacity(first.count + Int(total.int64(0)))
        data.append(contentsOf: first)
        let parts = try state.cached("SELECT part, data FROM snapshot_parts WHERE name = ?1 ORDER BY part")
        defer { parts.reset() }
        try parts.bind(1, name)
        var expected: Int64 = 1
        while try parts.step() {
            guard parts.int64(0) == expected else {
                throw StoreError(
                    code: 0,
                    message:
                        "the snapshot of article \(name) lacks part \(expected) (found part \(parts.int64(0)))"
                )
            }
            data.append(contentsOf: parts.blob(1))
            expected += 1
        }
        return data
    }

    /// The part size for `bytes` asked: at least 1, and under SQLite's 10⁹-byte limit.
    static func partSize(_ bytes: Int) -> Int {
        min(max(bytes, 1), 900_000_000)
    }
}
