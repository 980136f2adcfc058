#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Guards `MHD_resume_connection` against `MHD_stop_daemon`.
///
/// A reply may arrive on any thread at any time, but once `MHD_stop_daemon` runs it frees
/// suspended connections. Repliers resume under the shared side of a read-write lock, so they
/// never wait for each other; `close()` takes the exclusive side, after which no resume happens.
final class ResumeGate: @unchecked Sendable {
    private let lock = UnsafeMutablePointer<pthread_rwlock_t>.allocate(capacity: 1)
    private var isOpen = true  // guarded by `lock`

    init() {
        pthread_rwlock_init(lock, nil)
    }

    deinit {
        pthread_rwlock_destroy(lock)
        lock.deallocate()
    }

    /// Runs `body` unless the gate has been closed.
    func ifOpen(_ body: () -> Void) {
        pthread_rwlock_rdlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        if isOpen { body() }
    }

    /// Waits for running bodies to finish and lets no more run.
    func close() {
        pthread_rwlock_wrlock(lock)
        isOpen = false
        pthread_rwlock_unlock(lock)
    }
}
