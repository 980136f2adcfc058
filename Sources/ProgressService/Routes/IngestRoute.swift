import HTTPServer
import ProgressCore
import ProgressStore

extension ProgressService {
    /// `POST /v1/events` (SPEC §4): validate every event, hand the valid ones to the store in one
    /// append, and answer 202 only once the store says they are durable.
    func ingest(_ request: HTTPRequest, _ finish: @escaping Completion) {
        let started = MonotonicClock.now()
        let batch: EventBatch
        do throws(APIError) {
            guard let format = BodyFormat(contentType: request.header("Content-Type")) else {
                throw APIError.unsupportedMediaType(request.header("Content-Type"))
            }
            batch = try EventBatch.decode(request.body, format: format, using: EventDecoder())
        } catch {
            metrics.recordEvents(accepted: 0, rejected: 1, duplicates: 0)
            finish(.failure(error))
            return
        }
        let nowMs = clock()
        switch batch {
        case .single(let event):
            // Apart, so that the completion captures the figures alone, not the record (whose
            // strings a captured copy would retain).
            let record: EventRecord
            let figures: ProgressFigures
            do throws(APIError) {
                (record, figures) = try prepare(event, nowMs: nowMs)
            } catch {
                metrics.recordEvents(accepted: 0, rejected: 1, duplicates: 0)
                finish(.failure(error))
                return
            }
            // The answer is rendered before the append, so that a completion on the store's sync
            // thread only has to pick it up; only a repeat needs another rendering.
            let accepted = Self.singleAnswer(figures, duplicate: false)
            store.append([record]) { [self] result in
                metrics.recordCommit(nanoseconds: Int(MonotonicClock.now() - started))
                finish(
                    result.map { outcome in
                        metrics.recordEvents(accepted: 1, rejected: 0, duplicates: outcome.duplicates)
                        return outcome.duplicates > 0
                            ? Self.singleAnswer(figures, duplicate: true) : accepted
                    }.mapError { .storeUnavailable($0.message) })
            }
        case .many(let entries):
            var records: [EventRecord] = []
            var rejected: [(index: Int, error: APIError)] = []
            records.reserveCapacity(entries.count)
            for (index, entry) in entries.enumerated() {
                do {
                    records.append(try prepare(entry.get(), nowMs: nowMs).0)
                } catch {
                    rejected.append((index, error))
                }
            }
            let accepted = records.count
            let rejectedCount = rejected.count
            let rejectedList = rejected
            guard !records.isEmpty else {
                metrics.recordEvents(accepted: 0, rejected: rejected.count, duplicates: 0)
                finish(.failure(noValidEvent(rejected)))
                return
            }
            store.append(records) { [self] result in
                metrics.recordCommit(nanoseconds: Int(MonotonicClock.now() - started))
                finish(
                    result.map { outcome in
                        metrics.recordEvents(
                            accepted: accepted, rejected: rejectedCount, duplicates: outcome.duplicates)
                        var writer = JSONWriter()
                        writer.beginObject()
                        writer.key("accepted")
                        writer.integer(accepted)
                        writer.key("duplicates")
                        writer.integer(outcome.duplicates)
                        writer.key("rejected")
                        writeRejected(rejectedList, into: &writer)
                        writer.endObject()
                        return .json(202, writer)
                    }.mapError { .storeUnavailable($0.message) })
            }
        }
    }

    /// The 202 answer to one event: `accepted`, `duplicate` when it was a repeat, the figures.
    static func singleAnswer(_ figures: ProgressFigures, duplicate: Bool) -> Reply {
        var writer = JSONWriter()
        writer.beginObject()
        writer.key("accepted")
        writer.integer(1)
        if duplicate {
            writer.key("duplicate")
            writer.bool(true)
        }
        writeFigures(figures, into: &writer)
        writer.endObject()
        return .json(202, writer)
    }

    /// `POST /v1/progress`: the figures of one event, nothing stored.
    func progress(_ request: HTTPRequest) throws(APIError) -> Reply {
        guard let format = BodyFormat(contentType: request.header("Content-Type")), format == .json else {
            throw .unsupportedMediaType(request.header("Content-Type"))
        }
        guard
            case .single(let event) = try EventBatch.decode(
                request.body, format: .json, using: EventDecoder(requireIdentity: false))
        else {
            throw APIError(status: 400, code: "invalid_event", message: "body must be one event object")
        }
        if let timeMs = event.timeMs { try EventTime.check(timeMs, nowMs: clock()) }
        let figures = try computeFigures(event.geometry)
        var writer = JSONWriter()
        writer.beginObject()
        Self.writeFigures(figures, into: &writer)
        writer.endObject()
        return .json(200, writer)
    }

    private func prepare(_ event: DecodedEvent, nowMs: Int64) throws(APIError) -> (
        EventRecord, ProgressFigures
    ) {
        let timeMs = event.timeMs ?? nowMs
        try EventTime.check(timeMs, nowMs: nowMs)
        let figures = try computeFigures(event.geometry)
        let record = EventRecord(
            article: event.article, reader: event.reader, timeMs: timeMs, progress: figures.progress,
            seenDepth: figures.seenDepth, scrollable: figures.scrollable, engagedMs: event.engagedMs,
            eventID: event.id)
        return (record, figures)
    }

    private func computeFigures(_ geometry: ScrollGeometry) throws(APIError) -> ProgressFigures {
        do {
            return try geometry.figures()
        } catch {
            throw .invalidEvent(error.message, field: error.field)
        }
    }

    private func noValidEvent(_ rejected: [(index: Int, error: APIError)]) -> APIError {
        var error = APIError(status: 400, code: "invalid_event", message: "no event in the batch is valid")
        if rejected.count == 1, let only = rejected.first {
            error.field = only.error.field.map { "[\(only.index)].\($0)" }
            error.message = "no event in the batch is valid: [\(only.index)]: \(only.error.message)"
        }
        var list = JSONWriter()
        writeRejected(rejected, into: &list)
        error.rejected = list.bytes
        return error
    }

    private func writeRejected(_ rejected: [(index: Int, error: APIError)], into writer: inout JSONWriter) {
        writer.beginArray()
        for entry in rejected {
            writer.beginObject()
            writer.key("index")
            writer.integer(entry.index)
            writer.key("error")
            entry.error.writeDetail(into: &writer)
            writer.endObject()
        }
        writer.endArray()
    }

    static func writeFigures(_ figures: ProgressFigures, into writer: inout JSONWriter) {
        writer.key("progress")
        writer.number(figures.progress)
        writer.key("percent")
        writer.percent(figures.wholePercent)
        writer.key("seenDepth")
        writer.number(figures.seenDepth)
        writer.key("scrollable")
        writer.bool(figures.scrollable)
        if let offset = figures.indicatorOffset {
            writer.key("indicatorOffset")
            writer.number(offset)
        }
        if let step = figures.step {
            writer.key("step")
            writer.beginObject()
            writer.key("progress")
            writer.number(step.progress)
            writer.key("visible")
            writer.bool(step.visible)
            writer.key("barOffset")
            writer.number(step.barOffset)
            writer.key("barOpacity")
            writer.number(step.barOpacity)
            writer.endObject()
        }
    }
}
