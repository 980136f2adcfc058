import Foundation
import ProgressStore

/// The store's lock file, `<path>.lock`, with an exclusive `flock` on it; let go of by
/// ``release()`` or, at the latest, when dropped — also when the `init` that took it fails
/// further on, so that this process can try again.
final class LockFile: Sendable {
    private let fd: Locked<Int32>

    /// Takes the lock file of the store at `path`, or explains who has it.
    init(_ path: String) throws(StoreError) {
        let fd = open(path + ".lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw StoreError.posix(
                errno, "cannot open \(path).lock: \(String(cString: strerror(errno)))")
        }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            _ = Foundation.close(fd)
            throw StoreError.posix(
                EWOULDBLOCK, "\(path) is open in another process (\(path).lock is locked)")
        }
        self.fd = Locked(fd)
    }

    deinit {
        release()
    }

    /// Unlocks and closes the file; idempotent. Unlocked first: a child process forked in the
    /// meantime shares the open file until it executes, and closing alone would leave the lock
    /// held by that share, so that the store could not be opened again at once.
    func release() {
        fd.withLock { fd in
            if fd >= 0 {
                _ = flock(fd, LOCK_UN)
                _ = Foundation.close(fd)
            }
            fd = -1
        }
    }
}
