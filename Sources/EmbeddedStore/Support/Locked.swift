import Foundation
import ProgressStore
import Synchronization

/// A value behind a lock, for the few bits of state several threads share.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }

    var current: Value {
        withLock { $0 }
    }
}

/// A flag several threads read and set, without a lock: reading it leaves its cache line
/// shared, so a path that checks it on every request costs no transfer between cores.
final class Flag: Sendable {
    private let value: Atomic<Bool>

    init(_ value: Bool) {
        self.value = Atomic(value)
    }

    var current: Bool { value.load(ordering: .acquiring) }

    func set(_ newValue: Bool) {
        value.store(newValue, ordering: .releasing)
    }

    /// Sets it, only writing when it changes.
    func ensure(_ newValue: Bool) {
        if current != newValue { set(newValue) }
    }
}

/// A mutex that spins a little before it sleeps (glibc's adaptive kind), for critical
/// sections of a microsecond or two taken by every request: the thread that wants it usually
/// gets it while the holder is still running on another core, without a trip through the kernel.
/// Elsewhere than glibc, a plain mutex.
final class SpinningLock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        #if os(Linux)
            pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ADAPTIVE_NP))
        #else
            pthread_mutexattr_settype(&attributes, PTHREAD_MUTEX_NORMAL)
        #endif
        pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}
