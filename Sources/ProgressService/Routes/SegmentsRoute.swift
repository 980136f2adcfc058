import HTTPServer
import ProgressStore

extension ProgressService {
    /// `GET /v1/articles/{article}/segments` (docs/api.md, "Segments of one article"): the
    /// article's readers split by device class or by source, each segment with its figures.
    func segments(_ request: HTTPRequest, rawArticle: Substring, _ finish: @escaping Completion) {
        answer(request, aboutArticle: rawArticle, keptIn: segmentsCache, finish) {
            [self] article throws(APIError) in
            let parameters = try QueryParameters(request.query)
            guard parameters["by"] != nil else {
                throw .invalidQuery("by is needed: device or source", field: "by")
            }
            let by = try parameters.choice("by", default: SegmentStatistics.Dimension.device)
            let limit = try parameters.integer("limit", in: SegmentStatistics.limits) ?? 10
            return SegmentsQuery(
                statistics: try statisticsQuery(article: article, query: parameters), by: by, limit: limit)
        } compute: { [self] query, finish in
            store.segments(query) { [self] result in
                finish(
                    Result { () throws(APIError) in
                        Self.render(try found(result, about: query.statistics.article), for: query)
                    })
            }
        }
    }

    private static func render(_ split: SegmentStatistics, for query: SegmentsQuery) -> Reply {
        var w = JSONWriter(capacity: 1024 * (split.segments.count + 1))
        w.beginObject()
        w.key("article")
        w.string(query.statistics.article)
        w.key("by")
        w.string(query.by.rawValue)
        w.key("segments")
        w.beginArray()
        for segment in split.segments { write(segment, into: &w) }
        w.endArray()
        w.key("other")
        if let other = split.other { write(other, into: &w) } else { w.null() }
        w.endObject()
        return .json(200, w)
    }

    private static func write(_ segment: SegmentStatistics.Segment, into w: inout JSONWriter) {
        let stats = segment.statistics
        w.beginObject()
        w.key("segment")
        w.string(segment.name)
        w.key("readers")
        w.integer(stats.readers)
        w.key("completion")
        w.beginObject()
        w.key("completed")
        w.integer(stats.completed)
        w.key("rate")
        w.number(stats.rate)
        w.endObject()
        w.key("depth")
        w.beginObject()
        w.key("mean")
        w.number(stats.depthMean)
        w.key("median")
        w.number(stats.median)
        w.endObject()
        w.key("reach")
        w.beginArray()
        for share in stats.reach { w.number(share) }
        w.endArray()
        w.endObject()
    }
}
