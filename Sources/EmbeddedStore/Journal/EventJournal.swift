internal import CSystem
import Foundation
import ProgressStore

/// The event journal: where an acknowledgement is made durable, before a checkpoint saves the
/// events into SQLite.
///
/// An append-only sequence of entries, each one group of events (encoded by
/// ``EventLogCodec``) with its sequence number and commit time, framed with its length and a
/// CRC-32 so that a torn tail (power cut mid-write) is recognised and cut off at start-up.
/// Entries are copied into a shared mapping of the active segment's file, allocated ahead (see
/// ``Segment``): no system call on the common path. Once the copy is done the entry is in the
/// kernel's page cache, as the bytes of a finished `write(2)` are, and survives the process
/// being killed; ``sync()`` (for `--fsync-commits`) makes it survive a power cut too.
///
/// Past the last entry of the active segment the file holds zeros, allocated for the next
/// entries. Start-up takes them, like a torn last entry, for the end of the journal and cuts
/// them off; a segment stops being the active one (and the journal closes) only after it is
/// cut to its last entry, so no other segment ever ends in zeros.
///
/// The journal is a series of segment files, `<database>-journal.<first seq>`; the writer starts
/// a new one past ``segmentBytes`` and a checkpoint removes whole segments once every entry in
/// them is folded, so the files do not grow without bound. A store in memory keeps its
/// segments in unlinked temporary files.
///
/// One writer at a time (the store serialises appends); start-up reads it back.
final class EventJournal: @unchecked Sendable {
    /// One entry read back.
    struct Entry {
        var seq: Int64
        var committedMs: Int64
        var payload: [UInt8]
    }

    /// Where a reader has read up to: a segment (by its first seq) and a byte offset in it.
    struct Cursor: Equatable {
        var segment: Int64
        var offset: Int64
    }

    /// The header of every entry: payload length, CRC-32 (of the rest of the header and the
    /// payload), seq, commit time; little-endian.
    static let headerBytes = 24
    /// A new segment starts once the active one is past this size.
    static let defaultSegmentBytes: Int64 = 64 << 20

    /// The journal's files are `<prefix><first seq>`; nil for a store in memory.
    private let prefix: String?
    private let segmentBytes: Int64
    /// Whether entries are fsynced (`--fsync-commits`): then a segment is synced before the
    /// next one starts, and a new segment's directory entry is synced too.
    private let durableAcrossPowerLoss: Bool
    /// Whether the files are another instance's, only looked at (see `init`).
    private let readOnly: Bool
    /// Whether segments are written with `pwrite` rather than through a mapping (see ``Segment``).
    private let positioned: Bool
    /// Guards everything below; held across an append, so that the end a reader sees only
    /// ever covers whole entries. (Not private: the reading and the test hooks live in
    /// extensions of their own.)
    let lock = NSLock()
    /// Held by ``sync()`` from its `fdatasync` until a failure is recorded, so that two syncs (the
    /// group commit's and a probe's) cannot share one failure report between them.
    let syncLock = NSLock()
    var segments: [Segment] = []
    var nextSeq: Int64 = 1
    /// What tests set to make the disk look full or failing; empty in production (see
    /// ``TestHooks``).
    var hooks = TestHooks()
    /// Why a sync failed, once one has: from then on every append and sync fails with it, until
    /// a restart reads the files again (see ``sync()``).
    var syncFailure: StoreError?
    private var isClosed = false

    /// Opens the journal of the database at `databasePath` (`nil`: a store in memory), cutting
    /// off a torn last entry. Numbering continues after the last entry and after `minimumSeq`
    /// (what the state database has already folded — so that a lost or replaced journal does
    /// not start again below it).
    ///
    /// `readOnly` opens the files of a journal another instance writes (a test looking on as
    /// another process would): nothing is cut off or created, and appends fail.
    init(
        databasePath: String?, minimumSeq: Int64, syncs: Bool = false,
        segmentBytes: Int64 = defaultSegmentBytes, readOnly: Bool = false, positioned: Bool? = nil
    ) throws(StoreError) {
        self.positioned =
            positioned ?? databasePath.map { Self.fileSystemCaveat(databasePath: $0) != nil } ?? false
        self.prefix = databasePath.map { $0 + "-journal." }
        self.segmentBytes = segmentBytes
        self.durableAcrossPowerLoss = syncs
        self.readOnly = readOnly
        isClosed = readOnly
        for (firstSeq, path) in try Self.existingSegments(prefix: prefix) {
            let fd = open(path, (readOnly ? O_RDONLY : O_RDWR) | O_CLOEXEC)
            guard fd >= 0 else { throw Self.error("cannot open \(path)") }
            segments.append(
                Segment(firstSeq: firstSeq, fd: fd, path: path, end: 0, positioned: self.positioned))
        }
        nextSeq = max(minimumSeq, 0) + 1
        for (position, segment) in segments.enumerated() {
            let isLast = position == segments.count - 1
            let (end, lastSeq) = try scan(segment, isLast: isLast, cutTornEnd: !readOnly)
            segment.recovered(end: end)
            nextSeq = max(nextSeq, (lastSeq ?? segment.firstSeq - 1) + 1)
        }
        if segments.isEmpty && !readOnly { try startSegment() }
    }

    deinit {
        close()
    }

    /// The number of the first entry the journal's files begin at (perhaps with no entries yet).
    var firstSeq: Int64 {
        lock.withLock { segments.first?.firstSeq ?? nextSeq }
    }

    /// The number the next entry will get.
    var upcomingSeq: Int64 {
        lock.withLock { nextSeq }
    }

    /// Total bytes in the journal's segments.
    var sizeBytes: Int64 {
        lock.withLock { segments.reduce(0) { $0 + $1.end } }
    }

    /// Appends one entry and returns its seq. On failure nothing of it remains in the journal
    /// (what an injected failure left is cut off again) and its seq is not used. A full disk
    /// fails here, with `ENOSPC`, when the segment's next chunk cannot be allocated.
    func append(payload: [UInt8], committedMs: Int64) throws(StoreError) -> Int64 {
        lock.lock()
        defer { lock.unlock() }
        guard !isClosed, let active = segments.last else { throw StoreError.closed }
        if let syncFailure { throw syncFailure }
        try cutFailedWrite(active)
        let frameBytes = Self.headerBytes + payload.count
        if let capacityBytes = hooks.capacityBytes,
            segments.reduce(0, { $0 + $1.end }) + Int64(frameBytes) > capacityBytes
        {
            throw StoreError.posix(ENOSPC, "the event journal is full (test capacity)")
        }
        let destination = try active.room(for: frameBytes, mappingAtLeast: segmentBytes)
        let seq = nextSeq
        if let stop = hooks.faults.writeStopsAfter {
            hooks.faults.writeStopsAfter = nil
            try failPartway(
                active, into: destination, after: stop, seq: seq, committedMs: committedMs, payload)
        }
        Self.frame(seq: seq, committedMs: committedMs, payload: payload, into: destination)
        do {
            try active.write(frameBytes)
        } catch {
            // The write's error is the one to report; a cut that fails too is remembered by the
            // segment, which refuses appends until a later cut succeeds.
            try? cutFailedWrite(active)
            throw error
        }
        active.advance(by: frameBytes)
        nextSeq += 1
        if active.end >= segmentBytes {
            // The entry is in; a failure to start the next segment only delays rotation.
            try? startSegment()
        }
        return seq
    }

    /// Starts a new segment if the active one holds anything and is the only one, so that a
    /// checkpoint can later remove every segment before it. While an earlier segment is still
    /// there — the checkpoint that was to remove it failed — no other starts: checkpoints that
    /// keep failing (a full disk, SQLite busy) must not leave a file and a descriptor per
    /// attempt, which would run the process (and its next start) out of descriptors. The next
    /// checkpoint that succeeds removes the earlier one, and the one after it rotates again.
    func rotate() throws(StoreError) {
        lock.lock()
        defer { lock.unlock() }
        guard !isClosed, segments.count == 1, let active = segments.last, active.end > 0 else { return }
        // A segment that is not the last must end on a whole entry, or start-up takes it for damage.
        try cutFailedWrite(active)
        try startSegment()
    }

    /// Removes the segments, other than the active one, whose entries are all folded: those
    /// followed by a segment that starts at or before `seq + 1`.
    func removeSegments(foldedThrough seq: Int64) {
        let removed: [Segment] = lock.withLock {
            var removed: [Segment] = []
            while segments.count > 1, segments[1].firstSeq <= seq + 1 {
                removed.append(segments.removeFirst())
            }
            return removed
        }
        for segment in removed {
            if let path = segment.path { unlink(path) }
            _ = Foundation.close(segment.fd)
        }
    }

    /// Closes every segment, the active one cut to its last entry (a clean stop leaves no
    /// zeros for start-up to cut); later appends fail with ``StoreError/closed``.
    func close() {
        lock.withLock {
            isClosed = true
            // Only a segment this instance allocated ahead in: when `init` fails, `deinit`
            // closes segments whose end start-up never learnt. Should the cut fail, start-up
            // makes it: the zeros after the last entry are no damage.
            if !readOnly, let active = segments.last, active.reserved > active.end {
                _ = active.truncateToEnd()
            }
            letGo()
        }
    }

    /// Lets go of every segment as a process that is killed does: nothing is cut, the active
    /// segment keeps its zeros after the last entry — a test hook for what start-up then finds.
    func abandon() {
        lock.withLock {
            isClosed = true
            letGo()
        }
    }

    /// Unmaps and closes every segment. Callers hold `lock`.
    private func letGo() {
        for segment in segments {
            segment.unmap()
            _ = Foundation.close(segment.fd)
        }
        segments.removeAll()
    }

    // MARK: - Files

    /// Starts a new active segment whose first entry is `nextSeq`. Callers hold `lock` (or are
    /// `init`).
    ///
    /// The segment that stops being the active one is first cut to its last entry: start-up
    /// takes anything after the last entry of a segment that is not the last for damage. The
    /// cut comes before the new file exists, so a process killed in between leaves it the last
    /// segment, whose end start-up accepts as it is.
    private func startSegment() throws(StoreError) {
        if let previous = segments.last {
            guard previous.truncateToEnd() else {
                throw Self.error("cutting an event journal segment to its last entry failed")
            }
            if durableAcrossPowerLoss, syncFailure == nil, fsync(previous.fd) != 0 {
                // `sync()` syncs only the active segment: this one (and its cut size) is synced
                // before it stops being it. Should that fail, entries acknowledged by a later
                // sync might not be on the disk: the journal stops taking any (see `sync()`).
                syncFailure = Self.syncFailure()
            }
        }
        let fd: Int32
        var path: String?
        if let prefix {
            let name = prefix + String(nextSeq)
            fd = open(name, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            path = name
            if fd >= 0, durableAcrossPowerLoss {
                do throws(StoreError) {
                    try syncDirectory(of: name)
                } catch {
                    // Entries acknowledged in a file whose name a power cut could take away
                    // would be lost with it: no segment, and the active one stays active.
                    _ = Foundation.close(fd)
                    _ = unlink(name)
                    throw error
                }
            }
        } else {
            var template = Array((NSTemporaryDirectory() + "/reading-progress-journal.XXXXXX").utf8CString)
            // Close-on-exec, as every descriptor the store opens: a child process must not
            // inherit the journal.
            fd = template.withUnsafeMutableBufferPointer { csystem_mkstemp_cloexec($0.baseAddress!) }
            if fd >= 0 { template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) } }
        }
        guard fd >= 0 else { throw Self.error("cannot create an event journal segment") }
        segments.last?.unmap()
        segments.append(Segment(firstSeq: nextSeq, fd: fd, path: path, end: 0, positioned: positioned))
    }
}
