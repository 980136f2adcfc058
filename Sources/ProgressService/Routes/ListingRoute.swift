import HTTPServer
import ProgressStore

extension ProgressService {
    static let defaultPageSize = 50

    /// `GET /v1/articles` (docs/api.md, "Every article"): every article with its headline
    /// figures, a page at a time.
    func listing(_ request: HTTPRequest, _ finish: @escaping Completion) {
        let query: ListingQuery
        let context: PageCursor.Context
        do throws(APIError) {
            let parameters = try QueryParameters(request.query)
            let order = try parameters.choice("sort", default: ListingOrder.readers)
            let limit = try parameters.integer("limit", in: 1...1000) ?? Self.defaultPageSize
            let (from, to) = try parameters.dayRange()
            let prefix = try parameters.text("prefix", bytes: 1...256)
            context = PageCursor.Context(order: order.rawValue, from: from, to: to, prefix: prefix)
            let offset =
                try parameters["cursor"].map { (text) throws(APIError) in
                    try PageCursor.offset(from: text, context: context)
                } ?? 0
            query = ListingQuery(
                days: DayRange(from: from, to: to), order: order,
                threshold: configuration.completionThreshold,
                offset: offset, limit: limit, prefix: prefix)
        } catch {
            finish(.failure(error))
            return
        }
        store.listing(query) { result in
            finish(
                result.map { Self.render($0, of: query, context: context) }
                    .mapError { .storeUnavailable($0.message) })
        }
    }

    private static func render(_ listing: ListingPage, of query: ListingQuery, context: PageCursor.Context)
        -> Reply
    {
        let page = listing.rows
        let nextOffset = query.offset + page.count
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
        if listing.hasMore {
            w.string(PageCursor.make(offset: nextOffset, context: context))
        } else {
            w.null()
        }
        w.endObject()
        return .json(200, w)
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

        var text: String {
            let range = "\(order)|\(from.map(String.init) ?? "")|\(to.map(String.init) ?? "")"
            // Cursors of listings without a prefix read as they always have.
            return prefix.map { "\(range)|\($0.utf8.count):\($0)" } ?? range
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
                "cursor is not one this listing handed out (sort, from and to must match)", field: "cursor")
        }
        return offset
    }

    /// FNV-1a over the offset and the query; a fixed salt keeps cursors valid across restarts.
    private static func checksum(offset: Int, context: Context) -> String {
        FNV1a.hex("reading-progress-cursor|\(offset)|\(context.text)".utf8)
    }
}
