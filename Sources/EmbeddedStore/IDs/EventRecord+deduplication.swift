import ProgressStore

extension EventRecord {
    /// What makes a repeat a repeat: the client's id within its article and reader, so that two
    /// readers whose apps both number events from 1 do not cancel each other out. Lengths are
    /// spelled out so that no two (article, reader, id) triples share a key:
    /// `<bytes>:<article><bytes>:<reader><id>`. Saved ids and journal replays depend on it.
    var deduplicationKey: String? {
        withDeduplicationKey { String(decoding: $0, as: UTF8.self) }
    }

    /// `body` applied to the bytes of ``deduplicationKey``, made in a temporary buffer (on the
    /// stack unless it is large) rather than as a `String`; `nil` when the event has no id.
    func withDeduplicationKey<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result? {
        guard let id = eventID else { return nil }
        return withUTF8(of: article) { article in
            withUTF8(of: reader) { reader in
                withUTF8(of: id) { id in
                    // Each count takes at most 20 digits and a colon.
                    let capacity = article.count + reader.count + id.count + 2 * 21
                    return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
                        var end = 0
                        func append(_ bytes: UnsafeBufferPointer<UInt8>) {
                            guard let base = bytes.baseAddress else { return }
                            (buffer.baseAddress! + end).initialize(from: base, count: bytes.count)
                            end += bytes.count
                        }
                        func appendCount(_ count: Int) {
                            var digits = 1
                            var rest = count
                            while rest >= 10 {
                                rest /= 10
                                digits += 1
                            }
                            var value = count
                            for position in stride(from: end + digits - 1, through: end, by: -1) {
                                buffer[position] = UInt8(ascii: "0") + UInt8(value % 10)
                                value /= 10
                            }
                            end += digits
                            buffer[end] = UInt8(ascii: ":")
                            end += 1
                        }
                        appendCount(article.count)
                        append(article)
                        appendCount(reader.count)
                        append(reader)
                        append(id)
                        return body(UnsafeBufferPointer(rebasing: buffer[..<end]))
                    }
                }
            }
        }
    }
}
