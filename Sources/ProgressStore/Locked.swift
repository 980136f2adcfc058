import Foundation
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
