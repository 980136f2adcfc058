import ProgressStore

/// The tables several nodes share, versioned in `rp_meta`, created and migrated at start under an
/// advisory lock (so that two nodes starting at once do not race), and refused when newer than
/// this build's.
///
/// - `rp_log`: what nodes acknowledged and the folder has not folded yet — one row per commit,
///   the events in the journal's encoding. Folding deletes the rows.
/// - `rp_ids`: each event id of the last 24 hours with its pair, so that a repeat counts once
///   whichever node it reaches.
/// - `rp_reader_days`: per article, reader and UTC day, what the statistics keep.
/// - `rp_articles`: per article, the all-time counters and depth histograms the default query
///   is answered from, whatever the number of readers.
/// - `rp_sections`: per article, the section map of the latest event (by time) that carried
///   one, as the journal encodes an event, with that time.
/// - `rp_attention`: per article and UTC day, the attention of the twenty bands summed, in ms.
/// - `rp_reader_days` also keeps each day's segment as ``DaySegment`` folds it (docs/api.md,
///   "Segments"): the named device class and its event's time, the width's class and its
///   time, the named source (an `rp_sources` id) and its time; `NULL` with the largest time
///   where none was named. ``Segmenting`` resolves them in SQL.
/// - `rp_sources`: the distinct sources, at most ``Segmenting/maximumSources`` past the two
///   kept names `(other)` (id 0, which sources past the bound count as) and `(direct)` (id 1).
/// - `rp_article_segments`: per large article and segment — a device class (dimension 0, its
///   code) or a source (dimension 1, its id) — the counters of `rp_articles` over that
///   segment's reader-days, so that a filter costs one row and the segments one row each.
/// - `rp_article_days`: per large article and UTC day, the counters of `rp_articles` over that
///   day's reader-days (``DayCounting``), so that a range of one day costs one row.
/// - `rp_articles.changed`: the value of the sequence `rp_changes` the article was last written
///   with; `rp_articles_gone`: the same for articles deleted since every kept listing range
///   was refreshed. `rp_listing_ranges`: the listing's kept (range, threshold) pairs, with the
///   change each is refreshed up to, when it was last listed and, once moved to other days, the
///   days it held until it is recounted; `rp_listing_rows`: their line of every article, indexed
///   in each order of the listing (``ListingRanges``). Both are `UNLOGGED`: derived, counted
///   again when needed, and emptied together by a crash.
/// - `rp_salts`: the daily salts of derived reader ids. `rp_fold`: one row, locked by whoever
///   folds, erases or applies retention, which keeps them in order.
enum PostgresSchema {
    /// The columns of an ``ArticleCounters``, as `rp_articles`, `rp_article_segments` and
    /// `rp_article_days` each hold them.
    private static let counterColumns = """
        readers bigint NOT NULL, unscrollable bigint NOT NULL, events bigint NOT NULL,
        engaged_ms bigint NOT NULL, first_ms bigint NOT NULL, last_ms bigint NOT NULL,
        progress_units numeric NOT NULL, seen_units numeric NOT NULL,
        progress_bins bytea NOT NULL, seen_bins bytea NOT NULL
        """

    static let migrations: [String] = [
        """
        CREATE TABLE rp_log (
            seq bigserial PRIMARY KEY,
            committed_ms bigint NOT NULL,
            payload bytea NOT NULL
        );
        CREATE TABLE rp_ids (
            article text COLLATE "C" NOT NULL,
            reader text COLLATE "C" NOT NULL,
            id text COLLATE "C" NOT NULL,
            seen_ms bigint NOT NULL,
            PRIMARY KEY (article, reader, id)
        );
        CREATE INDEX rp_ids_by_reader ON rp_ids (reader);
        CREATE INDEX rp_ids_by_seen ON rp_ids (seen_ms);
        CREATE TABLE rp_reader_days (
            article text COLLATE "C" NOT NULL,
            reader text COLLATE "C" NOT NULL,
            day integer NOT NULL,
            max_progress float8 NOT NULL,
            max_seen float8 NOT NULL,
            scrollable boolean NOT NULL,
            events bigint NOT NULL,
            engaged_ms bigint NOT NULL,
            first_ms bigint NOT NULL,
            last_ms bigint NOT NULL,
            PRIMARY KEY (article, reader, day)
        );
        CREATE INDEX rp_reader_days_by_reader ON rp_reader_days (reader);
        CREATE INDEX rp_reader_days_by_day ON rp_reader_days (day);
        CREATE INDEX rp_reader_days_by_article_day ON rp_reader_days (article, day);
        CREATE TABLE rp_articles (
            article text COLLATE "C" PRIMARY KEY,
            \(counterColumns)
        );
        CREATE TABLE rp_salts (
            day integer PRIMARY KEY,
            salt bytea NOT NULL
        );
        CREATE TABLE rp_fold (id integer PRIMARY KEY);
        INSERT INTO rp_fold VALUES (1);
        """,
        """
        CREATE TABLE rp_sections (
            article text COLLATE "C" PRIMARY KEY,
            time_ms bigint NOT NULL,
            map bytea NOT NULL
        );
        CREATE TABLE rp_attention (
            article text COLLATE "C" NOT NULL,
            day integer NOT NULL,
            bands int8[] NOT NULL,
            PRIMARY KEY (article, day)
        );
        CREATE INDEX rp_attention_by_day ON rp_attention (day);
        """,
        """
        ALTER TABLE rp_reader_days
            ADD COLUMN device smallint,
            ADD COLUMN device_ms bigint NOT NULL DEFAULT 9223372036854775807,
            ADD COLUMN width_device smallint,
            ADD COLUMN width_ms bigint NOT NULL DEFAULT 9223372036854775807,
            ADD COLUMN source integer,
            ADD COLUMN source_ms bigint NOT NULL DEFAULT 9223372036854775807;
        CREATE TABLE rp_sources (
            id integer PRIMARY KEY,
            source text COLLATE "C" NOT NULL UNIQUE
        );
        INSERT INTO rp_sources VALUES (0, '(other)'), (1, '(direct)');
        CREATE TABLE rp_article_segments (
            article text COLLATE "C" NOT NULL,
            dimension smallint NOT NULL,
            segment integer NOT NULL,
            \(counterColumns),
            PRIMARY KEY (article, dimension, segment)
        );
        """,
        """
        CREATE SEQUENCE rp_changes;
        ALTER TABLE rp_articles ADD COLUMN changed bigint NOT NULL DEFAULT 0;
        CREATE INDEX rp_articles_by_changed ON rp_articles (changed);
        CREATE TABLE rp_articles_gone (
            article text COLLATE "C" PRIMARY KEY,
            changed bigint NOT NULL
        );
        CREATE INDEX rp_articles_gone_by_changed ON rp_articles_gone (changed);
        CREATE UNLOGGED TABLE rp_listing_ranges (
            id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            day_from integer NOT NULL,
            day_to integer NOT NULL,
            threshold float8 NOT NULL,
            refreshed bigint,
            used_ms bigint NOT NULL,
            moved_from integer,
            moved_to integer,
            UNIQUE (day_from, day_to, threshold)
        );
        CREATE UNLOGGED TABLE rp_listing_rows (
            range_id integer NOT NULL,
            article text COLLATE "C" NOT NULL,
            readers bigint NOT NULL,
            events bigint NOT NULL,
            counted bigint NOT NULL,
            completed bigint NOT NULL,
            progress_units numeric NOT NULL,
            rate float8 NOT NULL,
            last_ms bigint,
            PRIMARY KEY (range_id, article)
        );
        CREATE INDEX rp_listing_rows_by_readers ON rp_listing_rows (range_id, readers DESC, article);
        CREATE INDEX rp_listing_rows_by_rate ON rp_listing_rows (range_id, rate DESC, article);
        CREATE INDEX rp_listing_rows_by_last ON rp_listing_rows (range_id, last_ms DESC NULLS LAST, article);
        """,
        """
        CREATE TABLE rp_article_days (
            article text COLLATE "C" NOT NULL,
            day integer NOT NULL,
            \(counterColumns),
            PRIMARY KEY (article, day)
        );
        CREATE INDEX rp_article_days_by_day ON rp_article_days (day);
        """,
    ]

    static var currentVersion: Int { migrations.count }

    /// An advisory lock key of this service's own ("rp-schema").
    private static let lockKey: Int64 = 0x7270_2d73_6368_656d

    /// Creates or migrates the tables; refuses a database of a newer version.
    static func migrate(_ connection: PGConnection) throws(StoreError) {
        try connection.transaction { () throws(StoreError) in
            try connection.execute("SELECT pg_advisory_xact_lock($1)", [.int(lockKey)])
            try connection.execute(
                "CREATE TABLE IF NOT EXISTS rp_meta (key text PRIMARY KEY, value text NOT NULL)")
            let rows = try connection.execute("SELECT value FROM rp_meta WHERE key = 'schema_version'")
            let version = rows.rowCount > 0 ? Int(rows.string(0, 0)) ?? 0 : 0
            guard version <= currentVersion else {
                throw StoreError.incompatible(
                    "the database's schema version \(version) is newer than this build's \(currentVersion)")
            }
            for step in version..<currentVersion {
                try connection.executeScript(migrations[step])
            }
            try connection.execute(
                "INSERT INTO rp_meta (key, value) VALUES ('schema_version', $1) "
                    + "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                [.text(String(currentVersion))])
        }
    }
}
