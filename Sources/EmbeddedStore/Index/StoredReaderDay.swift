import ProgressStore

/// One (article, reader, day) row as a store keeps it, for restoring the index at start-up.
public struct StoredReaderDay: Sendable {
    public var article: String
    public var reader: String
    public var day: Int32
    public var maxProgress: Double
    public var maxSeenDepth: Double
    public var scrollable: Bool
    public var events: Int64
    public var engagedMs: Int64
    public var firstMs: Int64
    public var lastMs: Int64

    public init(
        article: String, reader: String, day: Int32, maxProgress: Double, maxSeenDepth: Double,
        scrollable: Bool, events: Int64, engagedMs: Int64, firstMs: Int64, lastMs: Int64
    ) {
        self.article = article
        self.reader = reader
        self.day = day
        self.maxProgress = maxProgress
        self.maxSeenDepth = maxSeenDepth
        self.scrollable = scrollable
        self.events = events
        self.engagedMs = engagedMs
        self.firstMs = firstMs
        self.lastMs = lastMs
    }
}
