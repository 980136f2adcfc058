import HTTPServer
import ProgressCore
import ProgressStore

extension ProgressService {
    /// `GET /v1/articles/{article}/stats` (docs/api.md, "Statistics of one article").
    func statistics(_ request: HTTPRequest, rawArticle: Substring, _ finish: @escaping Completion) {
        answer(request, aboutArticle: rawArticle, keptIn: statsCache, finish) {
            [self] article throws(APIError) in
            try statisticsQuery(article: article, query: request.query)
        } compute: { [self] query, finish in
            store.statistics(query) { [self] result in
                let stats: ArticleStatistics
                do throws(APIError) {
                    stats = try found(result, about: query.article)
                } catch {
                    finish(.failure(error))
                    return
                }
                store.sections(query) { [self] result in
                    finish(
                        Result { () throws(APIError) in
                            render(stats, try found(result, about: query.article), for: query)
                        })
                }
            }
        }
    }

    /// The stats route's parameters (docs/api.md, "Statistics of one article"), which the
    /// segments route shares.
    func statisticsQuery(article: String, query: QueryParameters) throws(APIError) -> StatisticsQuery {
        let metric = try query.choice("metric", default: ArticleStatistics.Metric.progress)
        let threshold = try query.number("threshold", in: 0...1) ?? configuration.completionThreshold
        let minEngagedSeconds = try query.number("minEngagedSeconds", in: 0...1e12) ?? 0
        let (from, to) = try query.dayRange()
        let device: DeviceClass? = try query.choice("device")
        let source = try query.text("source", bytes: 1...ReaderSource.maximumBytes).map(
            ReaderSource.normalised)
        return StatisticsQuery(
            article: article, days: DayRange(from: from, to: to),
            metric: metric, threshold: threshold,
            minEngagedSeconds: minEngagedSeconds, segment: SegmentFilter(device: device, source: source))
    }

    private func statisticsQuery(article: String, query rawQuery: String?) throws(APIError) -> StatisticsQuery
    {
        try statisticsQuery(article: article, query: QueryParameters(rawQuery))
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
        let segment = query.segment
        w.key("device")
        if let device = segment.device { w.string(device.rawValue) } else { w.null() }
        w.key("source")
        if let source = segment.source { w.string(source) } else { w.null() }
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
        // A segment's figures come without first and last times (docs/api.md, "Segments").
        let (first, last) = segment.isAll ? (stats.firstMs, stats.lastMs) : (nil, nil)
        w.key("firstEventAt")
        if let first { w.string(EventTime.format(first)) } else { w.null() }
        w.key("lastEventAt")
        if let last { w.string(EventTime.format(last)) } else { w.null() }
        write(parts, filtered: !segment.isAll, into: &w)
        w.endObject()
        return .json(200, w)
    }
}

extension ProgressService {
    /// `attention` and `sections` (docs/api.md, "Sections and attention").
    /// Under a segment filter attention is null, and so are each section's seconds and words a
    /// minute: attention is kept by article and day, not by reader.
    fileprivate func write(_ parts: SectionStatistics, filtered: Bool, into w: inout JSONWriter) {
        w.key("attention")
        if let attention = parts.attention, !filtered {
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
            if let seconds = section.seconds, !filtered { w.number(seconds) } else { w.null() }
            w.key("wordsPerMinute")
            if let rate = section.wordsPerMinute, !filtered { w.number(rate) } else { w.null() }
            w.endObject()
        }
        w.endArray()
    }
}
