import ProgressCore
import ProgressStore

/// The ingest path as the `event-fuzzer` target drives it; the service itself never calls this.
///
/// It is public only because the fuzzer is another module, so the service's types stay internal
/// and the fuzzer needs no `-enable-testing` build.
public enum EventIngestProbe {
    /// Feeds `bytes` through what `POST /v1/events` and `POST /v1/progress` do with a body —
    /// `EventBatch.decode` as JSON and as NDJSON, then `figures()` for every event that decodes —
    /// and stops the process, naming the rule, when something that must hold for every body does
    /// not: every figure finite and in its range, every error a 400 or 413 with a message that
    /// survives its own JSON, one line of JSON meaning the same in both framings, and every
    /// outcome identical, to the last bit of every number and the last word of every error, to
    /// what the tree path alone (`EventBatch.decodeByTree`) makes of the body, so that
    /// `EventScanner` never answers otherwise than the tree path would.
    public static func check(_ bytes: [UInt8]) {
        let json = decode(bytes, .json, EventDecoder())
        let ndjson = decode(bytes, .ndjson, EventDecoder())
        let progress = decode(bytes, .json, EventDecoder(requireIdentity: false))

        // With no line feed the NDJSON body is one line holding the very bytes the JSON body is.
        // A body that is not an object answers differently as a whole than as a line, unless it
        // is not JSON at all.
        if !bytes.contains(0x0A), case .success(.many(let lines)) = ndjson {
            require(lines.count == 1, "a body without a line feed is one NDJSON line")
            let isObject = bytes.first(where: { !isJSONSpace($0) }) == UInt8(ascii: "{")
            switch json {
            case .success(.single(let event)):
                require(same(lines[0], .success(event)), "one line decodes as the same object does")
            case .failure(let error) where isObject || error.code == "invalid_json":
                require(same(lines[0], .failure(error)), "one line fails as the same body does")
            default: break
            }
        }
        // `/v1/progress` only relaxes article and reader, so whatever ingest takes it takes too.
        if case .success(.single(let event)) = json {
            guard case .success(.single(let relaxed)) = progress else {
                fail("/v1/progress rejects an event that /v1/events takes")
            }
            require(relaxed.geometry == event.geometry, "/v1/progress reads the same geometry")
        }
    }

    private static func decode(_ body: [UInt8], _ format: BodyFormat, _ decoder: EventDecoder) -> Result<
        EventBatch, APIError
    > {
        let result = Result { () throws(APIError) in
            try EventBatch.decode(body, format: format, using: decoder)
        }
        let reference = Result { () throws(APIError) in
            try EventBatch.decodeByTree(body, format: format, using: decoder)
        }
        require(
            isIdentical(result, reference),
            "\(format) with requireIdentity \(decoder.requireIdentity) decodes as \(result), "
                + "the tree path alone as \(reference)")
        switch result {
        case .success(.single(let event)):
            check(event, requireIdentity: decoder.requireIdentity)
        case .success(.many(let entries)):
            require((1...EventBatch.maximumCount).contains(entries.count), "a batch holds 1…1000 events")
            // A batch often repeats one error a thousand times; writing and parsing each copy would
            // spend most of the fuzzer's time on the probe rather than on the decoder.
            var messages: Set<String> = []
            for entry in entries {
                switch entry {
                case .success(let event): check(event, requireIdentity: decoder.requireIdentity)
                case .failure(let error):
                    require(error.status == 400, "status \(error.status) for one event of a batch")
                    if messages.insert(error.message).inserted { check(error, statuses: [400]) }
                }
            }
        case .failure(let error):
            check(error, statuses: [400, 413])
            require((error.status == 413) == (error.code == "batch_too_large"), "413 only for a large batch")
        }
        return result
    }

    private static func check(_ event: DecodedEvent, requireIdentity: Bool) {
        let minimumBytes = requireIdentity ? 1 : 0
        checkText(event.article, bytes: minimumBytes...EventDecoder.articleMaxBytes, "article")
        if let reader = event.reader {
            require(requireIdentity, "/v1/progress keeps no reader")
            checkText(reader, bytes: 1...EventDecoder.readerMaxBytes, "reader")
        }
        if let id = event.id { checkText(id, bytes: 1...EventDecoder.idMaxBytes, "id") }
        require((0...EventDecoder.engagedMsMax).contains(event.engagedMs), "engagedMs within 0…86 400 000")
        if let timeMs = event.timeMs { checkTime(timeMs) }
        checkParts(of: event)

        let figures: ProgressFigures
        do {
            figures = try event.geometry.figures()
        } catch {
            // The ingest routes rely on this: they compute figures without validating again.
            fail("a decoded event has no figures: \(error.message)")
        }
        check(figures, of: event.geometry)
    }

    /// Sections, attention and source as docs/api.md bounds them.
    private static func checkParts(of event: DecodedEvent) {
        if let sections = event.sections {
            require(sections.count <= Section.maximumCount, "at most 64 sections")
            for (index, section) in sections.enumerated() {
                checkText(section.title, bytes: 1...Section.maximumTitleBytes, "sections[\(index)].title")
                require(section.start >= 0 && section.start < 1, "a section starts within [0, 1)")
                require(index == 0 || section.start > sections[index - 1].start, "section starts increase")
                require(
                    section.words.map { (0...Section.maximumWords).contains($0) } ?? true, "words in range")
            }
        }
        if let attention = event.attention {
            require(attention.count == AttentionBands.count, "attention has 20 bands")
            require(attention.allSatisfy { Int64($0) <= event.engagedMs }, "attention within engagedMs")
        }
        if let source = event.source {
            require(!source.isEmpty && !source.unicodeScalars.contains(where: isControl), "a plain source")
            require(ReaderSource.normalised(source) == source, "a source is kept normalised")
        }
    }

    private static func check(_ figures: ProgressFigures, of geometry: ScrollSnapshot) {
        checkUnit(figures.progress, "progress")
        checkUnit(figures.seenDepth, "seenDepth")
        if !figures.scrollable {
            require(figures.progress == 0 && figures.seenDepth == 1, "unscrollable: progress 0, seenDepth 1")
        }
        let whole = Int((figures.progress * 100).rounded(.toNearestOrEven))
        require(
            figures.percent == "\(whole)%", "percent \(figures.percent) is progress × 100 rounded, then %")

        require(
            (figures.indicatorOffset != nil) == (geometry.axis == .horizontal), "indicator on horizontal only"
        )
        if let offset = figures.indicatorOffset {
            let indicator = geometry.indicator ?? .standard
            let travel = indicator.trackLength - indicator.thumbLength
            require(
                isPlain(offset) && offset >= 0 && offset <= travel, "indicatorOffset \(offset) off its track")
        }

        require((figures.step != nil) == (geometry.step != nil), "step figures exactly when a step is sent")
        if let step = figures.step, let sent = geometry.step {
            checkUnit(step.progress, "step.progress")
            checkUnit(step.barOpacity, "step.barOpacity")
            require(step.visible == (sent.index > 0), "step.visible is index > 0")
            require(
                isPlain(step.barOffset) && step.barOffset <= 0, "step.barOffset \(step.barOffset) not ≤ 0")
        }

        // What the routes write must read back as the same numbers.
        var numbers = [figures.progress, figures.seenDepth]
        if let offset = figures.indicatorOffset { numbers.append(offset) }
        if let step = figures.step { numbers += [step.progress, step.barOffset, step.barOpacity] }
        var writer = JSONWriter()
        writer.beginArray()
        for number in numbers { writer.number(number) }
        writer.endArray()
        guard case .array(let written)? = try? JSONParser.parse(writer.bytes) else {
            fail("figures written as JSON do not parse")
        }
        let readBack = written.compactMap { value -> Double? in
            if case .number(let number, _) = value { return number } else { return nil }
        }
        require(readBack == numbers, "figures \(numbers) read back from JSON as \(readBack)")
    }

    private static func check(_ error: APIError, statuses: Set<Int>) {
        require(statuses.contains(error.status), "status \(error.status) for \(error.code)")
        require(!error.code.isEmpty && !error.message.isEmpty, "an error has a code and a message")
        require(error.field.map { !$0.isEmpty } ?? true, "a blamed field has a name")
        // Messages quote the body (a duplicate key, an unknown escape), so the writer must escape them.
        guard let body = try? JSONParser.parse(error.body), case .object(let detail)? = body["error"] else {
            fail("the error body is not JSON: \(String(decoding: error.body, as: UTF8.self))")
        }
        let object = JSONValue.object(detail)
        require(object["code"] == .string(error.code), "the error body keeps its code")
        require(object["message"] == .string(error.message), "the error body keeps its message")
    }

    private static func checkText(_ text: String, bytes: ClosedRange<Int>, _ field: String) {
        require(bytes.contains(text.utf8.count), "\(field) is \(text.utf8.count) bytes")
        require(!text.unicodeScalars.contains(where: isControl), "\(field) holds a control character")
    }

    /// A time that the stats route can print must read back as the same millisecond.
    private static func checkTime(_ ms: Int64) {
        let yearOne = Int64(EventTime.daysFromCivil(1, 1, 1)) * 86_400_000
        let year10000 = Int64(EventTime.daysFromCivil(10_000, 1, 1)) * 86_400_000
        guard ms >= yearOne, ms < year10000 else { return }
        let text = EventTime.format(ms)
        require(
            EventTime.parseRFC3339(text) == ms, "time \(ms) prints as \(text), which reads back otherwise")
    }

    private static func checkUnit(_ value: Double, _ name: String) {
        require(isPlain(value) && (0...1).contains(value), "\(name) \(value) is not within 0…1")
    }

    /// Finite and not `-0`, which JSON clients would print as "-0".
    private static func isPlain(_ value: Double) -> Bool {
        value.isFinite && !(value == 0 && value.sign == .minus)
    }

    private static func same(_ a: Result<DecodedEvent, APIError>, _ b: Result<DecodedEvent, APIError>) -> Bool
    {
        switch (a, b) {
        case (.success(let x), .success(let y)):
            return x.article == y.article && x.reader == y.reader && x.geometry == y.geometry
                && x.engagedMs == y.engagedMs && x.timeMs == y.timeMs && x.id == y.id
                && x.sections == y.sections && x.attention == y.attention && x.device == y.device
                && x.source == y.source
        case (.failure(let x), .failure(let y)): return x == y
        default: return false
        }
    }

    private static func require(_ condition: Bool, _ rule: @autoclosure () -> String) {
        if !condition { fail(rule()) }
    }

    private static func fail(_ rule: String) -> Never {
        fatalError("EventIngestProbe: \(rule)")
    }
}
