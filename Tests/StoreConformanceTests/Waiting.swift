import Foundation
import ProgressStore

/// The store's completion-based calls, waited for, so that tests read as plain calls.
extension ProgressStore {
    func append(_ events: [EventRecord]) throws(StoreError) -> AppendResult {
        try waitFor { append(events, completion: $0) }
    }

    func readers(of article: String, in days: DayRange = .allTime) throws(StoreError) -> [ReaderSummary]? {
        try waitFor { readers(of: article, in: days, completion: $0) }
    }

    func statistics(_ query: StatisticsQuery) throws(StoreError) -> ArticleStatistics? {
        try waitFor { statistics(query, completion: $0) }
    }

    func listing(_ query: ListingQuery) throws(StoreError) -> ListingPage {
        try waitFor { listing(query, completion: $0) }
    }

    func probe() -> Bool {
        (try? waitFor { done in probe { done(.success($0)) } }) ?? false
    }

    func report() -> StoreReport? {
        try? waitFor { done in report { done(.success($0)) } }
    }
}

/// Calls `start` with a completion and waits until it has run, at most 60 s.
func waitFor<Value: Sendable>(
    _ start: (@escaping @Sendable (Result<Value, StoreError>) -> Void) -> Void
) throws(StoreError) -> Value {
    let box = OutcomeBox<Value>()
    let done = DispatchSemaphore(value: 0)
    start { result in
        box.lock.withLock { box.outcome = result }
        done.signal()
    }
    guard done.wait(timeout: .now() + 60) == .success, let outcome = box.lock.withLock({ box.outcome }) else {
        throw StoreError.configuration("the store did not complete within 60 s")
    }
    return try outcome.get()
}

private final class OutcomeBox<Value>: @unchecked Sendable {
    let lock = NSLock()
    var outcome: Result<Value, StoreError>?
}
