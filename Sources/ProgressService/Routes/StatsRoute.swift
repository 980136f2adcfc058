import HTTPServer
import ProgressStore

extension ProgressService {
    /// `GET /v1/articles/{article}/stats` (docs/api.md, "Statistics of one article").
    func statistics(_ request: HTTPRequest, rawArticle: Substring, _ finish: @escaping Completion) {
        // Kept answers are found by the request as spelled, before any decoding; the article's
        // version, read before its answer was computed, says whether one still holds.
        let cacheKey = rawArticle + "?" + (request.query ?? "")
        if let kept = statsCache.entry(for: cacheKey), store.version(of: kept.article) == kept.version {
            finish(.success(kept.reply))
            return
        }
        let query: StatisticsQuery
        do throws(APIError) {
            guard let article = percentDecode(rawArticle), !article.isEmpty else {
                throw APIError(
                    status: 400, code: "invalid_path",
                    message: "the article id is not valid percent-encoded UTF-8",
                    field: "article")
            }
            query = try statisticsQuery(article: article, query: request.query)
        } catch {
            finish(.failure(error))
            return
        }
        let version = store.version(of: query.article)
        store.statistics(query) { [self] result in
            let stats: ArticleStatistics
            do throws(APIError) {
                guard let found = try result.mapError({ APIError.storeUnavailable($0.message) }).get() else {
                    throw .unknownArticle(query.article)
                }
                stats = found
            } catch {
                finish(.failure(error))
                return
            }
            store.sections(query) { [self] result in
                finish(
                    Result { () throws(APIError) in
                        guard let parts = try result.mapError({ APIError.storeUnavailable($0.message) }).get()
                        else {
                            throw .unknownArticle(query.article)
                        }
                        var reply = render(stats, parts, for: query)
                        if let version {
                            reply.prepared = prepare(reply)
                            statsCache.store(reply, article: query.article, version: version, for: cacheKey)
                        }
                        return reply
                    })
            }
        }
    }

    private func statisticsQuery(article: String, query rawQuery: String?) throws(APIError) -> StatisticsQuery
    {
        let query = try QueryParameters(rawQuery)
        let metric = try query.choice("metric", default: ArticleStatistics.Metric.progress)
        let threshold = try query.number("threshold", in: 0...1) ?? configuration.completionThreshold
        let minEngagedSeconds = try query.number("minEngagedSeconds", in: 0...1e12) ?? 0
        let (from, to) = try query.dayRange()
        return StatisticsQuery(
            article: article, days: DayRange(from: from, to: to),
            metric: metric, threshold: threshold,
            minEngagedSeconds: minEngagedSeconds)
    }

    private func render(_ stats: ArticleStatistics, _ parts: SectionStatistics, for query: StatisticsQuery)
        -> Reply
    {
        let (article, metric, from, to) = (query.article, query.metric, query.days.from, query.days.to)
        let (threshold, minEngagedSeconds) = (query.threshold, query.minEngagedSeconds)
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
        write(parts, into: &w)
        w.endObject()
        return .json(200, w)
    }
}

extension ProgressService {
    /// `attention` and `sections` (docs/api.md, "Sections and attention").
    fileprivate func write(_ parts: SectionStatistics, into w: inout JSONWriter) {
        w.key("attention")
        if let attention = parts.attention {
            w.beginArray()
            for seconds in attention { w.number(seconds) }
            w.endArray()
        } else {
            w.null()
        }
        w.key("sections")
        w.beginArray()
        for section in parts.sections {
            w.beginObject()
            w.key("title")
            w.string(section.title)
            w.key("start")
            w.number(section.start)
            w.key("end")
            w.number(section.end)
            w.key("words")
            if let words = section.words { w.integer(Int(words)) } else { w.null() }
            w.key("reached")
            w.number(section.reached)
            w.key("stoppedWithin")
            w.number(section.stoppedWithin)
            w.key("seconds")
            if let seconds = section.seconds { w.number(seconds) } else { w.null() }
            w.key("wordsPerMinute")
            if let rate = section.wordsPerMinute { w.number(rate) } else { w.null() }
            w.endObject()
        }
        w.endArray()
    }
}
