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

/// The events of one ingest body: a lone object, or a batch whose entries succeed or fail alone.
enum EventBatch {
    static let maximumCount = 1000

    case single(DecodedEvent)
    case many([Result<DecodedEvent, APIError>])

    /// Splits and decodes a body. Throws for what rejects the whole request: an empty body,
    /// broken JSON around a batch, a batch over 1000 events or with no events at all.
    ///
    /// Plain events are read straight from the bytes by `EventScanner`; a JSON body it does not
    /// take whole, and an NDJSON line it does not take, go through `JSONParser` and
    /// `EventDecoder`, which decide and word every error exactly as `decodeByTree` does.
    static func decode(_ body: [UInt8], format: BodyFormat, using decoder: EventDecoder) throws(APIError)
        -> EventBatch
    {
        guard body.contains(where: { !isJSONSpace($0) }) else {
            throw APIError(status: 400, code: "invalid_json", message: "body is empty")
        }
        switch format {
        case .json:
            let scanned = body.withUnsafeBufferPointer { bytes in
                EventScanner.batch(in: bytes, requireIdentity: decoder.requireIdentity)
            }
            if let scanned { return scanned }
            return try decodeTree(body, using: decoder)
        case .ndjson:
            return try body.withUnsafeBufferPointer { (bytes) throws(APIError) in
                try decodeLines(bytes, using: decoder)
            }
        }
    }

    /// A JSON body through the tree: a lone object, or an array whose entries succeed or fail alone.
    static func decodeTree(_ body: [UInt8], using decoder: EventDecoder) throws(APIError) -> EventBatch {
        let value: JSONValue
        do throws(JSONSyntaxError) {
            value = try JSONParser.parse(body)
        } catch {
            throw .invalidJSON(error)
        }
        switch value {
        case .object: return .single(try decoder.decode(value))
        case .array(let elements):
            guard !elements.isEmpty else {
                throw APIError(status: 400, code: "invalid_event", message: "the batch is empty")
            }
            guard elements.count <= maximumCount else { throw .batchTooLarge(count: elements.count) }
            return .many(
                elements.map { element in Result { () throws(APIError) in try decoder.decode(element) } })
        default:
            throw APIError(
                status: 400, code: "invalid_event",
                message: "body must be an event object or an array of them, not \(value.typeName)")
        }
    }

    /// The lines between line feeds that hold more than white space, each an event or its error.
    private static func decodeLines(_ body: UnsafeBufferPointer<UInt8>, using decoder: EventDecoder)
        throws(APIError) -> EventBatch
    {
        var entries: [Result<DecodedEvent, APIError>] = []
        // As the JSON array's scanner does: an event line is over 128 bytes, so this seldom grows.
        entries.reserveCapacity(min(body.count / 128 + 1, maximumCount))
        var count = 0
        var start = 0
        while start <= body.count {
            let end = lineEnd(in: body, from: start)
            let line = UnsafeBufferPointer(rebasing: body[start..<end])
            if line.contains(where: { !isJSONSpace($0) }) {
                count += 1
                // Past the limit only the count matters, for the 413's message.
                if count <= maximumCount { entries.append(decodeLine(line, using: decoder)) }
            }
            start = end + 1
        }
        guard count <= maximumCount else { throw .batchTooLarge(count: count) }
        return .many(entries)
    }

    /// The offset of the first line feed at or after `start`, or the end of the body: memchr,
    /// which looks at 16 or 32 bytes a step, since a bulk body is mostly line.
    private static func lineEnd(in body: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        guard start < body.count, let base = body.baseAddress,
            let found = memchr(base + start, 0x0A, body.count - start)
        else { return body.count }
        return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }

    private static func decodeLine(_ line: UnsafeBufferPointer<UInt8>, using decoder: EventDecoder) -> Result<
        DecodedEvent, APIError
    > {
        if let event = EventScanner.event(in: line, requireIdentity: decoder.requireIdentity) {
            return .success(event)
        }
        return Result { () throws(APIError) in
            let value: JSONValue
            do throws(JSONSyntaxError) {
                value = try JSONParser.parse(line)
            } catch {
                throw .invalidJSON(error)
            }
            return try decoder.decode(value)
        }
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
