import Foundation
public import ProgressStore

extension EmbeddedStore {
    /// Tuning for ``EmbeddedStore``; the defaults suit production.
    public struct Options: Sendable {
        /// Caps the event journal's size so tests can make the store "full" and see how a full
        /// disk behaves (0 refuses every append). `nil`: only the disk limits it. A test hook.
        package var journalCapacityBytes: Int64?
        /// How many distinct sources the store keeps (docs/api.md, "Segments": 10,000) — a test
        /// hook to reach the bound with fewer.
        package var sourceBound = SourceTable.defaultBound
        /// Readers past which an article keeps counters by day (``DayCounters``, 65,536) — a
        /// test hook to reach it with fewer.
        package var dayCountersFrom = CounterPolicy.embedded.dayCountersFrom
        /// The journal that makes a checkpoint due whatever the time (64 MiB), and half of the one
        /// past which the catch-up thread takes checkpoints over — a test hook to reach both with
        /// a few events.
        package var checkpointJournalBytes: Int64 = Checkpointer.replayBoundBytes
        /// How long a connection waits for a lock held by another (a checkpoint, another process).
        public var busyTimeoutMs: Int32
        /// How long an event id is remembered at least (24 hours, docs/api.md), and half of how
        /// long at most. Not positive: no id is remembered.
        public var idRetentionMs: Int64
        /// How often, at most, the ids waiting for a checkpoint that are older than
        /// `idRetentionMs` are dropped (while checkpoints fail).
        public var pruneIntervalMs: Int64
        /// Whether each acknowledgement waits for `fdatasync` of the journal: an acknowledged
        /// event then survives a power cut too, not only the process being killed, at the
        /// disk's fsync latency per group.
        public var fsyncEachCommit: Bool
        /// How long after a checkpoint the next one comes when anything changed, however little
        /// (checkpoints also come whenever the journal has grown to 64 MiB).
        public var checkpointIntervalMs: Int64
        /// The largest blob an article's snapshot takes before it is saved in parts; also how much
        /// of an encoded article a checkpoint holds in memory at once.
        public var snapshotPartBytes: Int
        /// Whether the event journal writes each entry with `pwrite` (`true`) or through a shared
        /// mapping (`false`); `nil` chooses by the file system (`pwrite` on copy-on-write and
        /// network file systems, see ``EmbeddedStore/fileSystemCaveat(path:)``).
        public var positionedJournalWrites: Bool?
        /// How many UTC days are kept, today's included: records of days before the window leave
        /// memory and the files at start-up and within an hour after. 0 keeps every day.
        public var retentionDays: Int
        /// The wall clock in ms since the epoch, against which event ids age. Tests move it.
        public var clock: @Sendable () -> Int64
        /// Where the store says what went wrong in the background (a checkpoint that failed).
        public var logger: StoreLogger

        public init(
            busyTimeoutMs: Int32 = 5_000,
            idRetentionMs: Int64 = 86_400_000, pruneIntervalMs: Int64 = 60_000, fsyncEachCommit: Bool = false,
            checkpointIntervalMs: Int64 = 30_000, snapshotPartBytes: Int = 64 << 20,
            positionedJournalWrites: Bool? = nil, retentionDays: Int = 0,
            clock: @escaping @Sendable () -> Int64 = wallClockMs,
            logger: @escaping StoreLogger = silentStoreLogger
        ) {
            self.journalCapacityBytes = nil
            self.busyTimeoutMs = busyTimeoutMs
            self.idRetentionMs = idRetentionMs
            self.pruneIntervalMs = pruneIntervalMs
            self.fsyncEachCommit = fsyncEachCommit
            self.checkpointIntervalMs = checkpointIntervalMs
            self.snapshotPartBytes = snapshotPartBytes
            self.positionedJournalWrites = positionedJournalWrites
            self.retentionDays = retentionDays
            self.clock = clock
            self.logger = logger
        }

        /// The first UTC day kept at `ms` since the epoch, or nil when every day is.
        func firstKeptDay(atMs ms: Int64) -> Int32? {
            guard retentionDays > 0 else { return nil }
            return UTCDay.of(ms: ms) - Int32(clamping: retentionDays) + 1
        }
    }
}
