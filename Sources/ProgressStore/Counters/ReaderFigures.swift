/// What one reader did on one article: on one UTC day, or folded over several days. Every store
/// keeps its reader-day records in this shape (packed as it likes) and folds them with
/// ``fold(_:)``, the same way a database upsert does.
public struct ReaderFigures: Sendable, Equatable {
    /// Maximum `progress` over the events.
    public var maxProgress: Double
    /// Maximum `seenDepth` over the events.
    public var maxSeenDepth: Double
    public var events: Int64
    public var engagedMs: Int64
    /// Earliest and latest event time, ms since the epoch.
    public var firstMs: Int64
    public var lastMs: Int64
    /// Whether any of the events was scrollable. Last, so that the figures take 49 bytes.
    public var scrollable: Bool

    public init(
        maxProgress: Double, maxSeenDepth: Double, scrollable: Bool, events: Int64, engagedMs: Int64,
        firstMs: Int64, lastMs: Int64
    ) {
        self.maxProgress = maxProgress
        self.maxSeenDepth = maxSeenDepth
        self.events = events
        self.engagedMs = engagedMs
        self.firstMs = firstMs
        self.lastMs = lastMs
        self.scrollable = scrollable
    }

    /// The figures of one event.
    @inlinable
    public init(_ event: EventRecord) {
        self.init(
            maxProgress: event.progress, maxSeenDepth: event.seenDepth, scrollable: event.scrollable,
            events: 1, engagedMs: event.engagedMs, firstMs: event.timeMs, lastMs: event.timeMs)
    }

    /// Adds `other`: maxima, any scrollable, sums, earliest, latest.
    @inlinable
    public mutating func fold(_ other: ReaderFigures) {
        maxProgress = max(maxProgress, other.maxProgress)
        maxSeenDepth = max(maxSeenDepth, other.maxSeenDepth)
        scrollable = scrollable || other.scrollable
        events += other.events
        engagedMs += other.engagedMs
        firstMs = min(firstMs, other.firstMs)
        lastMs = max(lastMs, other.lastMs)
    }

    /// These figures with `other` added.
    @inlinable
    public func folded(_ other: ReaderFigures) -> ReaderFigures {
        var folded = self
        folded.fold(other)
        return folded
    }
}

/// A reader and what it did on one article over a range of days. Its figures read as its own
/// members: `summary.events` is `summary.figures.events`.
@dynamicMemberLookup
public struct ReaderSummary: Sendable, Equatable {
    public var reader: String
    public var figures: ReaderFigures

    public init(reader: String, figures: ReaderFigures) {
        self.reader = reader
        self.figures = figures
    }

    public subscript<Value>(dynamicMember figure: WritableKeyPath<ReaderFigures, Value>) -> Value {
        get { figures[keyPath: figure] }
        set { figures[keyPath: figure] = newValue }
    }
}
