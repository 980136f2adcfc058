import HTTPServer
import ProgressStore

/// The metric a stats query folds readers by.
enum MetricName: String, CaseIterable, Sendable {
    case progress, seenDepth
}

extension ProgressService {
    /// `GET /v1/articles/{article}/stats` (SPEC §5).
    func statistics(_ request: HTTPRequest, rawArticle: Substring) throws(APIError) -> Reply {
        // Kept answers are found by the request as spelled, before any decoding; the article's
        // version, read before its answer was computed, says whether one still holds.
        let cacheKey = rawArticle + "?" + (request.query ?? "")
        if let kept = statsCache.entry(for: cacheKey), store.version(of: kept.article) == kept.version {
            return kept.reply
        }
        guard let article = percentDecode(rawArticle), !article.isEmpty else {
            throw APIError(
                status: 400, code: "invalid_path",
                message: "the article id is not valid percent-encoded UTF-8",
                field: "article")
        }
        let version = store.version(of: article)
        var reply = try computeStatistics(article: article, query: request.query)
        if let version {
            reply.prepared = prepare(reply)
            statsCache.store(reply, article: article, version: version, for: cacheKey)
        }
        return reply
    }

    private func computeStatistics(article: String, query rawQuery: String?) throws(APIError) -> Reply {
        let query = try QueryParameters(rawQuery)
        let metric = try query.choice("metric", default: MetricName.progress)
        let threshold = try query.number("threshold", in: 0...1) ?? configuration.completionThreshold
        let minEngagedSeconds = try query.number("minEngagedSeconds", in: 0...1e12) ?? 0
        let (from, to) = try query.dayRange()
        let found: ArticleStatistics?
        do {
            found = try store.statistics(
                of: article, in: DayRange(from: from, to: to),
                metric: metric == .progress ? .progress : .seenDepth,
                threshold: threshold, minEngagedSeconds: minEngagedSeconds)
        } catch {
            throw .storeUnavailable(error.message)
        }
        guard let stats = found else { throw .unknownArticle(article) }

        var w = JSONWriter(capacity: 2048)
        w.beginObject()
        w.key("article")
        w.string(article)
        w.key("metric")
        w.string(metric.rawValue)
        w.key("from")
        if let from {
            w.string(EventTime.format(Int64(from) * 86_400_000).prefix(10).description)
        } else {
            w.null()
        }
        w.key("to")
        if let to {
            w.string(EventTime.format(Int64(to) * 86_400_000).prefix(10).description)
        } else {
            w.null()
        }
        w.key("readers")
        w.integer(stats.readers)
        w.key("unscrollableReaders")
        w.integer(stats.unscrollableReaders)
        w.key("events")
        w.integer(stats.events)
        w.key("completion")
        w.beginObject()
        w.key("threshold")
        w.number(threshold)
        w.key("minEngagedSeconds")
        w.number(minEngagedSeconds)
        w.key("completed")
        w.integer(stats.completed)
        w.key("rate")
        w.number(stats.rate)
        w.endObject()
        w.key("depth")
        w.beginObject()
        w.key("mean")
        w.number(stats.depthMean)
        w.key("p25")
        w.number(stats.p25)
        w.key("median")
        w.number(stats.median)
        w.key("p75")
        w.number(stats.p75)
        w.endObject()
        w.key("reach")
        w.beginArray()
        for share in stats.reach { w.number(share) }
        w.endArray()
        w.key("engagedSeconds")
        w.beginObject()
        w.key("total")
        w.number(stats.engagedSecondsTotal)
        w.key("meanPerReader")
        w.number(stats.engagedMeanPerReader)
        w.endObject()
        w.key("firstEventAt")
        if let first = stats.firstMs { w.string(EventTime.format(first)) } else { w.null() }
        w.key("lastEventAt")
        if let last = stats.lastMs { w.string(EventTime.format(last)) } else { w.null() }
        w.endObject()
        return .json(200, w)
    }
}
