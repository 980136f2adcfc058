/// What the writer thread is asked to do; a group is any mix of these.
enum WriteRequest: Sendable {
    /// Count `events` and report once they are durable.
    case append([EventRecord], completion: @Sendable (Result<AppendResult, StoreError>) -> Void)
    /// Commit a tiny transaction to learn whether the database still takes writes.
    case probe(completion: @Sendable (Bool) -> Void)
    /// Run `body` on the write connection outside any transaction (pragmas, test hooks).
    case configure(
        @Sendable (SQLiteConnection) throws(StoreError) -> Void,
        completion: @Sendable (Result<Void, StoreError>) -> Void)
}

/// The state of the writer thread: the one write connection, its statements, and a cache of
/// article ids. Only ever used on that thread (hence `@unchecked Sendable`).
final class SQLiteWriter: @unchecked Sendable {
    private let connection: SQLiteConnection
    private let options: SQLiteStore.Options
    private let writable: Locked<Bool>
    private var articleIDs: [String: Int64] = [:]
    private var lastPruneMs: Int64?

    init(connection: SQLiteConnection, options: SQLiteStore.Options, writable: Locked<Bool>) {
        self.connection = connection
        self.options = options
        self.writable = writable
    }

    /// Handles one group: configuration first, then every append and probe in ONE transaction,
    /// then the completions — only after COMMIT returned, so a completion never runs before its
    /// events are durable. If the transaction fails, none of its events counted and every
    /// completion of the group gets the error.
    func process(_ group: [WriteRequest]) {
        for case .configure(let body, let completion) in group {
            completion(Result { () throws(StoreError) in try body(connection) })
        }
        let writes = group.filter { if case .configure = $0 { false } else { true } }
        guard !writes.isEmpty else { return }

        var newArticles: [String: Int64] = [:]
        let outcome = Result { () throws(StoreError) -> [AppendResult?] in
            try connection.transaction { () throws(StoreError) -> [AppendResult?] in
                try write(writes, newArticles: &newArticles)
            }
        }
        switch outcome {
        case .success(let results):
            writable.withLock { $0 = true }
            if articleIDs.count > 100_000 { articleIDs.removeAll() }
            articleIDs.merge(newArticles) { old, _ in old }
            for (request, result) in zip(writes, results) {
                switch request {
                case .append(_, let completion): completion(.success(result!))
                case .probe(let completion): completion(true)
                case .configure: break
                }
            }
        case .failure(let error):
            writable.withLock { $0 = false }
            for request in writes {
                switch request {
                case .append(_, let completion): completion(.failure(error))
                case .probe(let completion): completion(false)
                case .configure: break
                }
            }
        }
    }

    /// Closes the write connection (on the writer thread, after the last group).
    func finish() {
        connection.close()
    }

    /// The body of a group's transaction; one result per request (`nil` for probes).
    private func write(
        _ requests: [WriteRequest], newArticles: inout [String: Int64]
    ) throws(StoreError) -> [AppendResult?] {
        let now = options.clock()
        var results: [AppendResult?] = []
        results.reserveCapacity(requests.count)
        var probed = false
        for request in requests {
            switch request {
            case .append(let events, _):
                var result = AppendResult(counted: 0, duplicates: 0)
                for event in events {
                    if try count(event, now: now, newArticles: &newArticles) {
                        result.counted += 1
                    } else {
                        result.duplicates += 1
                    }
                }
                results.append(result)
            case .probe:
                probed = true
                results.append(nil)
            case .configure:
                results.append(nil)
            }
        }
        if probed {
            let heartbeat = try connection.cached(
                "INSERT INTO meta (key, value) VALUES ('probe', ?1) "
                    + "ON CONFLICT (key) DO UPDATE SET value = excluded.value")
            try heartbeat.bind(1, now)
            try heartbeat.run()
        }
        if lastPruneMs.map({ now - $0 >= options.pruneIntervalMs }) ?? true {
            try pruneEventIDs(now: now)
            lastPruneMs = now
        }
        return results
    }

    /// Folds `event` into its reader's day; `false` when its id was seen within the retention
    /// window, in which case nothing changes.
    private func count(
        _ event: EventRecord, now: Int64, newArticles: inout [String: Int64]
    ) throws(StoreError) -> Bool {
        if let id = event.deduplicationKey {
            // Claims the id, or takes over an entry old enough to have expired; RETURNING
            // yields a row exactly when it did either.
            let claim = try connection.cached(
                "INSERT INTO event_ids (id, seen_ms) VALUES (?1, ?2) "
                    + "ON CONFLICT (id) DO UPDATE SET seen_ms = excluded.seen_ms WHERE seen_ms <= ?3 "
                    + "RETURNING 1")
            defer { claim.reset() }
            try claim.bind(1, id)
            try claim.bind(2, now)
            try claim.bind(3, now - options.idRetentionMs)
            guard try claim.step() else { return false }
        }
        let article = try articleID(event.article, newArticles: &newArticles)
        let upsert = try connection.cached(
            """
            INSERT INTO reader_days (article, reader, day, max_progress, max_seen, scrollable,
                events, engaged_ms, first_ms, last_ms)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, 1, ?7, ?8, ?8)
            ON CONFLICT (article, reader, day) DO UPDATE SET
                max_progress = max(max_progress, excluded.max_progress),
                max_seen = max(max_seen, excluded.max_seen),
                scrollable = max(scrollable, excluded.scrollable),
                events = events + 1,
                engaged_ms = engaged_ms + excluded.engaged_ms,
                first_ms = min(first_ms, excluded.first_ms),
                last_ms = max(last_ms, excluded.last_ms)
            """)
        try upsert.bind(1, article)
        try upsert.bind(2, event.reader)
        try upsert.bind(3, Int64(event.day))
        try upsert.bind(4, event.progress)
        try upsert.bind(5, event.seenDepth)
        try upsert.bind(6, event.scrollable ? 1 : 0 as Int64)
        try upsert.bind(7, event.engagedMs)
        try upsert.bind(8, event.timeMs)
        try upsert.run()
        return true
    }

    /// The id of `name`, adding the article if new. Ids added in the running transaction go to
    /// `newArticles` and join the cache only once it commits — a rollback takes them back.
    private func articleID(_ name: String, newArticles: inout [String: Int64]) throws(StoreError) -> Int64 {
        if let id = articleIDs[name] ?? newArticles[name] { return id }
        let lookup = try connection.cached("SELECT id FROM articles WHERE name = ?1")
        defer { lookup.reset() }
        try lookup.bind(1, name)
        if try lookup.step() {
            let id = lookup.int64(0)
            newArticles[name] = id
            return id
        }
        let insert = try connection.cached("INSERT INTO articles (name) VALUES (?1) RETURNING id")
        defer { insert.reset() }
        try insert.bind(1, name)
        guard try insert.step() else {
            throw StoreError(code: 0, message: "inserting article \(name) returned no id")
        }
        let id = insert.int64(0)
        newArticles[name] = id
        return id
    }

    /// Forgets ids past the retention window, a bounded batch at a time so that no one
    /// transaction grows long; the next prune takes the rest.
    private func pruneEventIDs(now: Int64) throws(StoreError) {
        let prune = try connection.cached(
            "DELETE FROM event_ids WHERE id IN "
                + "(SELECT id FROM event_ids WHERE seen_ms <= ?1 ORDER BY seen_ms LIMIT 10000)")
        try prune.bind(1, now - options.idRetentionMs)
        try prune.run()
    }
}
