import ProgressStore

/// What one reader did on one article on one UTC day, or folded over several days.
struct DayFigures: Equatable {
    var maxProgress: Double
    var maxSeenDepth: Double
    var scrollable: Bool
    var events: Int64
    var engagedMs: Int64
    var firstMs: Int64
    var lastMs: Int64

    /// The figures of one event.
    init(_ event: EventRecord) {
        self.init(
            maxProgress: event.progress, maxSeenDepth: event.seenDepth, scrollable: event.scrollable,
            events: 1, engagedMs: event.engagedMs, firstMs: event.timeMs, lastMs: event.timeMs)
    }

    init(
        maxProgress: Double, maxSeenDepth: Double, scrollable: Bool, events: Int64, engagedMs: Int64,
        firstMs: Int64, lastMs: Int64
    ) {
        self.maxProgress = maxProgress
        self.maxSeenDepth = maxSeenDepth
        self.scrollable = scrollable
        self.events = events
        self.engagedMs = engagedMs
        self.firstMs = firstMs
        self.lastMs = lastMs
    }

    /// Adds `other` as the SQLite upsert does: maxima, any scrollable, sums, earliest, latest.
    mutating func fold(_ other: DayFigures) {
        maxProgress = max(maxProgress, other.maxProgress)
        maxSeenDepth = max(maxSeenDepth, other.maxSeenDepth)
        scrollable = scrollable || other.scrollable
        events += other.events
        engagedMs += other.engagedMs
        firstMs = min(firstMs, other.firstMs)
        lastMs = max(lastMs, other.lastMs)
    }
}
