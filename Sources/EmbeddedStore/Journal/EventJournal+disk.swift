import Foundation
import ProgressStore

/// The journal and the disk under it: syncing what was appended, and the room left.
extension EventJournal {
    /// Flushes everything appended so far to the disk (`fdatasync`, which on Linux writes the
    /// pages dirtied through the mapping as well). Only the active segment can hold unsynced
    /// entries: a segment is synced before the next one starts.
    ///
    /// Fail-stop: when an `fdatasync` fails (`EIO`), Linux may drop the pages it could not write
    /// and reports the error once per open file, so a later sync could succeed over entries that
    /// are gone — and acknowledge later ones, or a repeat of a lost one, as durable. So after one
    /// failure every sync and every append fails, with that failure, until a restart. `/healthz`
    /// answers 503 meanwhile. (Checkpoints go on: they save the index, which holds every
    /// acknowledged event, to the database — a file of its own.)
    ///
    /// Linux reports a writeback error once per open file, and the descriptors here are
    /// duplicates of one: so syncs run one at a time (`syncLock`), and a sync that succeeds
    /// looks again for a failure that retiring the segment (`startSegment`, under `lock`) may
    /// have taken the report of meanwhile.
    func sync() throws(StoreError) {
        lock.withLock { hooks.beforeSync }?()
        syncLock.lock()
        defer { syncLock.unlock() }
        // A duplicate descriptor keeps the file open even if a checkpoint removes the segment
        // meanwhile, and lets appends go on while the disk works.
        let (fd, failure, injected): (Int32, StoreError?, Bool) = lock.withLock {
            defer { hooks.faults.syncFails = false }
            return (segments.last.map { dup($0.fd) } ?? -1, syncFailure, hooks.faults.syncFails)
        }
        if let failure {
            if fd >= 0 { _ = Foundation.close(fd) }
            throw failure
        }
        guard fd >= 0 else { throw StoreError.closed }
        defer { _ = Foundation.close(fd) }
        if fdatasync(fd) != 0 || injected {
            let failure = Self.syncFailure(injected ? EIO : errno)
            lock.withLock { syncFailure = syncFailure ?? failure }
            throw failure
        }
        if let failure = lock.withLock({ syncFailure }) { throw failure }
    }

    /// The error of a failed sync, for it and for everything after it.
    static func syncFailure(_ code: Int32 = errno) -> StoreError {
        StoreError.posix(
            code,
            "syncing the event journal failed (\(String(cString: strerror(code)))): no more "
                + "writes until a restart reads the journal again")
    }

    /// Bytes the journal could still grow by: what the file system has free for it (or what
    /// is left of the test capacity).
    var freeBytes: Int64 {
        let (capacity, used, fd) = lock.withLock {
            (hooks.capacityBytes, segments.reduce(0) { $0 + $1.end }, segments.last?.fd ?? -1)
        }
        if let capacity { return max(0, capacity - used) }
        var info = statvfs()
        guard fd >= 0, fstatvfs(fd, &info) == 0 else { return 0 }
        return Int64(info.f_bavail) * Int64(info.f_frsize)
    }
}
