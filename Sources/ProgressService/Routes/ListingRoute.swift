import HTTPServer
import ProgressStore

/// How `GET /v1/articles` orders its rows; ties go by article id.
enum ListingOrder: String, CaseIterable, Sendable {
    /// Most readers first.
    case readers
    /// Highest completion rate first.
    case completion
    /// Latest event first; articles with no event in range last.
    case recent
    /// By article id, ascending (UTF-8 byte order).
    case article
}

extension ProgressService {
    static let defaultPageSize = 50

    /// `GET /v1/articles` (SPEC §5): every article with its headline figures, a page at a time.
    func listing(_ request: HTTPRequest) throws(APIError) -> Reply {
        let query = try QueryParameters(request.query)
        let order = try query.choice("sort", default: ListingOrder.readers)
        let limit = try query.integer("limit", in: 1...1000) ?? Self.defaultPageSize
        let (from, to) = try query.dayRange()
        let prefix = query["prefix"]
        if let prefix, !(1...256).contains(prefix.utf8.count) {
            throw .invalidQuery("prefix must be 1 to 256 bytes of UTF-8", field: "prefix")
        }
        let context = PageCursor.Context(order: order.rawValue, from: from, to: to, prefix: prefix)
        let offset =
            try query["cursor"].map { (text) throws(APIError) in
                try PageCursor.offset(from: text, context: context)
            } ?? 0

        var rows: [ArticleListing]
        do {
            rows = try store.listing(
                in: DayRange(from: from, to: to), threshold: configuration.completionThreshold)
        } catch {
            throw .storeUnavailable(error.message)
        }
        if let prefix {
            rows.removeAll { !$0.article.utf8.starts(with: prefix.utf8) }
        }
        rows.sort(by: order.areInIncreasingOrder)
        let page = rows.dropFirst(offset).prefix(limit)
        let nextOffset = offset + page.count

        var w = JSONWriter(capacity: 128 * page.count + 64)
        w.beginObject()
        w.key("articles")
        w.beginArray()
        for row in page {
            w.beginObject()
            w.key("article")
            w.string(row.article)
            w.key("readers")
            w.integer(row.readers)
            w.key("events")
            w.integer(row.events)
            w.key("completionRate")
            w.number(row.completionRate)
            w.key("meanDepth")
            w.number(row.meanDepth)
            w.key("lastEventAt")
            if let last = row.lastEventMs { w.string(EventTime.format(last)) } else { w.null() }
            w.endObject()
        }
        w.endArray()
        w.key("next")
        if nextOffset < rows.count {
            w.string(PageCursor.make(offset: nextOffset, context: context))
        } else {
            w.null()
        }
        w.endObject()
        return .json(200, w)
    }
}

extension ListingOrder {
    func areInIncreasingOrder(_ a: ArticleListing, _ b: ArticleListing) -> Bool {
        switch self {
        case .readers where a.readers != b.readers: return a.readers > b.readers
        case .completion where a.completionRate != b.completionRate:
            return a.completionRate > b.completionRate
        case .recent where a.lastEventMs != b.lastEventMs:
            return (a.lastEventMs ?? .min) > (b.lastEventMs ?? .min)
        default: return a.article.utf8.lexicographicallyPrecedes(b.article.utf8)
        }
    }
}

/// An opaque `next` cursor: the offset of the next page, bound to the sort and range it was
/// made for by a checksum, so a cursor that was edited or belongs to another query is refused.
enum PageCursor {
    struct Context: Sendable {
        var order: String
        var from: Int32?
        var to: Int32?
        var prefix: String?

        /// Last, the prefix needs no escaping; without one, the text (and so every cursor) is
        /// what it is for listings that have none.
        var text: String {
            "\(order)|\(from.map(String.init) ?? "")|\(to.map(String.init) ?? "")"
                + (prefix.map { "|" + $0 } ?? "")
        }
    }

    static func make(offset: Int, context: Context) -> String {
        "\(offset).\(checksum(offset: offset, context: context))"
    }

    static func offset(from cursor: String, context: Context) throws(APIError) -> Int {
        let parts = cursor.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].utf8.count <= 9, let offset = Int(parts[0]), offset >= 0,
            parts[1] == checksum(offset: offset, context: context)
        else {
            throw .invalidQuery(
                "cursor is not one this listing handed out (sort, from, to and prefix must match)",
                field: "cursor")
        }
        return offset
    }

    /// FNV-1a over the offset and the query; a fixed salt keeps cursors valid across restarts.
    private static func checksum(offset: Int, context: Context) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in "reading-progress-cursor|\(offset)|\(context.text)".utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
