/// What the writer thread is asked to do; a group is any mix of these.
enum WriteRequest: Sendable {
    /// Count `events` and report once they are durable.
    case append([EventRecord], completion: @Sendable (Result<AppendResult, StoreError>) -> Void)
    /// Commit a tiny transaction to learn whether the database still takes writes.
    case probe(completion: @Sendable (Bool) -> Void)
    /// Run `body` on the log connection outside any transaction (pragmas, test hooks).
    case configure(
        @Sendable (SQLiteConnection) throws(StoreError) -> Void,
        completion: @Sendable (Result<Void, StoreError>) -> Void)
}

/// The state of the writer thread: the event log's write connection, the ids seen in the last
/// 24 hours, and the in-memory index that reads are served from. Only ever used on that thread
/// (hence `@unchecked Sendable`).
///
/// A group costs one transaction that appends one row — the group's counted events, encoded —
/// to the event log. Once it commits, the events join the index and the completions run; the
/// folder moves them into `reader_days` later.
final class SQLiteWriter: @unchecked Sendable {
    private let connection: SQLiteConnection
    private let options: SQLiteStore.Options
    private let writable: Locked<Bool>
    private let index: MemoryIndex
    private let folder: SQLiteFolder
    /// Deduplication key → when it was acknowledged, for ids younger than the retention window.
    private var recentIDs: [ExactKey: Int64]
    /// The same ids in the order they were acknowledged — which is the order of their times —
    /// so that forgetting expired ones starts at the front and stops at the first young one.
    private var recentOrder: [(key: ExactKey, seenMs: Int64)]
    private var recentStart = 0
    private var lastPruneMs: Int64
    private let committedSeq: Locked<Int64>

    init(
        connection: SQLiteConnection, options: SQLiteStore.Options, writable: Locked<Bool>,
        index: MemoryIndex,
        folder: SQLiteFolder, recentIDs: [ExactKey: Int64], committedSeq: Locked<Int64>
    ) {
        self.committedSeq = committedSeq
        self.connection = connection
        self.options = options
        self.writable = writable
        self.index = index
        self.folder = folder
        self.recentIDs = recentIDs
        self.recentOrder = recentIDs.map { ($0.key, $0.value) }.sorted { $0.seenMs < $1.seenMs }
        self.lastPruneMs = options.clock()
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

        let now = options.clock()
        var claimed: [ExactKey: Int64] = [:]
        var counted: [EventRecord] = []
        var results: [AppendResult?] = []
        var probed = false
        for request in writes {
            switch request {
            case .append(let events, _):
                var result = AppendResult(counted: 0, duplicates: 0)
                for event in events {
                    if let key = event.deduplicationKey.map(ExactKey.init) {
                        if let seen = claimed[key] ?? recentIDs[key], seen > now - options.idRetentionMs {
                            result.duplicates += 1
                            continue
                        }
                        claimed[key] = now
                    }
                    counted.append(event)
                    result.counted += 1
                }
                results.append(result)
            case .probe:
                probed = true
                results.append(nil)
            case .configure:
                results.append(nil)
            }
        }

        do {
            try connection.transaction { () throws(StoreError) in
                if !counted.isEmpty {
                    let append = try connection.cached(
                        "INSERT INTO event_log (committed_ms, events) VALUES (?1, ?2)")
                    try append.bind(1, now)
                    try append.bind(2, blob: EventLogCodec.encode(counted))
                    try append.run()
                    let seq = connection.lastInsertRowID
                    committedSeq.withLock { $0 = seq }
                }
                if probed {
                    let heartbeat = try connection.cached(
                        "INSERT INTO meta (key, value) VALUES ('probe', ?1) "
                            + "ON CONFLICT (key) DO UPDATE SET value = excluded.value")
                    try heartbeat.bind(1, now)
                    try heartbeat.run()
                }
            }
        } catch {
            writable.withLock { $0 = false }
            for request in writes {
                switch request {
                case .append(_, let completion): completion(.failure(error))
                case .probe(let completion): completion(false)
                case .configure: break
                }
            }
            return
        }

        writable.withLock { $0 = true }
        recentIDs.merge(claimed) { _, new in new }
        for (key, seenMs) in claimed { recentOrder.append((key, seenMs)) }
        if !counted.isEmpty {
            index.apply(counted)
            folder.notify()
        }
        for (request, result) in zip(writes, results) {
            switch request {
            case .append(_, let completion): completion(.success(result!))
            case .probe(let completion): completion(true)
            case .configure: break
            }
        }
        if now - lastPruneMs >= options.pruneIntervalMs {
            forgetExpiredIDs(now: now)
            lastPruneMs = now
        }
    }

    /// Drops ids older than the retention window: work in proportion to what expired, not to
    /// what is held, so a large set of ids never stalls the writer.
    private func forgetExpiredIDs(now: Int64) {
        let horizon = now - options.idRetentionMs
        while recentStart < recentOrder.count, recentOrder[recentStart].seenMs <= horizon {
            let (key, seenMs) = recentOrder[recentStart]
            // A key acknowledged again later has a newer entry further on: keep it.
            if recentIDs[key] == seenMs { recentIDs[key] = nil }
            recentStart += 1
        }
        if recentStart > 4096 && recentStart * 2 > recentOrder.count {
            recentOrder.removeFirst(recentStart)
            recentStart = 0
        }
    }

    /// Closes the log connection (on the writer thread, after the last group).
    func finish() {
        connection.close()
    }
}
