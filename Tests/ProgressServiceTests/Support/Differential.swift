@testable import ProgressService

/// One body decoded both ways — `EventBatch.decode`, which tries `EventScanner` first, and
/// `EventBatch.decodeByTree`, the JSON tree alone — in the four ways the routes decode bodies:
/// JSON and NDJSON, with and without identity (`/v1/events`, `/v1/progress`).
struct Differential {
    /// Descriptions of the decodings whose outcomes differ in any field, bit or error.
    var mismatches: [String] = []
    /// Whether the scanner read the JSON body whole, with identity required.
    var scannedJSON = false
    /// How many NDJSON lines with more than white space the scanner read, with identity.
    var scannedLines = 0
    /// How many NDJSON lines hold more than white space.
    var lines = 0

    init(_ text: String) {
        self.init(Array(text.utf8))
    }

    init(_ body: [UInt8]) {
        for format in [BodyFormat.json, .ndjson] {
            for requireIdentity in [true, false] {
                let decoder = EventDecoder(requireIdentity: requireIdentity)
                let decoded = Result { () throws(APIError) in
                    try EventBatch.decode(body, format: format, using: decoder)
                }
                let reference = Result { () throws(APIError) in
                    try EventBatch.decodeByTree(body, format: format, using: decoder)
                }
                if !isIdentical(decoded, reference) {
                    mismatches.append(
                        "\(format) requireIdentity: \(requireIdentity) \(String(decoding: body, as: UTF8.self).debugDescription)\n"
                            + "  decode:     \(decoded)\n  decodeByTree: \(reference)")
                }
            }
        }
        var entries = EventBatch.Entries()
        scannedJSON = body.withUnsafeBufferPointer {
            if case .unusual = EventScanner.batch(in: $0, requireIdentity: true, into: &entries) {
                return false
            }
            return true
        }
        for line in body.split(separator: 0x0A, omittingEmptySubsequences: false)
        where line.contains(where: { !isJSONSpace($0) }) {
            lines += 1
            let scanned = Array(line).withUnsafeBufferPointer {
                EventScanner.event(in: $0, requireIdentity: true) != nil
            }
            if scanned { scannedLines += 1 }
        }
    }

    /// The event that both paths decoded from a JSON body, when they did.
    static func event(_ text: String, requireIdentity: Bool = true) -> DecodedEvent? {
        guard
            case .single(let event)? = try? EventBatch.decode(
                Array(text.utf8), format: .json, using: EventDecoder(requireIdentity: requireIdentity))
        else { return nil }
        return event
    }
}
