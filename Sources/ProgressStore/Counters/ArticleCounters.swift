/// One article's all-time counters, kept up to date as its readers' figures change, so that the
/// default statistics and the listing never visit a reader. Both stores keep them — the embedded
/// store in memory, PostgreSQL in `rp_articles` (whose columns are these fields) — and a reader
/// changes them only through ``move(from:to:)`` and ``drop(_:)``.
public struct ArticleCounters: Sendable, Equatable {
    /// Readers with an event, the ones none of whose events was scrollable included.
    package var readers = 0
    /// Readers none of whose events was scrollable (left out of the progress figures).
    package var unscrollable = 0
    package var events: Int64 = 0
    package var engagedMs: Int64 = 0
    /// Earliest and latest event time, ms since the epoch; `nil` while there is no reader.
    package var firstMs: Int64?
    package var lastMs: Int64?
    /// Sum of the scrollable readers' maximum progress.
    package var progressSum = DepthSum()
    /// Sum of every reader's maximum seen depth.
    package var seenSum = DepthSum()
    /// The same depths in 1/1000 bins, when kept (see ``CounterPolicy/histogramMinimumReaders``).
    package var histograms: DepthHistograms?

    /// The counters of an article without readers; `keepsHistograms` starts its histograms.
    package init(keepsHistograms: Bool = false) {
        histograms = keepsHistograms ? DepthHistograms() : nil
    }

    /// Moves one reader's all-time figures from `before` (nil for a new reader) to `after`, which
    /// is `before` with more figures folded in. Returns whether the histograms are due: there
    /// are none, and more readers than ``CounterPolicy/histogramMinimumReaders`` (then the store sets them
    /// from its readers, with ``DepthHistograms/init(_:)``).
    @discardableResult
    package mutating func move(from before: ReaderFigures?, to after: ReaderFigures) -> Bool {
        let wasCounted: Bool
        if let before {
            events += after.events &- before.events
            engagedMs += after.engagedMs &- before.engagedMs
            wasCounted = before.scrollable
            if !wasCounted && after.scrollable { unscrollable -= 1 }
        } else {
            readers += 1
            events += after.events
            engagedMs += after.engagedMs
            wasCounted = false
            if !after.scrollable { unscrollable += 1 }
        }
        firstMs = min(firstMs ?? after.firstMs, after.firstMs)
        lastMs = max(lastMs ?? after.lastMs, after.lastMs)
        // A reader's maxima mostly stay where they were: then nothing moves.
        if !(wasCounted && after.scrollable && before!.maxProgress == after.maxProgress) {
            if wasCounted {
                progressSum.remove(before!.maxProgress)
                histograms?.progress.remove(before!.maxProgress)
            }
            if after.scrollable {
                progressSum.add(after.maxProgress)
                histograms?.progress.insert(after.maxProgress)
            }
        }
        if before?.maxSeenDepth != after.maxSeenDepth {
            if let before {
                seenSum.remove(before.maxSeenDepth)
                histograms?.seenDepth.remove(before.maxSeenDepth)
            }
            seenSum.add(after.maxSeenDepth)
            histograms?.seenDepth.insert(after.maxSeenDepth)
        }
        return readers > CounterPolicy.histogramMinimumReaders && !keepsHistograms
    }

    /// Whether ``histograms`` are kept. Matching the case reads no payload, where
    /// `histograms == nil` copies the four arrays (a retain and a release each) on every move.
    package var keepsHistograms: Bool {
        if case .some = histograms { true } else { false }
    }

    /// Takes a reader out with its all-time `figures` (erasure, retention). The first and last
    /// event times cannot be taken back out of a minimum: the caller sets ``firstMs`` and
    /// ``lastMs`` from the records that stay.
    package mutating func drop(_ figures: ReaderFigures) {
        readers -= 1
        events -= figures.events
        engagedMs -= figures.engagedMs
        if figures.scrollable {
            progressSum.remove(figures.maxProgress)
            histograms?.progress.remove(figures.maxProgress)
        } else {
            unscrollable -= 1
        }
        seenSum.remove(figures.maxSeenDepth)
        histograms?.seenDepth.remove(figures.maxSeenDepth)
        if readers == 0 { (firstMs, lastMs) = (nil, nil) }
    }

    /// Whether these counters hold a reader of all-time `figures`: one counted, as unscrollable
    /// when none of its events scrolled, its depths in the histograms when kept — what
    /// ``move(from:to:)`` (from a reader it had) and ``drop(_:)`` take out, and trap on when it
    /// is not there. A store whose counters come from a database, which may contradict the
    /// rows, asks first.
    package func holds(_ figures: ReaderFigures) -> Bool {
        guard readers > 0, figures.scrollable || unscrollable > 0 else { return false }
        guard let histograms else { return true }
        return (!figures.scrollable || histograms.progress.holds(figures.maxProgress))
            && histograms.seenDepth.holds(figures.maxSeenDepth)
    }

    /// Whether `days` holds every day this article has an event on, so that figures over
    /// `days` are the all-time ones.
    package func spans(_ days: DayRange) -> Bool {
        guard let firstMs, let lastMs else { return true }
        return (days.from ?? .min) <= UTCDay.of(ms: firstMs) && (days.to ?? .max) >= UTCDay.of(ms: lastMs)
    }

    /// Whether this article has no event on any day of `days`.
    package func misses(_ days: DayRange) -> Bool {
        guard let firstMs, let lastMs else { return true }
        return (days.from ?? .min) > UTCDay.of(ms: lastMs) || (days.to ?? .max) < UTCDay.of(ms: firstMs)
    }
}

/// Counted readers' all-time depths by metric: progress over the scrollable readers, seen depth
/// over all of them.
package struct DepthHistograms: Sendable, Equatable {
    package var progress = DepthHistogram()
    package var seenDepth = DepthHistogram()

    package init() {}

    /// The histograms of every reader's all-time figures, which `forEachReader` hands to the
    /// closure it is given.
    package init(_ forEachReader: ((ReaderFigures) -> Void) -> Void) {
        forEachReader { allTime in
            if allTime.scrollable { progress.insert(allTime.maxProgress) }
            seenDepth.insert(allTime.maxSeenDepth)
        }
    }

    package init(progress: DepthHistogram, seenDepth: DepthHistogram) {
        self.progress = progress
        self.seenDepth = seenDepth
    }

    /// The histogram of `metric`'s depths.
    package subscript(metric: ArticleStatistics.Metric) -> DepthHistogram {
        metric == .progress ? progress : seenDepth
    }
}
