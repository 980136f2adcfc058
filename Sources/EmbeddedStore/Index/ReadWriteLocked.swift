import ProgressStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A value behind a readers–writer lock: many threads read at once, one writes alone.
///
/// `Synchronization.Mutex` would serialise the readers, and a statistics request that has to
/// fold a large article over a date range takes long enough that the others should not wait
/// for it. On glibc the lock prefers the writer, so a steady stream of reads cannot starve
/// the thread that applies commits.
final class ReadWriteLocked<Value>: @unchecked Sendable {
    private let lock: UnsafeMutablePointer<pthread_rwlock_t>
    private var value: Value

    init(_ value: Value) {
        self.value = value
        lock = .allocate(capacity: 1)
        lock.initialize(to: pthread_rwlock_t())
        var attributes = pthread_rwlockattr_t()
        pthread_rwlockattr_init(&attributes)
        #if canImport(Glibc)
            pthread_rwlockattr_setkind_np(&attributes, Int32(PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP))
        #endif
        let status = pthread_rwlock_init(lock, &attributes)
        pthread_rwlockattr_destroy(&attributes)
        precondition(status == 0, "pthread_rwlock_init failed: \(status)")
    }

    deinit {
        pthread_rwlock_destroy(lock)
        lock.deinitialize(count: 1)
        lock.deallocate()
    }

    /// Runs `body` with shared access; other readers may run at the same time.
    func read<Result, Failure>(_ body: (borrowing Value) throws(Failure) -> Result) throws(Failure) -> Result
    {
        pthread_rwlock_rdlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        return try body(value)
    }

    /// Runs `body` with exclusive access.
    func write<Result, Failure>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_rwlock_wrlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        return try body(&value)
    }
}
