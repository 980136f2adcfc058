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
