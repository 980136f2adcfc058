import HTTPServer
import ProgressCore
import ProgressStore

extension ProgressService {
    /// `POST /v1/events` (docs/api.md, "Events"): validate every event, hand the valid ones to the store in one
    /// append, and answer 202 only once the store says they are durable.
    func ingest(_ request: HTTPRequest, _ finish: @escaping Completion) {
        let started = MonotonicClock.now()
        let nowMs = clock()
        let window = TimeWindow(nowMs: nowMs, retentionDays: configuration.retentionDays)
        // A batch's entries go straight into records as they are decoded.
        var batch = PreparedBatch(window: window, bodyBytes: request.body.count)
        let single: DecodedEvent?
        do throws(APIError) {
            guard let format = BodyFormat(of: request) else {
                throw APIError.unsupportedMediaType(request.header("Content-Type"))
            }
            single = try EventBatch.decode(request.body, format: format, using: EventDecoder(), into: &batch)
        } catch {
            metrics.recordEvents(accepted: 0, rejected: 1, duplicates: 0)
            finish(.failure(error))
            return
        }
        if let event = single {
            // Apart, so that the completion captures the figures alone, not the record (whose
            // strings a captured copy would retain).
            let figures = event.geometry.figuresOfValidGeometry()
            var record: EventRecord
            do throws(APIError) {
                record = Self.record(of: event, at: try window.time(of: event), figures: figures)
            } catch {
                metrics.recordEvents(accepted: 0, rejected: 1, duplicates: 0)
                finish(.failure(error))
                return
            }
            guard event.reader == nil else {
                appendSingle(record, figures: figures, started: started, finish)
                return
            }
            let day = UTCDay.of(ms: nowMs)
            let address = configuration.trustedProxies.clientAddress(of: request)
            if let salt = derivedReaders.cachedSalt(forDay: day) {
                record.reader = DerivedReaders.readerID(salt: salt, address: address, request: request)
                appendSingle(record, figures: figures, started: started, finish)
                return
            }
            // The first derived id of the day: the store makes or finds the day's salt.
            derivedReaders.salt(forDay: day) { [self, record] result in
                switch result {
                case .success(let salt):
                    var record = record
                    record.reader = DerivedReaders.readerID(salt: salt, address: address, request: request)
                    appendSingle(record, figures: figures, started: started, finish)
                case .failure(let error):
                    finish(.failure(.storeUnavailable(error.message)))
                }
            }
            return
        }
        guard !batch.records.isEmpty else {
            metrics.recordEvents(accepted: 0, rejected: batch.rejected.count, duplicates: 0)
            finish(.failure(noValidEvent(batch.rejected)))
            return
        }
        guard batch.derivesReader else {
            appendBatch(batch.records, rejected: batch.rejected, started: started, finish)
            return
        }
        // One derived id for every event of the request that names no reader.
        let day = UTCDay.of(ms: nowMs)
        let address = configuration.trustedProxies.clientAddress(of: request)
        if let salt = derivedReaders.cachedSalt(forDay: day) {
            batch.nameReaders(DerivedReaders.readerID(salt: salt, address: address, request: request))
            appendBatch(batch.records, rejected: batch.rejected, started: started, finish)
            return
        }
        derivedReaders.salt(forDay: day) { [self, batch] result in
            switch result {
            case .success(let salt):
                var batch = batch
                batch.nameReaders(DerivedReaders.readerID(salt: salt, address: address, request: request))
                appendBatch(batch.records, rejected: batch.rejected, started: started, finish)
            case .failure(let error):
                finish(.failure(.storeUnavailable(error.message)))
            }
        }
    }

    /// Hands one event's record to the store and answers once it is durable. The answer is
    /// rendered before the append, so that a completion on the store's sync thread only has to
    /// pick it up; only a repeat needs another rendering.
    private func appendSingle(
        _ record: EventRecord, figures: ProgressFigures, started: Int64, _ finish: @escaping Completion
    ) {
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
    }

    /// Hands a batch's valid records to the store in one append and answers once they are durable.
    private func appendBatch(
        _ records: [EventRecord], rejected rejectedList: [(index: Int, error: APIError)], started: Int64,
        _ finish: @escaping Completion
    ) {
        let accepted = records.count
        let rejectedCount = rejectedList.count
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

    /// A batch's entries as the store takes them, made as the decoder hands them over: the valid
    /// events as records, the others as their index in the batch and their error.
    struct PreparedBatch: EventBatchSink {
        let window: TimeWindow
        var records: [EventRecord] = []
        var rejected: [(index: Int, error: APIError)] = []
        /// Whether a kept record names no reader yet (its `reader` is empty, which no client's is).
        private(set) var derivesReader = false
        private var count = 0
        /// How many entries to make room for at the first: an event takes some 150 bytes or more.
        private let expected: Int

        init(window: TimeWindow, bodyBytes: Int) {
            self.window = window
            expected = min(bodyBytes / 128 + 1, EventBatch.maximumCount)
        }

        mutating func accept(_ event: DecodedEvent) {
            // Not before: a lone event never comes here.
            if records.capacity == 0 { records.reserveCapacity(expected) }
            do throws(APIError) {
                let timeMs = try window.time(of: event)
                records.append(
                    ProgressService.record(
                        of: event, at: timeMs, figures: event.geometry.figuresOfValidGeometry()))
                if event.reader == nil { derivesReader = true }
            } catch {
                rejected.append((count, error))
            }
            count += 1
        }

        /// Gives `reader` to every record that names none.
        mutating func nameReaders(_ reader: String) {
            for index in records.indices where records[index].reader.isEmpty {
                records[index].reader = reader
            }
        }

        mutating func reject(_ error: APIError) {
            rejected.append((count, error))
            count += 1
        }

        mutating func restart() {
            records.removeAll(keepingCapacity: true)
            rejected.removeAll()
            derivesReader = false
            count = 0
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
        guard let format = BodyFormat(of: request), format == .json else {
            throw .unsupportedMediaType(request.header("Content-Type"))
        }
        guard
            case .single(let event) = try EventBatch.decode(
                request.body, format: .json, using: EventDecoder(requireIdentity: false))
        else {
            throw APIError(status: 400, code: "invalid_event", message: "body must be one event object")
        }
        if let timeMs = event.timeMs {
            try TimeWindow(nowMs: clock(), retentionDays: configuration.retentionDays).check(timeMs)
        }
        let figures = event.geometry.figuresOfValidGeometry()
        var writer = JSONWriter()
        writer.beginObject()
        Self.writeFigures(figures, into: &writer)
        writer.endObject()
        return .json(200, writer)
    }

    /// `event` as the store keeps it, at `timeMs`, with its `figures`.
    fileprivate static func record(of event: DecodedEvent, at timeMs: Int64, figures: ProgressFigures)
        -> EventRecord
    {
        let width = event.geometry.containerSize.width
        return EventRecord(
            article: event.article, reader: event.reader ?? "", timeMs: timeMs, progress: figures.progress,
            seenDepth: figures.seenDepth, scrollable: figures.scrollable, engagedMs: event.engagedMs,
            eventID: event.id, sections: event.sections, attention: event.attention, device: event.device,
            widthDevice: event.geometry.axis == .vertical ? DeviceClass(containerWidth: width) : nil,
            source: event.source)
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
