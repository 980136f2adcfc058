/// One validated event, reduced to what the statistics of SPEC §5 keep.
///
/// The service computes the figures (with ProgressCore) before it hands an event to a store,
/// so a store never sees geometry, only the numbers it aggregates.
public struct EventRecord: Sendable, Equatable {
    /// Article id, arbitrary UTF-8 (1–256 bytes).
    public var article: String
    /// Opaque reader id (1–128 bytes).
    public var reader: String
    /// Event time in milliseconds since the Unix epoch (UTC); its UTC day is the day it counts on.
    public var timeMs: Int64
    /// `progress` of SPEC §3, 0…1.
    public var progress: Double
    /// `seenDepth` of SPEC §3, 0…1.
    public var seenDepth: Double
    /// Whether the scroll view could scroll at all (`S > 0`).
    public var scrollable: Bool
    /// Engaged time since this reader's previous event on this article, 0…86 400 000.
    public var engagedMs: Int64
    /// Client event id (1–64 bytes): a repeat within 24 hours is acknowledged and not counted.
    public var eventID: String?

    public init(
        article: String, reader: String, timeMs: Int64, progress: Double, seenDepth: Double,
        scrollable: Bool, engagedMs: Int64, eventID: String? = nil
    ) {
        self.article = article
        self.reader = reader
        self.timeMs = timeMs
        self.progress = progress
        self.seenDepth = seenDepth
        self.scrollable = scrollable
        self.engagedMs = engagedMs
        self.eventID = eventID
    }

    /// What makes a repeat a repeat: the client's id within its article and reader, so that two
    /// readers whose apps both number events from 1 do not cancel each other out. Lengths are
    /// spelled out so that no two (article, reader, id) triples share a key:
    /// `<bytes>:<article><bytes>:<reader><id>`. Saved ids and journal replays depend on it.
    public var deduplicationKey: String? {
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

    /// Days since 1970-01-01 (UTC) of `timeMs`.
    public var day: Int32 { Int32(timeMs.floorDivided(by: 86_400_000)) }
}

extension Int64 {
    /// Division rounding toward negative infinity, so that times before 1970 land on the right day.
    package func floorDivided(by divisor: Int64) -> Int64 {
        let (q, r) = quotientAndRemainder(dividingBy: divisor)
        return r < 0 ? q - 1 : q
    }
}
