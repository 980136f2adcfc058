import Foundation

extension SQLiteStore {
    /// Tuning and test hooks for ``SQLiteStore``; the defaults suit production.
    public struct Options: Sendable {
        /// `PRAGMA max_page_count` for the write connection: caps the database so tests can
        /// make it "full" and see how a full disk behaves. `nil`: SQLite's own limit.
        public var maxPageCount: Int?
        /// How long a connection waits for a lock held by another (a checkpoint, another process).
        public var busyTimeoutMs: Int32
        /// How long an event id is remembered (SPEC §4: 24 hours).
        public var idRetentionMs: Int64
        /// How often, at most, ids older than `idRetentionMs` are deleted.
        public var pruneIntervalMs: Int64
        /// Whether each commit waits for fsync (`synchronous=FULL`): an acknowledged event then
        /// survives a power cut too, not only the process being killed, at the disk's fsync
        /// latency per group.
        public var fsyncEachCommit: Bool
        /// The wall clock in ms since the epoch, against which event ids age. Tests move it.
        public var clock: @Sendable () -> Int64

        public init(
            maxPageCount: Int? = nil, busyTimeoutMs: Int32 = 5_000,
            idRetentionMs: Int64 = 86_400_000, pruneIntervalMs: Int64 = 60_000, fsyncEachCommit: Bool = false,
            clock: @escaping @Sendable () -> Int64 = Options.wallClockMs
        ) {
            self.maxPageCount = maxPageCount
            self.busyTimeoutMs = busyTimeoutMs
            self.idRetentionMs = idRetentionMs
            self.pruneIntervalMs = pruneIntervalMs
            self.fsyncEachCommit = fsyncEachCommit
            self.clock = clock
        }

        /// Milliseconds since the epoch by the system clock.
        @Sendable public static func wallClockMs() -> Int64 {
            Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
        }
    }
}
