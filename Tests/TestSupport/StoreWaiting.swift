import Dispatch
public import ProgressStore
import Synchronization

/// Calls `start` with a completion and waits until it has run, at most 60 s: a store's
/// completion-based call, read by a test as a plain one.
public func waitFor<Value: Sendable>(
    _ start: (@escaping @Sendable (Result<Value, StoreError>) -> Void) -> Void
) throws(StoreError) -> Value {
    let outcome = Outcome<Value>()
    let done = DispatchSemaphore(value: 0)
    start { result in
        outcome.result.withLock { $0 = result }
        done.signal()
    }
    guard done.wait(timeout: .now() + 60) == .success, let result = outcome.result.withLock({ $0 }) else {
        throw StoreError.configuration("the store did not complete within 60 s")
    }
    return try result.get()
}

/// What a store's completion handed over, for the thread that waits for it.
private final class Outcome<Value: Sendable>: Sendable {
    let result = Mutex<Result<Value, StoreError>?>(nil)
}
