import ProgressStore

/// The database layout, versioned with `PRAGMA user_version`: a later release migrates from the
/// versions it knows, and a build refuses a database of a newer version rather than misread it.
enum Schema {
    /// Statements that take a database at version `index` to version `index + 1`.
    static let migrations: [String] = [
        // Version 1.
        // snapshots: the in-memory index, an article per row, saved by checkpoints; an article
        // larger than one blob may hold has its first part there and the others in
        // snapshot_parts. recent_id_chunks: the event ids of the last 24 hours, as blobs of
        // many (`IDKeyList`), each deleted whole once the newest in it has expired — a row an
        // id would cost a checkpoint a B-tree insert per id. meta: `folded_seq`, the last
        // journal entry the snapshots hold. salts: the secret of each UTC day's derived
        // reader ids (docs/privacy.md), deleted 48 hours after its day ends.
        """
        CREATE TABLE meta (
            key TEXT PRIMARY KEY,
            value ANY
        ) WITHOUT ROWID;
        CREATE TABLE snapshots (
            name TEXT PRIMARY KEY,
            data BLOB NOT NULL
        );
        CREATE TABLE snapshot_parts (
            name TEXT NOT NULL,
            part INTEGER NOT NULL,
            data BLOB NOT NULL,
            PRIMARY KEY (name, part)
        ) WITHOUT ROWID;
        CREATE TABLE recent_id_chunks (
            chunk INTEGER PRIMARY KEY,
            newest_ms INTEGER NOT NULL,
            data BLOB NOT NULL
        );
        CREATE TABLE salts (
            day INTEGER PRIMARY KEY,
            salt BLOB NOT NULL
        );
        """,
        // Version 2.
        // section_maps: each article's latest section map (docs/api.md, "Sections and
        // attention") with the time of the event that carried it. attention_days: each
        // article's attention, the twenty bands' milliseconds summed per UTC day. A row an
        // article, written with its snapshot and deleted with it (see `SectionsCodec`).
        """
        CREATE TABLE section_maps (
            name TEXT PRIMARY KEY,
            time_ms INTEGER NOT NULL,
            data BLOB NOT NULL
        );
        CREATE TABLE attention_days (
            name TEXT PRIMARY KEY,
            data BLOB NOT NULL
        );
        """,
        // Version 3.
        // sources: the store's sources (docs/api.md, "Segments") by the id the snapshots' reader-
        // days hold, from 2 (0 is `(direct)` and 1 `(other)`, never saved); rows are only added,
        // each in the checkpoint that first saves a snapshot naming it. Snapshots of version 2
        // stay readable: their reader-days have an unknown segment (see `ArticleCodec`).
        """
        CREATE TABLE sources (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL UNIQUE
        );
        """,
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
                throw StoreError.incompatible(
                    "database schema version \(version) is newer than this build's \(currentVersion)")
            }
            for step in Int(version)..<migrations.count {
                try connection.execute(migrations[step])
                try connection.execute("PRAGMA user_version = \(step + 1)")
            }
        }
    }
}
