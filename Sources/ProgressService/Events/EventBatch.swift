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
    static func decode(_ body: [UInt8], format: BodyFormat, using decoder: EventDecoder) throws(APIError)
        -> EventBatch
    {
        guard body.contains(where: { !isJSONSpace($0) }) else {
            throw APIError(status: 400, code: "invalid_json", message: "body is empty")
        }
        switch format {
        case .json:
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
        case .ndjson:
            let lines = body.split(separator: 0x0A, omittingEmptySubsequences: false).filter {
                $0.contains(where: { !isJSONSpace($0) })
            }
            guard lines.count <= maximumCount else { throw .batchTooLarge(count: lines.count) }
            return .many(
                lines.map { line in
                    Result { () throws(APIError) in
                        let value: JSONValue
                        do throws(JSONSyntaxError) {
                            value = try JSONParser.parse(Array(line))
                        } catch {
                            throw .invalidJSON(error)
                        }
                        return try decoder.decode(value)
                    }
                })
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
