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
