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

}
