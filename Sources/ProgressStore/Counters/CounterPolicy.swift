/// Every threshold and bound of the derived counters — what a store keeps beside its readers'
/// records so that an answer need not visit every reader — with why each has its value. Both
/// stores read their values here and nowhere else; where one store needs another value, the
/// policy of that store (``embedded``, ``postgres``) says which and why.
///
/// The one threshold both stores share is a static (``histogramMinimumReaders``): the analytics
/// decide by it which answers come from counters, so that the two stores answer alike.
package struct CounterPolicy: Sendable, Equatable {
    /// Readers past which an article's all-time counters keep depth histograms, and the default
    /// statistics, the sections and the listing line come from them (``ArticleCounters``).
    /// Below, folding the readers answers exactly, and about as fast as reading 2 × 1001 bins.
    /// Both stores: the quantiles of docs/api.md are exact up to this many readers.
    package static let histogramMinimumReaders = 512

    /// Readers past which an article keeps its counters for each UTC day it has records on, so
    /// that a one-day range answers as all time does.
    package var dayCountersFrom: Int

    /// Reader-days past which one day's counters keep histograms; below, the day answers by
    /// folding its records, exactly.
    package var dayHistogramMinimumReaderDays: Int

    /// Readers past which an article keeps counters for each segment (device class, source).
    package var segmentCountersFrom: Int

    /// Date ranges whose listing lines are kept besides all time's, the least recently listed
    /// going first: the dashboard's 7, 30 and 90 days and two more, at some 82 bytes of memory
    /// an article a range in the embedded store. A range listed again the next day is a new
    /// range: the embedded store folds every article for it once, PostgreSQL moves yesterday's
    /// rows of the same length to it and recounts the articles of the two days that differ.
    package static let keptListingRanges = 5

    /// The embedded store keeps its counters in memory, where every byte a reader-day costs is
    /// counted (docs/performance.md) and folding readers is fast (65,536 take some 7 ms):
    ///
    /// - counters by day from 65,536 readers: below, the records' lists (a byte a reader-day)
    ///   would sit on the many middling articles for a fold that costs milliseconds;
    /// - a day's histograms (24 KB) from 4,096 reader-days: folding that many answers in well
    ///   under a millisecond, and the histograms are then a tenth of the records' memory;
    /// - segment counters (24 KB a device class) from 16,384 readers: below, folding costs a
    ///   few milliseconds at most, and the counters would take a large share of a reader-day's
    ///   64 bytes.
    package static let embedded = CounterPolicy(
        dayCountersFrom: 65_536, dayHistogramMinimumReaderDays: 4_096, segmentCountersFrom: 16_384)

    /// PostgreSQL keeps its counters on disk, where a row costs little, while folding readers
    /// means sending their rows from the database (a one-day range of a 1M-reader article:
    /// 1,008 ms folded, 8.9 ms from the day's row):
    ///
    /// - counters by day, and segment counters, from the same 512 readers as the histograms:
    ///   past it a fold over the wire costs more than the counters' rows, and the fold that
    ///   takes an article past it counts both kinds from its rows in one statement;
    /// - every day with counters keeps histograms (as their non-empty bins, a few bytes a
    ///   reader), since a day's rows are as dear to read as an article's.
    package static let postgres = CounterPolicy(
        dayCountersFrom: histogramMinimumReaders, dayHistogramMinimumReaderDays: 0,
        segmentCountersFrom: histogramMinimumReaders)
}
