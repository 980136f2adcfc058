import Foundation
import ProgressStore

extension PostgresStore {
    /// The thread that folds the log into the tables, makes each next day's salt ahead of it
    /// and runs the hourly upkeep.
    ///
    /// A commit on this node wakes it; between folds it leaves at least 50 ms, so that under load
    /// one fold takes every commit of that time, as one transaction. Commits on other nodes send
    /// nothing (a `NOTIFY` takes a lock every commit of the database waits for): it looks at least
    /// once a second. Reads never wait for it — each folds what is left before it answers.
    final class Folder: @unchecked Sendable {
        private let pool: ConnectionPool
        private let options: Options
        private let salts: SaltCache
        private let flags: Flags
        // `condition` guards everything below.
        private let condition = NSCondition()
        private var woken = false
        private var stopping = false
        private var running = false
        private var lastFailure: String?

        /// How long the folder waits, unless woken, before it looks for other nodes' commits.
        static let idleSeconds = 1.0
        /// The least time from one fold to the next.
        static let spacingSeconds = 0.05

        init(pool: ConnectionPool, options: Options, salts: SaltCache, flags: Flags) {
            self.pool = pool
            self.options = options
            self.salts = salts
            self.flags = flags
        }

        /// Why the last fold failed, or `nil` when it did not.
        var failure: String? {
            condition.lock()
            defer { condition.unlock() }
            return lastFailure
        }

        /// A commit has put a row in the log.
        func wake() {
            condition.lock()
            woken = true
            condition.signal()
            condition.unlock()
        }

        /// Starts the thread, which holds the folder (not the store) until ``stop(within:)``.
        func start() {
            condition.lock()
            running = true
            condition.unlock()
            let thread = Thread { [self] in run() }
            thread.name = "postgres folder"
            thread.start()
        }

        /// Stops the thread, waiting up to `seconds` for a fold under way; whether it stopped.
        func stop(within seconds: Double) -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            condition.lock()
            defer { condition.unlock() }
            stopping = true
            condition.broadcast()
            while running {
                if !condition.wait(until: deadline) { return !running }
            }
            return true
        }

        /// Makes today's and tomorrow's salts, when this node has not read them yet.
        func makeSaltsAhead() throws(StoreError) {
            let today = Int32(options.clock().floorDivided(by: 86_400_000))
            for day in [today, today + 1] where salts[day] == nil {
                _ = try pool.withConnection { (connection) throws(StoreError) in
                    try PostgresStore.makeSalt(day: day, today: today, on: connection, into: salts)
                }
            }
        }

        private func run() {
            var lastUpkeepMs = options.clock()
            var lastFold = Date.distantPast
            while waitForWork(after: lastFold) {
                lastFold = Date()
                report(
                    Result { () throws(StoreError) in
                        try pool.withConnection { (connection) throws(StoreError) in
                            try PostgresStore.foldWhatIsThere(
                                connection, wait: false, dayCountersFrom: options.dayCountersFrom)
                        }
                    }.map { _ in })
                do throws(StoreError) {
                    try makeSaltsAhead()
                } catch {
                    // Tried again at the next wake; meanwhile a request makes the salt itself.
                    if error != .closed { options.logger("cannot make the next day's salt ahead: \(error)") }
                }
                if options.clock() - lastUpkeepMs >= 3_600_000 {
                    lastUpkeepMs = options.clock()
                    do throws(StoreError) {
                        try PostgresStore.upkeep(pool: pool, options: options)
                    } catch {
                        // Tried again in an hour: expired ids and salts stay that much longer.
                        if error != .closed { options.logger("the hourly upkeep failed: \(error)") }
                    }
                }
            }
        }

        /// Waits until woken (or a second), then until ``spacingSeconds`` after `lastFold`;
        /// false once stopping.
        private func waitForWork(after lastFold: Date) -> Bool {
            condition.lock()
            defer { condition.unlock() }
            let idleUntil = Date().addingTimeInterval(Self.idleSeconds)
            while !woken && !stopping {
                if !condition.wait(until: idleUntil) { break }
            }
            let spaced = lastFold.addingTimeInterval(Self.spacingSeconds)
            while !stopping && Date() < spaced { _ = condition.wait(until: spaced) }
            woken = false
            if stopping {
                running = false
                condition.broadcast()
                return false
            }
            return true
        }

        /// Records how a fold went, logging when folds start failing, change cause or recover.
        private func report(_ outcome: Result<Void, StoreError>) {
            let cause: String?
            switch outcome {
            case .success: cause = nil
            case .failure(let error) where error == .closed: return
            case .failure(let error):
                cause = "\(error)"
                // The database is out of reach: so it is for the next append too, and `/healthz`
                // says so (and probes) rather than answering 200 while writes would fail.
                if case .postgres(nil) = error.cause { flags.writable.store(false, ordering: .relaxed) }
            }
            condition.lock()
            let was = lastFailure
            lastFailure = cause
            condition.unlock()
            guard was != cause else { return }
            options.logger(
                cause.map { "folding the PostgreSQL log failed (reads fold it themselves, retried): \($0)" }
                    ?? "folding the PostgreSQL log succeeds again")
        }
    }

    /// Folds the log while it holds rows, a batch a transaction; with `wait` false, gives up at
    /// once when another node is folding. Whether this connection folded everything.
    @discardableResult
    static func foldWhatIsThere(_ connection: PGConnection, wait: Bool, dayCountersFrom: Int)
        throws(StoreError) -> Bool
    {
        while true {
            let outcome = try connection.transaction { () throws(StoreError) -> Bool? in
                guard try Folding.lock(connection, wait: wait) else { return nil }
                return try Folding.foldPending(connection, dayCountersFrom: dayCountersFrom) > 0
            }
            guard let folded = outcome else { return false }
            if !folded { return true }
        }
    }

    /// The salt of `day` in `rp_salts` — a new random one unless a node made it first — kept in
    /// `salts`.
    static func makeSalt(day: Int32, today: Int32, on connection: PGConnection, into salts: SaltCache)
        throws(StoreError) -> DailySalt
    {
        let made = DailySalt.random(day: day)
        try connection.execute(
            "INSERT INTO rp_salts (day, salt) VALUES ($1, $2) ON CONFLICT (day) DO NOTHING",
            [.int(Int64(day)), .bytes(made.bytes)])
        let rows = try connection.execute("SELECT salt FROM rp_salts WHERE day = $1", [.int(Int64(day))])
        guard rows.rowCount == 1, rows.bytes(0, 0).count == 16 else {
            throw StoreError.corrupt("the salt of day \(day) is missing or damaged")
        }
        let salt = DailySalt(day: day, bytes: rows.bytes(0, 0))
        salts.keep(salt, today: today)
        return salt
    }
}
