import Foundation
import ProgressStore
import Synchronization

extension PostgresStore {
    /// An append waiting for a committer.
    struct Append: Sendable {
        var events: [EventRecord]
        var completion: @Sendable (Result<AppendResult, StoreError>) -> Void
    }

    /// What the store's threads and its callers share: whether the last commit got through,
    /// and whether the store is closed.
    final class Flags: Sendable {
        let writable = Atomic<Bool>(true)
        let closed = Atomic<Bool>(false)
    }

    /// Commits `group` on `connection` (a committer's own), completes each append, and wakes
    /// the folder when the log has a new row. Runs on the committer's thread.
    static func commit(
        _ group: [Append], on connection: PGConnection, options: Options, flags: Flags, folder: Folder
    ) {
        let outcome = Result { () throws(StoreError) in try write(group, on: connection, options: options) }
        switch outcome {
        case .success(let results):
            flags.writable.store(true, ordering: .relaxed)
            folder.wake()
            for (append, result) in zip(group, results) { append.completion(.success(result)) }
        case .failure(let error):
            if case .postgres(nil) = error.cause { flags.writable.store(false, ordering: .relaxed) }
            for append in group { append.completion(.failure(error)) }
        }
    }

    /// Commits `group` — in one transaction when ids must be claimed first, else in one
    /// statement — and returns each append's counts.
    private static func write(_ group: [Append], on connection: PGConnection, options: Options)
        throws(StoreError)
        -> [AppendResult]
    {
        let now = options.clock()
        let hasIDs = group.contains { $0.events.contains { $0.eventID != nil } }
        func write() throws(StoreError) -> [AppendResult] {
            let fresh = hasIDs ? try freshIDs(in: group, at: now, on: connection, options: options) : []
            var results: [AppendResult] = []
            var counted: [EventRecord] = []
            var seen: Set<Folding.IDKey> = []
            for append in group {
                var result = AppendResult(counted: 0, duplicates: 0)
                for event in append.events {
                    if let id = event.eventID {
                        let key = Folding.IDKey(article: event.article, reader: event.reader, id: id)
                        guard fresh.contains(key), seen.insert(key).inserted else {
                            result.duplicates += 1
                            continue
                        }
                    }
                    result.counted += 1
                    counted.append(event)
                }
                results.append(result)
            }
            if !counted.isEmpty {
                guard let payload = EventLogCodec.encodeIfFits(counted) else {
                    throw StoreError.configuration("an article, reader or id is longer than the log takes")
                }
                try connection.execute(
                    "INSERT INTO rp_log (committed_ms, payload) VALUES ($1, $2)",
                    [.int(now), .bytes(payload)])
            }
            return results
        }
        // A statement outside a transaction commits on its own (synchronously: durable once it
        // returns), a round trip instead of three.
        return hasIDs ? try connection.transaction(write) : try write()
    }

    /// The ids of `group` to count: new ones, and those last seen longer ago than the window;
    /// each is marked seen now. Sorted, so that two committers lock ids in one order.
    private static func freshIDs(
        in group: [Append], at now: Int64, on connection: PGConnection, options: Options
    ) throws(StoreError) -> Set<Folding.IDKey> {
        var keys: Set<Folding.IDKey> = []
        for append in group {
            for event in append.events {
                if let id = event.eventID {
                    keys.insert(Folding.IDKey(article: event.article, reader: event.reader, id: id))
                }
            }
        }
        guard !keys.isEmpty else { return [] }
        let sorted = keys.sorted()
        let rows = try connection.execute(
            """
            INSERT INTO rp_ids AS i (article, reader, id, seen_ms)
            SELECT article, reader, id, $4 FROM unnest($1::text[], $2::text[], $3::text[]) AS u (article, reader, id)
            ON CONFLICT (article, reader, id) DO UPDATE SET seen_ms = excluded.seen_ms
                WHERE i.seen_ms <= excluded.seen_ms - $5
            RETURNING article, reader, id
            """,
            [
                .textArray(sorted.map(\.article)), .textArray(sorted.map(\.reader)),
                .textArray(sorted.map(\.id)),
                .int(now), .int(options.idRetentionMs),
            ])
        return Set(
            (0..<rows.rowCount).map {
                Folding.IDKey(article: rows.string($0, 0), reader: rows.string($0, 1), id: rows.string($0, 2))
            })
    }
}
