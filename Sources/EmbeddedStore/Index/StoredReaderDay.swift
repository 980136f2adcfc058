import ProgressStore

/// One whole (article, reader, day) record, to fold into an index at once.
struct StoredReaderDay: Sendable {
    var article: String
    var reader: String
    var day: Int32
    var maxProgress: Double
    var maxSeenDepth: Double
    var scrollable: Bool
    var events: Int64
    var engagedMs: Int64
    var firstMs: Int64
    var lastMs: Int64

    init(
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
