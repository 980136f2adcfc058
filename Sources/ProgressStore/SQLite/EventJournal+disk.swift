import Foundation

/// The journal and the disk under it: syncing what was appended, and the room left.
extension EventJournal {
    /// Flushes everything appended so far to the disk (`fdatasync`, which on Linux writes the
    /// pages dirtied through the mapping as well). Only the active segment can hold unsynced
    /// entries: a segment is synced before the next one starts.
    ///
    /// Known limit of the power-cut promise: when an `fdatasync` fails (`EIO`), Linux may drop
    /// the pages it could not write and reports the error once per open file, so a later sync
    /// can succeed over entries that are gone. The group whose sync failed is told so, but a
    /// later group (or a repeat of one of its ids) may be acknowledged; and the sync of a
    /// segment that stops being the active one (`startSegment`) reports nothing at all. Only a
    /// fail-stop journal — no append after a failed sync until a restart reads the files again
    /// — would close this; it is a policy for the fsync mode as a whole, not taken here.
    func sync() throws(StoreError) {
        lock.withLock { beforeSync }?()
        // A duplicate descriptor keeps the file open even if the folder removes the segment
        // meanwhile, and lets appends go on while the disk works.
        let fd: Int32 = lock.withLock { segments.last.map { dup($0.fd) } ?? -1 }
        guard fd >= 0 else { throw StoreError.closed }
        defer { _ = Foundation.close(fd) }
        if fdatasync(fd) != 0 { throw Self.error("syncing the event journal failed") }
    }

    /// Bytes the journal could still grow by: what the file system has free for it (or what
    /// is left of the test capacity).
    var freeBytes: Int64 {
        let (capacity, used, fd) = lock.withLock {
            (capacityBytes, segments.reduce(0) { $0 + $1.end }, segments.last?.fd ?? -1)
        }
        if let capacity { return max(0, capacity - used) }
        var info = statvfs()
        guard fd >= 0, fstatvfs(fd, &info) == 0 else { return 0 }
        return Int64(info.f_bavail) * Int64(info.f_frsize)
    }
}
