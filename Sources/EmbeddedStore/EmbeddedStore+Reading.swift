import Dispatch
public import ProgressStore

extension EmbeddedStore {
    /// See ``ProgressStore/read(_:completion:)``: at once on the calling thread from the index's
    /// counters, in microseconds whatever the article's size; what needs folding, on the
    /// store's read queue over a snapshot of the article (see ``IndexReads``).
    public func read<Answer: Sendable>(
        _ plan: @escaping @Sendable (any StoreReads) throws(StoreError) -> Planned<Answer>,
        completion: @escaping @Sendable (Result<Answer, StoreError>) -> Void
    ) {
        guard !isClosed else { return completion(.failure(.closed)) }
        switch Result(catching: { () throws(StoreError) in try index.quickly(plan) }) {
        case .success(.answered(let answer)): completion(.success(answer))
        case .failure(let error): completion(.failure(error))
        case .success(.fold):
            readQueue.async { [index] in
                completion(Result { () throws(StoreError) in try index.folded(plan) })
            }
        }
    }

    /// See ``ProgressStore/version(of:)``: the in-memory index counts each article's changes.
    public func version(of article: String) -> UInt64? {
        isClosed ? nil : index.version(of: article)
    }

    /// See ``ProgressStore/salt(forDay:completion:)``: from memory for today and tomorrow (made
    /// and saved ahead, see ``start()``); another day's is read from the database's `salts` table,
    /// or made and saved there, on the caller's thread.
    public func salt(
        forDay day: Int32, completion: @escaping @Sendable (Result<DailySalt, StoreError>) -> Void
    ) {
        guard !isClosed else { return completion(.failure(.closed)) }
        completion(
            Result { () throws(StoreError) in
                try salts.salt(forDay: day, today: UTCDay.of(ms: options.clock()))
            })
    }

    /// See ``ProgressStore/erase(_:completion:)``: an entry in the event journal, then out of the
    /// index — articles of many readers are folded anew without the erased records, which holds
    /// appends up meanwhile — and out of the saved files with the next checkpoint.
    public func erase(
        _ erasure: Erasure, completion: @escaping @Sendable (Result<ErasureCount, StoreError>) -> Void
    ) {
        writer.erase(erasure, completion: completion)
    }

    /// See ``ProgressStore/report(completion:)``.
    public func report(completion: @escaping @Sendable (StoreReport) -> Void) {
        completion(StoreReport(sizeBytes: sizeBytes, gauges: gauges))
    }

    /// The checkpointer's lag and health, and the pairs held in memory.
    var gauges: [StoreGauge] {
        [
            StoreGauge(
                name: "journal_entries",
                help: "Acknowledged journal entries since the last checkpoint (replayed by a restart).",
                value: Double(max(0, committedSeqValue - checkpointSeq))),
            StoreGauge(
                name: "checkpoint_failing",
                help: "1 while the last checkpoint failed (the events wait in the journal).",
                value: checkpointFailing ? 1 : 0),
            StoreGauge(
                name: "pairs", help: "(article, reader) pairs held in memory.", value: Double(index.pairCount)
            ),
            StoreGauge(
                name: "recent_ids",
                help: "Event ids remembered so that a repeat counts once (those of the last 24 to 48 hours).",
                value: Double(writer.rememberedIDCount)),
        ]
    }

    /// (article, reader) pairs held in memory.
    public var pairCount: Int { index.pairCount }
}
