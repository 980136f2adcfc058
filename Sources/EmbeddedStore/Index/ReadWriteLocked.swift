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
///
/// The value lives at an address of its own, so that `body` borrows it in place: a stored
/// property passed to a closure is copied, retaining every buffer the value holds.
final class ReadWriteLocked<Value>: @unchecked Sendable {
    private let lock: UnsafeMutablePointer<pthread_rwlock_t>
    private let value: UnsafeMutablePointer<Value>

    init(_ value: Value) {
        self.value = .allocate(capacity: 1)
        self.value.initialize(to: value)
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
        value.deinitialize(count: 1)
        value.deallocate()
    }

    /// Runs `body` with shared access; other readers may run at the same time.
    func read<Result, Failure>(_ body: (borrowing Value) throws(Failure) -> Result) throws(Failure) -> Result
    {
        pthread_rwlock_rdlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        return try body(value.pointee)
    }

    /// Runs `body` with shared access to the value where it lies, for reads of a few of its
    /// parts that must not copy the whole.
    func peek<Result>(_ body: (UnsafePointer<Value>) -> Result) -> Result {
        pthread_rwlock_rdlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        return body(value)
    }

    /// Runs `body` with exclusive access.
    func write<Result, Failure>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_rwlock_wrlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        return try body(&value.pointee)
    }
}
