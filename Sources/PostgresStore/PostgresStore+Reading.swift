import Foundation
public import ProgressStore
import Synchronization

extension PostgresStore {
    /// See ``ProgressStore/read(_:completion:)``: on the read queue, over a connection that has
    /// folded what the log holds (``ConnectionReads``), where every read may fold.
    public func read<Answer: Sendable>(
        _ plan: @escaping @Sendable (any StoreReads) throws(StoreError) -> Planned<Answer>,
        completion: @escaping @Sendable (Result<Answer, StoreError>) -> Void
    ) {
        let nowMs = options.clock()
        withConnection(
            { (connection) throws(StoreError) -> Answer in
                try plan(ConnectionReads(connection: connection, nowMs: nowMs)).folded()
            }, completion: completion)
    }

    /// Runs `body` on the read queue with a connection, after folding what the log holds (so
    /// that the read sees every event acknowledged before it began, on any node).
    func withConnection<Value: Sendable>(
        fresh: Bool = true, _ body: @escaping @Sendable (PGConnection) throws(StoreError) -> Value,
        completion: @escaping @Sendable (Result<Value, StoreError>) -> Void
    ) {
        guard !isClosed else { return completion(.failure(.closed)) }
        readQueue.async { [self] in
            completion(
                Result { () throws(StoreError) -> Value in
                    try pool.withConnection { (connection) throws(StoreError) -> Value in
                        if fresh { try catchUp(connection) }
                        return try body(connection)
                    }
                })
        }
    }

    /// Waits until the log rows there now are folded — folding them on this connection when no
    /// other is — for at most 10 seconds. While another connection folds, this one waits for
    /// `rp_fold`'s row in PostgreSQL (woken when that fold commits), then folds what is left.
    private func catchUp(_ connection: PGConnection) throws(StoreError) {
        let head = try connection.execute("SELECT max(seq) FROM rp_log")
        guard !head.isNull(0, 0) else { return }
        let last = try head.int64(0, 0)
        if try Self.foldWhatIsThere(connection, wait: false, dayCountersFrom: options.dayCountersFrom) {
            return
        }
        let left = try connection.execute(
            "SELECT EXISTS (SELECT 1 FROM rp_log WHERE seq <= $1)", [.int(last)])
        guard try left.bool(0, 0) else { return }
        do throws(StoreError) {
            try connection.transaction { () throws(StoreError) in
                try connection.executeScript("SET LOCAL lock_timeout = '10s'")
                _ = try Folding.lock(connection, wait: true)
                try Folding.foldAll(connection, dayCountersFrom: options.dayCountersFrom)
            }
        } catch {
            // A fold that holds the row for 10 s: answer from what is folded, as a read that
            // came a moment earlier would have.
            guard case .postgres("55P03") = error.cause else { throw error }
        }
    }

    /// The readers of `article` folded over those of `days` whose segment `segment` admits, in
    /// the byte order of their ids; nil for an article without events.
    static func readers(
        of article: String, in days: DayRange, segment: SegmentFilter = .all, on connection: PGConnection
    ) throws(StoreError) -> [ReaderSummary]? {
        let exists = try connection.execute("SELECT 1 FROM rp_articles WHERE article = $1", [.text(article)])
        guard exists.rowCount == 1 else { return nil }
        var parameters: [PGValue] = [
            .text(article), .int(Int64(days.from ?? Int32.min)), .int(Int64(days.to ?? Int32.max)),
        ]
        guard let admitted = try Segmenting.condition(segment, on: "d", parameters: &parameters, connection)
        else { return [] }
        let rows = try connection.execute(
            """
            SELECT d.reader, \(ReaderFigures.sql("d"))
            FROM rp_reader_days AS d WHERE d.article = $1 AND d.day BETWEEN $2 AND $3\(admitted)
            GROUP BY d.reader ORDER BY d.reader
            """, parameters)
        return try (0..<rows.rowCount).map { (row) throws(StoreError) in
            ReaderSummary(reader: rows.string(row, 0), figures: try ReaderFigures(rows, row: row, from: 1))
        }
    }

    public func salt(
        forDay day: Int32, completion: @escaping @Sendable (Result<DailySalt, StoreError>) -> Void
    ) {
        let today = UTCDay.of(ms: options.clock())
        guard day >= DailySalt.oldestKept(today: today) else {
            return completion(
                .failure(.configuration("the salt of day \(day) is deleted (today is \(today))")))
        }
        if let known = salts[day] { return completion(.success(known)) }
        // Made ahead by ``start()`` and the folder: this is for another day, or a folder that
        // could not reach the database.
        withConnection(
            fresh: false,
            { [salts] (connection) throws(StoreError) -> DailySalt in
                try Self.makeSalt(day: day, today: today, on: connection, into: salts)
            }, completion: completion)
    }

    public func erase(
        _ erasure: Erasure, completion: @escaping @Sendable (Result<ErasureCount, StoreError>) -> Void
    ) {
        let dayCountersFrom = options.dayCountersFrom
        withConnection(
            fresh: false,
            { (connection) throws(StoreError) -> ErasureCount in
                try connection.transaction { () throws(StoreError) -> ErasureCount in
                    _ = try Folding.lock(connection, wait: true)
                    try Folding.foldAll(connection, dayCountersFrom: dayCountersFrom)
                    switch erasure {
                    case .reader(let reader): return try Erasing.erase(reader: reader, on: connection)
                    case .article(let article): return try Erasing.erase(article: article, on: connection)
                    }
                }
            }, completion: completion)
    }
}
