import Foundation
import ProgressStore

/// What start-up reads back from the database: the saved articles and the saved ids.
extension Checkpointer {
    /// Loads the saved articles, with their maps and attention, into `index` and remembers
    /// their versions as saved. `filename`: the database's, as the state connection opened it
    /// (`nil` in memory), for a second connection that reads the articles in parts meanwhile.
    func restore(into index: MemoryIndex, filename: String?) throws(StoreError) {
        try restoreSources(into: index)
        parted = try Self.partedNames(in: state)
        let loading = ArticleLoading(into: index)
        do throws(StoreError) {
            try restoreArticles(into: loading, filename: filename)
            try loading.finish()
        } catch {
            loading.abandon()
            throw error
        }
        try restoreSections(into: index)
    }

    /// Reads the saved articles and hands them to `loading`. Those in parts come first, read
    /// and decoded on a thread of its own through a connection of its own, so that the small
    /// ones overlap them: read here in batches of up to 8 MiB of blobs, each decoded on every
    /// core while the next is read.
    private func restoreArticles(into loading: ArticleLoading, filename: String?) throws(StoreError) {
        let names = parted.map(\.string).sorted()
        if !names.isEmpty {
            // A database in memory is new at each start: it holds no article to restore.
            guard let filename else { throw StoreError.corrupt("a database in memory holds saved parts") }
            let connection = try SQLiteConnection(filename: filename, busyTimeoutMs: options.busyTimeoutMs)
            loading.run { () throws(StoreError) in
                defer { connection.close() }
                for name in names {
                    if let bytes = try Self.savedSnapshot(name: name, in: connection) {
                        try loading.insert(bytes)
                    }
                }
            }
        }
        let rows = try state.cached("SELECT name, data FROM snapshots")
        defer { rows.reset() }
        var batch: [[UInt8]] = []
        var batchBytes = 0
        while try rows.step() {
            // Only the name is read of an article in parts: its data stays on the disk.
            if !parted.isEmpty && parted.contains(ExactKey(rows.string(0))) { continue }
            let data = Array(rows.blob(1))
            batchBytes += data.count
            batch.append(data)
            if batchBytes >= 8 << 20 {
                try loading.add(batch)
                batch.removeAll()
                batchBytes = 0
            }
        }
        if !batch.isEmpty { try loading.add(batch) }
    }

    /// Article `name`'s snapshot in `connection`, its parts joined, or `nil` when it has no
    /// first row (parts without one were left by no checkpoint, and are not an article).
    private static func savedSnapshot(name: String, in connection: SQLiteConnection) throws(StoreError)
        -> [UInt8]?
    {
        let first = try connection.cached("SELECT data FROM snapshots WHERE name = ?1")
        defer { first.reset() }
        try first.bind(1, name)
        guard try first.step() else { return nil }
        return try joinedSnapshot(name: name, first: first.blob(0), in: connection)
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
