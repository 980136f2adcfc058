import HTTPServer

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How an ingest body is framed, from its `Content-Type`.
enum BodyFormat: Sendable, Equatable {
    /// One event object or an array of them (`application/json`, `text/plain` from sendBeacon).
    case json
    /// One event object per line (`application/x-ndjson`).
    case ndjson

    /// The format `request`'s `Content-Type` names; `nil` for none, or one the ingest routes do
    /// not take (415). What clients send almost always is recognised on the field's bytes.
    init?(of request: HTTPRequest) {
        // 1: JSON, 2: NDJSON, 0: anything else, to be taken apart as a String.
        let common = request.withHeader("Content-Type") { bytes -> Int in
            switch bytes.count {
            case 16: Self.equal(bytes, "application/json") ? 1 : 0
            case 20: Self.equal(bytes, "application/x-ndjson") ? 2 : 0
            case 24: Self.equal(bytes, "text/plain;charset=UTF-8") ? 1 : 0
            case 31: Self.equal(bytes, "application/json; charset=utf-8") ? 1 : 0
            default: 0
            }
        }
        switch common {
        case 1: self = .json
        case 2: self = .ndjson
        case 0: self.init(contentType: request.header("Content-Type"))
        default: return nil
        }
    }

    /// Whether `bytes` are `literal`'s, whose length the caller has checked.
    private static func equal(_ bytes: UnsafeRawBufferPointer, _ literal: StaticString) -> Bool {
        memcmp(bytes.baseAddress!, literal.utf8Start, bytes.count) == 0
    }

    /// `nil` for a media type the ingest routes do not take (415).
    init?(contentType: String?) {
        guard let contentType else { return nil }
        // What clients send almost always, recognised without taking the string apart.
        switch contentType {
        case "application/json", "application/json; charset=utf-8", "text/plain;charset=UTF-8":
            self = .json
            return
        case "application/x-ndjson":
            self = .ndjson
            return
        default:
            break
        }
        let parts = contentType.split(separator: ";", omittingEmptySubsequences: false)
        let type = parts[0].trimmingSpaces.lowercased()
        for parameter in parts.dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            guard pair.count == 2 else { continue }
            if pair[0].trimmingSpaces.lowercased() == "charset" {
                let charset = String(pair[1].trimmingSpaces.lowercased().filter { $0 != "\"" })
                guard charset == "utf-8" || charset == "utf8" else { return nil }
            }
        }
        switch type {
        case "application/json", "text/plain": self = .json
        case "application/x-ndjson", "application/jsonl", "application/jsonlines": self = .ndjson
        default: return nil
        }
    }
}

/// Where the entries of a batch go as they are decoded, one at a time, so that no array of
/// decoded events stands between a bulk body and the store.
protocol EventBatchSink {
    /// The next entry of the batch, decoded.
    mutating func accept(_ event: DecodedEvent)
    /// The next entry of the batch, refused.
    mutating func reject(_ error: APIError)
    /// Forget every entry given so far: the scanner gave up on a JSON body, perhaps partway
    /// through an array, and the tree path starts again from the first entry.
    mutating func restart()
}

/// The events of one ingest body: a lone object, or a batch whose entries succeed or fail alone.
enum EventBatch {
    static let maximumCount = 1000

    case single(DecodedEvent)
    case many([Result<DecodedEvent, APIError>])

    /// Splits and decodes a body. Throws for what rejects the whole request: an empty body,
    /// broken JSON around a batch, a batch over 1000 events or with no events at all.
    static func decode(_ body: [UInt8], format: BodyFormat, using decoder: EventDecoder) throws(APIError)
        -> EventBatch
    {
        var entries = Entries()
        if let event = try decode(body, format: format, using: decoder, into: &entries) {
            return .single(event)
        }
        return .many(entries.results)
    }

    /// `decode`, handing a batch's entries to `sink` as they come: the lone event of a body that
    /// is one JSON object, or `nil` once every entry of a batch is in `sink`. When it throws, what
    /// `sink` holds means nothing.
    ///
    /// Plain events are read straight from the bytes by `EventScanner`; a JSON body it does not
    /// take whole, and an NDJSON line it does not take, go through `JSONParser` and
    /// `EventDecoder`, which decide and word every error exactly as `decodeByTree` does.
    static func decode<Sink: EventBatchSink>(
        _ body: [UInt8], format: BodyFormat, using decoder: EventDecoder, into sink: inout Sink
    ) throws(APIError) -> DecodedEvent? {
        guard body.contains(where: { !isJSONSpace($0) }) else {
            throw APIError(status: 400, code: "invalid_json", message: "body is empty")
        }
        switch format {
        case .json:
            let scanned = body.withUnsafeBufferPointer { bytes in
                EventScanner.batch(in: bytes, requireIdentity: decoder.requireIdentity, into: &sink)
            }
            switch scanned {
            case .single(let event): return event
            case .many: return nil
            case .unusual:
                sink.restart()
                return try decodeTree(body, using: decoder, into: &sink)
            }
        case .ndjson:
            try body.withUnsafeBufferPointer { (bytes) throws(APIError) in
                try decodeLines(bytes, using: decoder, into: &sink)
            }
            return nil
        }
    }

    /// A JSON body through the tree: a lone object, or an array whose entries succeed or fail alone.
    static func decodeTree<Sink: EventBatchSink>(
        _ body: [UInt8], using decoder: EventDecoder, into sink: inout Sink
    ) throws(APIError) -> DecodedEvent? {
        let value: JSONValue
        do throws(JSONSyntaxError) {
            value = try JSONParser.parse(body)
        } catch {
            throw .invalidJSON(error)
        }
        switch value {
        case .object: return try decoder.decode(value)
        case .array(let elements):
            guard !elements.isEmpty else {
                throw APIError(status: 400, code: "invalid_event", message: "the batch is empty")
            }
            guard elements.count <= maximumCount else { throw .batchTooLarge(count: elements.count) }
            for element in elements {
                do throws(APIError) {
                    sink.accept(try decoder.decode(element))
                } catch {
                    sink.reject(error)
                }
            }
            return nil
        default:
            throw APIError(
                status: 400, code: "invalid_event",
                message: "body must be an event object or an array of them, not \(value.typeName)")
        }
    }

    /// The lines between line feeds that hold more than white space, each an event or its error.
    private static func decodeLines<Sink: EventBatchSink>(
        _ body: UnsafeBufferPointer<UInt8>, using decoder: EventDecoder, into sink: inout Sink
    ) throws(APIError) {
        var count = 0
        var start = 0
        var articleNames = ArticleNames(bodyBytes: body.count)
        withUnsafeMutablePointer(to: &articleNames) { articleNames in
            while start <= body.count {
                let end = lineEnd(in: body, from: start)
                let line = UnsafeBufferPointer(rebasing: body[start..<end])
                if line.contains(where: { !isJSONSpace($0) }) {
                    count += 1
                    // Past the limit only the count matters, for the 413's message.
                    if count <= maximumCount {
                        decodeLine(line, using: decoder, into: &sink, articleNames: articleNames)
                    }
                }
                start = end + 1
            }
        }
        guard count <= maximumCount else { throw .batchTooLarge(count: count) }
    }

    /// The offset of the first line feed at or after `start`, or the end of the body: memchr,
    /// which looks at 16 or 32 bytes a step, since a bulk body is mostly line.
    private static func lineEnd(in body: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        guard start < body.count, let base = body.baseAddress,
            let found = memchr(base + start, 0x0A, body.count - start)
        else { return body.count }
        return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }

    private static func decodeLine<Sink: EventBatchSink>(
        _ line: UnsafeBufferPointer<UInt8>, using decoder: EventDecoder, into sink: inout Sink,
        articleNames: UnsafeMutablePointer<ArticleNames>
    ) {
        if EventScanner.event(
            in: line, requireIdentity: decoder.requireIdentity, into: &sink, articleNames: articleNames)
        {
            return
        }
        do throws(APIError) {
            let value: JSONValue
            do throws(JSONSyntaxError) {
                value = try JSONParser.parse(line)
            } catch {
                throw .invalidJSON(error)
            }
            sink.accept(try decoder.decode(value))
        } catch {
            sink.reject(error)
        }
    }

    /// A sink that keeps every entry, for `decode`'s batches.
    struct Entries: EventBatchSink {
        var results: [Result<DecodedEvent, APIError>] = []

        mutating func accept(_ event: DecodedEvent) { results.append(.success(event)) }
        mutating func reject(_ error: APIError) { results.append(.failure(error)) }
        mutating func restart() { results.removeAll(keepingCapacity: true) }
    }
}

func isJSONSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
}

extension Substring {
    var trimmingSpaces: Substring {
        var result = self
        while let first = result.first, first == " " || first == "\t" { result = result.dropFirst() }
        while let last = result.last, last == " " || last == "\t" { result = result.dropLast() }
        return result
    }
}
