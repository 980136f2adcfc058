import Foundation
import ProgressStore

extension EventJournal {
    /// One segment file. The active one — the last — is written through a `MAP_SHARED` mapping
    /// of the file: an entry copied into it is in the page cache, as `write(2)`'s bytes would
    /// be, and survives the process being killed. Readers use `pread` on `fd`, which sees the
    /// same page cache.
    ///
    /// The file is allocated ahead of `end` (`posix_fallocate`, a chunk at a time), so that
    /// every byte the mapping is written at lies within the file (a page past the end of file
    /// raises SIGBUS) and has its blocks: a full disk fails the reservation, and so the append,
    /// with `ENOSPC`, never a page fault later. Between `end` and `reserved` the file holds
    /// zeros — unless cutting off a failed append's bytes failed (`holdsFailedWrite`).
    ///
    /// Memory: touched pages of a shared mapping count in the process's resident size. Once
    /// `end` moves past a chunk boundary the chunks behind it are given back (`MADV_DONTNEED`,
    /// which for a shared file mapping only drops this process's page-table entries: the data
    /// stays in the page cache and goes to disk as usual). So the mapping holds at most one
    /// chunk (1 MiB) resident between appends, plus, during an append, the entry being written.
    ///
    /// On a copy-on-write or network file system allocating ahead guarantees no space (a write
    /// through the mapping could then meet a full disk as SIGBUS), so there a segment writes
    /// each entry with `pwrite` instead (``positioned``): one system call an entry, and a full
    /// disk is an error like any other.
    ///
    /// Callers hold the journal's lock.
    final class Segment {
        /// What is allocated ahead of `end` at a time, and the unit memory is given back in.
        static let chunkBytes: Int64 = 1 << 20
        /// How far past the segment size the first mapping reaches, so that the entry that
        /// takes a segment past its size still fits (an entry the service writes is at most
        /// about 0.5 MiB: 1000 events of the longest ids); a larger one maps the file again.
        static let mappingSlackBytes: Int64 = 4 << 20

        let firstSeq: Int64
        let fd: Int32
        let path: String?
        /// Whether entries go to the file by `pwrite` rather than through the mapping.
        let positioned: Bool
        /// Where a positioned segment frames an entry before it writes it.
        private var scratch: UnsafeMutableRawBufferPointer?
        /// Bytes of whole entries: what readers may read, and where the next entry goes.
        var end: Int64
        /// How much of the file is known to be allocated: the file is at least this long.
        private(set) var reserved: Int64
        /// How far bytes of a failed append reach; `end` when there are none.
        private var failedWriteEnd: Int64
        /// The mapping of the file's first `mappedBytes` bytes; nil until the first append.
        private(set) var mapping: UnsafeMutableRawPointer?
        private(set) var mappedBytes: Int64 = 0
        /// The mapping's pages below this offset have been given back.
        private(set) var residentFrom: Int64 = 0

        /// A segment whose file holds `end` bytes of whole entries and nothing after them.
        init(firstSeq: Int64, fd: Int32, path: String?, end: Int64, positioned: Bool) {
            self.firstSeq = firstSeq
            self.fd = fd
            self.path = path
            self.end = end
            self.positioned = positioned
            reserved = end
            failedWriteEnd = end
        }

        deinit {
            scratch?.deallocate()
        }

        /// Whether bytes of a failed append lie past `end` (cutting them off failed too).
        var holdsFailedWrite: Bool { failedWriteEnd > end }

        /// Takes the file as it is after start-up's scan: `end` bytes of whole entries, which
        /// the scan has cut it to (or, opened read-only, left longer).
        func recovered(end: Int64) {
            self.end = end
            reserved = end
            failedWriteEnd = end
        }

        /// Makes the `count` bytes after `end` writable through the mapping — allocated in the
        /// file, and mapped — and returns them. The mapping reaches at least `minimum` bytes
        /// and the slack past it, so that a segment is mapped once unless an entry reaches
        /// further still.
        func room(for count: Int, mappingAtLeast minimum: Int64) throws(StoreError)
            -> UnsafeMutableRawBufferPointer
        {
            if positioned {
                if (scratch?.count ?? 0) < count {
                    scratch?.deallocate()
                    scratch = .allocate(byteCount: max(count, 64 << 10), alignment: 16)
                }
                return UnsafeMutableRawBufferPointer(rebasing: scratch![..<count])
            }
            let needed = end + Int64(count)
            if needed > reserved { try reserve(through: needed) }
            if mapping == nil || needed > mappedBytes {
                try map(bytes: max(Self.roundedUp(minimum) + Self.mappingSlackBytes, Self.roundedUp(needed)))
            }
            return UnsafeMutableRawBufferPointer(start: mapping! + Int(end), count: count)
        }

        /// Puts the `count` bytes ``room(for:mappingAtLeast:)`` gave into the file, when they
        /// are not there already (a positioned segment). On failure what reached the file is
        /// held as a failed write, for ``cutFailedWrite()``.
        func write(_ count: Int) throws(StoreError) {
            guard positioned, let scratch else { return }
            var done = 0
            while done < count {
                let written = pwrite(fd, scratch.baseAddress! + done, count - done, off_t(end) + off_t(done))
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else {
                    let code = written < 0 ? errno : EIO
                    holdFailedWrite(of: count)
                    throw StoreError.posix(
                        code, "writing the event journal failed: \(String(cString: strerror(code)))")
                }
                done += written
            }
        }

        /// Counts the `count` bytes after `end` as a whole entry, and gives back the mapping's
        /// chunks that lie wholly behind the new end.
        func advance(by count: Int) {
            end += Int64(count)
            failedWriteEnd = end
            let behind = end / Self.chunkBytes * Self.chunkBytes
            guard behind > residentFrom, let mapping else { return }
            // Only advice: should it fail, the pages stay resident, and nothing else changes.
            _ = madvise(mapping + Int(residentFrom), Int(behind - residentFrom), MADV_DONTNEED)
            residentFrom = behind
        }

        /// Marks `count` bytes after `end` as written by an append that failed.
        func holdFailedWrite(of count: Int) {
            failedWriteEnd = max(failedWriteEnd, end + Int64(count))
        }

        /// Removes what a failed append left past `end`, so that the file holds whole entries
        /// and then, if mapped, zeros again; whether that worked.
        func cutFailedWrite() -> Bool {
            guard holdsFailedWrite else { return true }
            if positioned { return truncateToEnd() }
            guard let mapping else { return true }
            (mapping + Int(end)).initializeMemory(
                as: UInt8.self, repeating: 0, count: Int(failedWriteEnd - end))
            failedWriteEnd = end
            return true
        }

        /// Cuts the file to its whole entries (`ftruncate`), which also removes a failed
        /// append's bytes and the allocation ahead; whether that worked. The mapping stays:
        /// the next append allocates again before it writes.
        func truncateToEnd() -> Bool {
            guard ftruncate(fd, off_t(end)) == 0 else { return false }
            reserved = end
            failedWriteEnd = end
            return true
        }

        /// Lets go of the mapping (what was written through it stays in the page cache).
        func unmap() {
            if let mapping { _ = munmap(mapping, Int(mappedBytes)) }
            mapping = nil
            mappedBytes = 0
        }

        /// Allocates the file through `needed`, rounded up to a whole chunk.
        private func reserve(through needed: Int64) throws(StoreError) {
            let target = Self.roundedUp(needed)
            var code: Int32
            repeat {
                code = posix_fallocate(fd, off_t(reserved), off_t(target - reserved))
            } while code == EINTR
            guard code == 0 else {
                // A file system can allocate part of the range before it runs out of space (and
                // grow the file over it): give that back, for whatever else needs the room.
                _ = ftruncate(fd, off_t(reserved))
                throw StoreError.posix(
                    code,
                    "allocating room in the event journal failed: \(String(cString: strerror(code)))"
                )
            }
            reserved = target
        }

        /// Maps the file's first `bytes` bytes in place of the current mapping.
        private func map(bytes: Int64) throws(StoreError) {
            unmap()
            let address = mmap(nil, Int(bytes), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)
            guard let address, address != MAP_FAILED else {
                throw EventJournal.error("mapping the event journal failed")
            }
            mapping = address
            mappedBytes = bytes
            residentFrom = end / Self.chunkBytes * Self.chunkBytes
        }

        private static func roundedUp(_ bytes: Int64) -> Int64 {
            (bytes + chunkBytes - 1) / chunkBytes * chunkBytes
        }
    }
}

extension EventJournal {
    /// Why the journal writes each entry with `pwrite` on the file system that holds
    /// `databasePath`, or `nil` when it writes through a mapping there. The journal allocates
    /// its files ahead (`posix_fallocate`) so that writing through the mapping never needs new
    /// space; on a copy-on-write or network file system a write can still need space, and a
    /// full disk would meet a write through the mapping as SIGBUS rather than an error.
    static func fileSystemCaveat(databasePath: String, mounts: String? = nil) -> String? {
        let folder = URL(fileURLWithPath: databasePath).deletingLastPathComponent().resolvingSymlinksInPath()
            .path
        guard let kind = fileSystemType(of: folder, mounts: mounts) else { return nil }
        let uncertain = ["btrfs", "zfs", "nfs", "nfs4", "cifs", "smb3", "9p", "virtiofs"]
        guard uncertain.contains(kind) || kind.hasPrefix("fuse") else { return nil }
        return "\(folder) is on \(kind), where space allocated ahead is not guaranteed: the event"
            + " journal writes each entry with pwrite there (a system call an entry; ext4, XFS and"
            + " tmpfs are written through a shared mapping)"
    }

    /// The type of the file system mounted at the longest mount point above `path`, from
    /// `mounts` (by default `/proc/self/mounts`, whose mount points spell a space `\040`).
    static func fileSystemType(of path: String, mounts: String? = nil) -> String? {
        // Without a mount table (not Linux) the type is unknown, which chooses the mapping.
        guard let table = mounts ?? (try? String(contentsOfFile: "/proc/self/mounts", encoding: .utf8)) else {
            return nil
        }
        var best: (length: Int, type: String)?
        for line in table.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count >= 3 else { continue }
            let point = fields[1].replacingOccurrences(of: "\\040", with: " ")
            let covers = path == point || point == "/" || path.hasPrefix(point + "/")
            if covers, point.count >= (best?.length ?? -1) { best = (point.count, String(fields[2])) }
        }
        return best?.type
    }
}

extension EventJournal {
    /// Makes a new file's directory entry durable (for the power-cut promise of fsync mode), or
    /// throws why it cannot. Callers hold `lock`.
    func syncDirectory(of path: String) throws(StoreError) {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        let fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw Self.error("cannot open the event journal's folder to sync it") }
        defer { _ = Foundation.close(fd) }
        if hooks.faults.directorySyncFails {
            errno = EIO
        } else if fsync(fd) == 0 {
            return
        }
        throw Self.error("syncing the event journal's folder failed")
    }

    static func error(_ what: String) -> StoreError {
        let code = errno
        return StoreError.posix(code, "\(what): \(String(cString: strerror(code)))")
    }
}
