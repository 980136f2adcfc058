import ProgressStore

/// The database layout, versioned with `PRAGMA user_version` so later releases can migrate.
enum Schema {
    /// Statements that take a database at version `index` to version `index + 1`.
    static let migrations: [String] = [
        // Version 1.
        // articles keeps its rowid: the integer id keeps reader_days' keys short.
        // reader_days and event_ids are looked up only by their key, so WITHOUT ROWID stores
        // each row once, in key order, instead of a table plus an index.
        """
        CREATE TABLE articles (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL UNIQUE
        );
        CREATE TABLE reader_days (
            article INTEGER NOT NULL REFERENCES articles (id),
            reader TEXT NOT NULL,
            day INTEGER NOT NULL,
            max_progress REAL NOT NULL,
            max_seen REAL NOT NULL,
            scrollable INTEGER NOT NULL,
            events INTEGER NOT NULL,
            engaged_ms INTEGER NOT NULL,
            first_ms INTEGER NOT NULL,
            last_ms INTEGER NOT NULL,
            PRIMARY KEY (article, reader, day)
        ) WITHOUT ROWID;
        CREATE TABLE event_ids (
            id TEXT PRIMARY KEY,
            seen_ms INTEGER NOT NULL
        ) WITHOUT ROWID;
        CREATE INDEX event_ids_by_seen ON event_ids (seen_ms);
        CREATE TABLE meta (
            key TEXT PRIMARY KEY,
            value ANY
        ) WITHOUT ROWID;
        """,
        // Version 2: the in-memory index is saved whole, an article per row, by checkpoints;
        // reader_days and event_ids are read once (a database of version 1) and emptied by the
        // first checkpoint. The ids of the last 24 hours are in meta ('recent_ids', and in
        // releases that split them, 'recent_ids.1'…) until version 4.
        """
        CREATE TABLE snapshots (
            name TEXT PRIMARY KEY,
            data BLOB NOT NULL
        );
        """,
        // Version 3: an article's snapshot larger than one blob may hold has its first part in
        // snapshots and the others here.
        """
        CREATE TABLE snapshot_parts (
            name TEXT NOT NULL,
            part INTEGER NOT NULL,
            data BLOB NOT NULL,
            PRIMARY KEY (name, part)
        ) WITHOUT ROWID;
        """,
        // Version 4: the ids of the last 24 hours a row each, added and deleted by checkpoints
        // (before, every checkpoint rewrote all of them as blobs in meta, read once more here).
        """
        CREATE TABLE recent_ids (
            key TEXT PRIMARY KEY,
            seen_ms INTEGER NOT NULL
        ) WITHOUT ROWID;
        CREATE INDEX recent_ids_by_seen ON recent_ids (seen_ms);
        """,
        // Version 5: the ids a checkpoint saves go in as blobs of many (`IDKeyList`), deleted
        // whole once the newest in each has expired: a row each cost the checkpointer a B-tree
        // insert per id, as dear as the event's whole ingest. Rows of version 4 are read once
        // and moved into a blob by the first checkpoint.
        """
        CREATE TABLE recent_id_chunks (
            chunk INTEGER PRIMARY KEY,
            newest_ms INTEGER NOT NULL,
            data BLOB NOT NULL
        );
        """,
    ]

    /// The event log of earlier releases, a database beside the state database (now the event
    /// journal's place): start-up folds what it holds and removes it. Kept to read it, and for
    /// tests that make one. One row per group; the folder moves rows into `reader_days` and
    /// deletes them. AUTOINCREMENT, because a plain rowid would start again at 1 once the
    /// folder has emptied the table, behind the `folded_seq` the state database remembers.
    static let logMigrations: [String] = [
        // Version 1.
        """
        CREATE TABLE event_log (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            committed_ms INTEGER NOT NULL,
            events BLOB NOT NULL
        );
        CREATE TABLE meta (
            key TEXT PRIMARY KEY,
            value ANY
        ) WITHOUT ROWID;
        """
    ]

    static var currentVersion: Int64 { Int64(migrations.count) }

    /// Brings the database of `connection` to the last of `migrations` in one transaction.
    /// A database from a newer release is refused rather than misread.
    static func migrate(_ connection: SQLiteConnection, with migrations: [String] = migrations)
        throws(StoreError)
    {
        let currentVersion = Int64(migrations.count)
        try connection.transaction { () throws(StoreError) in
            let version = try connection.integer("PRAGMA user_version")
            guard version <= currentVersion else {
                throw StoreError(
                    code: 0,
                    message: "database schema version \(version) is newer than this build's \(currentVersion)"
                )
            }
            for step in Int(version)..<migrations.count {
                try connection.execute(migrations[step])
                try connection.execute("PRAGMA user_version = \(step + 1)")
            }
        }
    }
}
