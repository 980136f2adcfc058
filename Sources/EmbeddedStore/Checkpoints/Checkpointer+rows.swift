import ProgressStore

/// What a checkpoint saves, taken at one instant under the writer's lock: the journal's last
/// seq, the articles changed since the last checkpoint (copy-on-write snapshots), and the
/// deduplication ids acknowledged since the last capture.
struct CheckpointCapture: @unchecked Sendable {
    var seq: Int64
    var articles: [CapturedArticle]
    var newIDs: IDKeyList
    /// Erasures since the last capture: their ids leave the saved chunks.
    var erasures: [Erasure] = []
    /// Articles erased since the last capture: their rows are deleted.
    var erasedArticles: Set<ExactKey> = []
    /// The index's sources by id, taken after the articles, so that it holds every id they name.
    var sources: [String] = []
}

/// How a checkpoint lays out what it saves in rows: event ids in blobs of many, added and deleted
/// as they come and go, and an article too large for one blob in parts (SQLite takes no blob over
/// 10⁹ bytes: an article of some 20 million readers is more than that).
extension Checkpointer {
    /// Adds `ids` (acknowledged since the last checkpoint) to `recent_id_chunks`, as blobs of up
    /// to 64 MiB, and deletes the chunks whose newest id was seen at or before `horizon`: work in
    /// proportion to what came and went, not to what is held, and a few rows a checkpoint rather
    /// than a B-tree insert an id. Callers hold a transaction.
    static func saveIDs(_ ids: IDKeyList, forgettingThrough horizon: Int64, in state: SQLiteConnection)
        throws(StoreError)
    {
        let insert = try state.cached("INSERT INTO recent_id_chunks (newest_ms, data) VALUES (?1, ?2)")
        try ids.forEachBlob(maxBytes: 64 << 20) { (data, newestMs) throws(StoreError) in
            try insert.bind(1, newestMs)
            try insert.bind(2, blob: data)
            try insert.run()
        }
        let expired = try state.cached("DELETE FROM recent_id_chunks WHERE newest_ms <= ?1")
        try expired.bind(1, horizon)
        try expired.run()
    }

    /// Writes article `name`'s snapshot, which `encode` hands to the sink it is given a part at a
    /// time (and returns the size of): the first part in `snapshots`, the others in
    /// `snapshot_parts` (1, 2…), each row as its part arrives — so that no more than a part of an
    /// article is held in memory at once — removing parts an earlier, larger snapshot left.
    /// `hadParts`: the article may have parts now. Returns the snapshot's size. Callers hold a
    /// transaction.
    @discardableResult
    static func writeSnapshot(
        name: String, hadParts: Bool, in state: SQLiteConnection,
        encode: ((UnsafeRawBufferPointer) throws(StoreError) -> Void) throws(StoreError) -> Int
    ) throws(StoreError) -> Int {
        let upsert = try state.cached(
            "INSERT INTO snapshots (name, data) VALUES (?1, ?2) "
                + "ON CONFLICT (name) DO UPDATE SET data = excluded.data")
        let insert = try state.cached(
            "INSERT INTO snapshot_parts (name, part, data) VALUES (?1, ?2, ?3) "
                + "ON CONFLICT (name, part) DO UPDATE SET data = excluded.data")
        var part: Int64 = 0
        // Each piece is bound in place: SQLite reads it out of the encoder's buffer while the row
        // is written, before the encoder fills the buffer again.
        let size = try encode { (piece) throws(StoreError) in
            if part == 0 {
                try upsert.bind(1, name)
                try upsert.bind(2, blobInPlace: piece)
                try upsert.run()
            } else {
                try insert.bind(1, name)
                try insert.bind(2, part)
                try insert.bind(3, blobInPlace: piece)
                try insert.run()
            }
            part += 1
        }
        if hadParts {
            let spare = try state.cached("DELETE FROM snapshot_parts WHERE name = ?1 AND part > ?2")
            try spare.bind(1, name)
            try spare.bind(2, part - 1)
            try spare.run()
        }
        return size
    }

    /// Deletes article `name`'s snapshot, parts, map and attention and all. Callers hold a transaction.
    static func deleteSnapshot(name: String, in state: SQLiteConnection) throws(StoreError) {
        for sql in ["DELETE FROM snapshots WHERE name = ?1", "DELETE FROM snapshot_parts WHERE name = ?1"] {
            let delete = try state.cached(sql)
            try delete.bind(1, name)
            try delete.run()
        }
        try deleteSections(name: name, in: state)
    }

    /// Rewrites the saved chunks of ids that hold an id of a pair `erasures` took, without them.
    /// Callers hold a transaction.
    static func eraseIDs(of erasures: [Erasure], in state: SQLiteConnection) throws(StoreError) {
        let rows = try state.cached("SELECT chunk, data FROM recent_id_chunks")
        var rewritten: [(chunk: Int64, kept: IDKeyList)] = []
        do {
            defer { rows.reset() }
            while try rows.step() {
                let ids = try IDKeyList(blob: rows.blob(1))
                let kept = ids.filter { key in !erasures.contains { $0.covers(key: key) } }
                if kept.count != ids.count { rewritten.append((rows.int64(0), kept)) }
            }
        }
        let delete = try state.cached("DELETE FROM recent_id_chunks WHERE chunk = ?1")
        let insert = try state.cached("INSERT INTO recent_id_chunks (newest_ms, data) VALUES (?1, ?2)")
        for (chunk, kept) in rewritten {
            try delete.bind(1, chunk)
            try delete.run()
            try kept.forEachBlob(maxBytes: 64 << 20) { (data, newestMs) throws(StoreError) in
                try insert.bind(1, newestMs)
                try insert.bind(2, blob: data)
                try insert.run()
            }
        }
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
                throw StoreError.corrupt(
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
