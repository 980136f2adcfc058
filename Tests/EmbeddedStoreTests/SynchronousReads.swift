import Foundation
import ProgressStore

@testable import EmbeddedStore

/// The store's completion-based reads, waited for: tests read as plain calls.
extension ProgressStore {
    func readers(of article: String, in days: DayRange) throws(StoreError) -> [ReaderSummary]? {
        try waitFor { readers(of: article, in: days, completion: $0) }
    }

    func statistics(
        of article: String, in days: DayRange, metric: ArticleStatistics.Metric, threshold: Double,
        minEngagedSeconds: Double
    ) throws(StoreError) -> ArticleStatistics? {
        try waitFor {
            statistics(
                StatisticsQuery(
                    article: article, days: days, metric: metric, threshold: threshold,
                    minEngagedSeconds: minEngagedSeconds), completion: $0)
        }
    }

    /// Every article's row over `days`, in id order.
    func listing(in days: DayRange, threshold: Double) throws(StoreError) -> [ArticleListing] {
        try waitFor {
            listing(
                ListingQuery(days: days, order: .article, threshold: threshold, limit: .max), completion: $0)
        }.rows
    }
}

extension MemoryIndex {
    func statistics(
        of article: String, in days: DayRange, metric: ArticleStatistics.Metric, threshold: Double,
        minEngagedSeconds: Double
    ) throws(StoreError) -> ArticleStatistics? {
        try statisticsNow(
            StatisticsQuery(
                article: article, days: days, metric: metric, threshold: threshold,
                minEngagedSeconds: minEngagedSeconds))
    }

    /// Every article's row over `days`, in id order.
    func listing(in days: DayRange, threshold: Double) -> [ArticleListing] {
        listing(ListingQuery(days: days, order: .article, threshold: threshold, limit: .max)).rows
    }
}

/// Calls `start` with a completion and waits until it has run, at most 60 s.
func waitFor<Value: Sendable>(
    _ start: (@escaping @Sendable (Result<Value, StoreError>) -> Void) -> Void
) throws(StoreError) -> Value {
    let outcome = Locked<Result<Value, StoreError>?>(nil)
    let done = DispatchSemaphore(value: 0)
    start { result in
        outcome.withLock { $0 = result }
        done.signal()
    }
    guard done.wait(timeout: .now() + 60) == .success, let result = outcome.current else {
        throw StoreError.configuration("the store did not complete within 60 s")
    }
    return try result.get()
}
