import Foundation
import ProgressStore

/// What start-up reads back from the database: the saved articles and the saved ids.
extension Checkpointer {
    /// Loads the saved articles, with their maps and attention, into `index` and remembers
    /// their versions as saved.
    func restore(into index: MemoryIndex) throws(StoreError) {
        try restoreSources(into: index)
        parted = try Self.partedNames(in: state)
        let rows = try state.cached("SELECT name, data FROM snapshots")
        defer { rows.reset() }
        var batch: [[UInt8]] = []
        var batchBytes = 0
        // Articles decode on every core at once, a batch of up to 64 MiB of blobs at a time.
        func restoreBatch() throws(StoreError) {
            let blobs = batch
            let decoded = Locked([Result<DecodedArticle, StoreError>?](repeating: nil, count: blobs.count))
            DispatchQueue.concurrentPerform(iterations: blobs.count) { item in
                let result = blobs[item].withUnsafeBytes { raw in
                    Result { () throws(StoreError) in try MemoryIndex.decodeArticle(raw) }
                }
                decoded.withLock { $0[item] = result }
            }
            var articles: [DecodedArticle] = []
            for result in decoded.current { articles.append(try result!.get()) }
            try index.insert(articles)
            batch.removeAll()
            batchBytes = 0
        }
        while try rows.step() {
            let name = parted.isEmpty ? nil : rows.string(0)
            let data =
                if let name, parted.contains(ExactKey(name)) {
                    try Self.joinedSnapshot(name: name, first: rows.blob(1), in: state)
                } else {
                    Array(rows.blob(1))
                }
            batchBytes += data.count
            batch.append(data)
            if batchBytes >= 64 << 20 { try restoreBatch() }
        }
        rows.reset()
        try restoreBatch()
        try restoreSections(into: index)
    }

    /// Gives `index` the saved sources (before any article that names them).
    private func restoreSources(into index: MemoryIndex) throws(StoreError) {
        let rows = try state.cached("SELECT id, name FROM sources ORDER BY id")
        defer { rows.reset() }
        var names: [String] = []
        while try rows.step() {
            guard rows.int64(0) == Int64(names.count) + 2 else {
                throw StoreError.corrupt("the saved sources skip an id")
            }
            names.append(rows.string(1))
        }
        try index.restoreSources(names)
        savedSourceCount = names.count + 2
    }

    /// Adds the sources of `sources` (by id) from `first` on, which the table does not hold yet.
    /// Callers hold a transaction.
    static func saveSources(_ sources: [String], from first: Int, in state: SQLiteConnection)
        throws(StoreError)
    {
        guard sources.count > first else { return }
        // A commit that reported failure may have saved some already.
        let insert = try state.cached("INSERT OR IGNORE INTO sources (id, name) VALUES (?1, ?2)")
        for id in first..<sources.count {
            try insert.bind(1, Int64(id))
            try insert.bind(2, sources[id])
            try insert.run()
        }
    }

    /// Calls `body` with the key of each saved id acknowledged after `sinceMs`, a chunk at a
    /// time (a key may come more than once).
    func forEachSavedID(since sinceMs: Int64, _ body: (UnsafeBufferPointer<UInt8>) -> Void) throws(StoreError)
    {
        let chunks = try state.cached("SELECT data FROM recent_id_chunks WHERE newest_ms > ?1 ORDER BY chunk")
        defer { chunks.reset() }
        try chunks.bind(1, sinceMs)
        while try chunks.step() {
            try IDKeyList(blob: chunks.blob(0)).forEachKey { key, seenMs in
                if seenMs > sinceMs { body(key) }
            }
        }
    }
}
