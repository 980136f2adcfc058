import ProgressCore
import ProgressStore

extension EventBatch {
    /// `decode` without `EventScanner`: every body through `JSONParser` and
    /// `EventDecoder`, NDJSON split with the standard library. The service never calls it; the
    /// differential tests and `EventIngestProbe` hold `decode` to it, so that the scanner and the
    /// line splitter may make decoding faster but never different.
    static func decodeByTree(_ body: [UInt8], format: BodyFormat, using decoder: EventDecoder)
        throws(APIError) -> EventBatch
    {
        guard body.contains(where: { !isJSONSpace($0) }) else {
            throw APIError(status: 400, code: "invalid_json", message: "body is empty")
        }
        switch format {
        case .json:
            var entries = Entries()
            if let event = try decodeTree(body, using: decoder, into: &entries) { return .single(event) }
            return .many(entries.results)
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

/// Whether two outcomes of decoding a body are the same to the last bit: events field by field,
/// strings byte by byte, numbers by their bit patterns (`==` takes -0 for 0), errors whole.
func isIdentical(_ a: Result<EventBatch, APIError>, _ b: Result<EventBatch, APIError>) -> Bool {
    switch (a, b) {
    case (.success(.single(let x)), .success(.single(let y))):
        return x.isIdentical(to: y)
    case (.success(.many(let xs)), .success(.many(let ys))):
        return xs.count == ys.count && zip(xs, ys).allSatisfy { isIdentical($0, $1) }
    case (.failure(let x), .failure(let y)):
        return x == y
    default:
        return false
    }
}

/// The same for one entry of a batch.
func isIdentical(_ a: Result<DecodedEvent, APIError>, _ b: Result<DecodedEvent, APIError>) -> Bool {
    switch (a, b) {
    case (.success(let x), .success(let y)): return x.isIdentical(to: y)
    case (.failure(let x), .failure(let y)): return x == y
    default: return false
    }
}

extension DecodedEvent {
    func isIdentical(to other: DecodedEvent) -> Bool {
        article.utf8.elementsEqual(other.article.utf8)
            && reader.map { Array($0.utf8) } == other.reader.map { Array($0.utf8) }
            && geometry.axis == other.geometry.axis && geometry.step == other.geometry.step
            && geometry.numberBits == other.geometry.numberBits && engagedMs == other.engagedMs
            && timeMs == other.timeMs && id.map { Array($0.utf8) } == other.id.map { Array($0.utf8) }
            && attention == other.attention && device == other.device
            && source.map { Array($0.utf8) } == other.source.map { Array($0.utf8) }
            && sections.map { $0.map(\.bits) } == other.sections.map { $0.map(\.bits) }
    }
}

extension Section {
    /// The title's bytes, the start's bits and the words, for comparing to the last bit.
    fileprivate var bits: [UInt64] {
        title.utf8.map { UInt64($0) } + [start.bitPattern, words.map { UInt64($0) } ?? .max]
    }
}

extension ScrollSnapshot {
    /// Every number, always in the same order, as its bits; `nil` for a part not sent.
    fileprivate var numberBits: [UInt64?] {
        let required = [
            contentOffset.x, contentOffset.y, contentSize.width, contentSize.height, containerSize.width,
            containerSize.height, contentInsets.top, contentInsets.leading, contentInsets.bottom,
            contentInsets.trailing,
        ]
        let optional = [region?.start, region?.end, indicator?.trackLength, indicator?.thumbLength]
        return required.map { $0.bitPattern } + optional.map { $0?.bitPattern }
    }
}
