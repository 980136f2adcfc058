import ProgressCore

/// One heading of an article as a client reports it (docs/api.md, "Sections and attention"):
/// where it lies in the article body, as a share of the body (the coordinate of `seenDepth`),
/// and how many words its section has.
public struct Section: Sendable, Equatable {
    /// At most ``maximumTitleBytes`` bytes of UTF-8, without control characters.
    public var title: String
    /// `0 ≤ start < 1`; the starts of one map strictly increase.
    public var start: Double
    /// `0…1 000 000`, or `nil` when the client did not count them.
    public var words: Int32?

    public static let maximumTitleBytes = EventPartLimits.titleBytes
    public static let maximumWords = Int32(EventPartLimits.words)
    /// At most this many sections in one map.
    public static let maximumCount = EventPartLimits.sections

    public init(title: String, start: Double, words: Int32? = nil) {
        self.title = title
        self.start = start
        self.words = words
    }
}

/// The engaged milliseconds each twentieth of the article body was in view since the reader's
/// previous event on the article (docs/api.md, "Sections and attention"). Several bands accrue
/// the same milliseconds; none more than the event's `engagedMs`.
public enum AttentionBands {
    /// The body is cut into this many bands of equal length.
    public static let count = 20
}

/// Where readers come from (docs/api.md, "Segments"): a campaign name or another site's host.
public enum ReaderSource {
    /// At most this many bytes as sent.
    public static let maximumBytes = EventPartLimits.sourceBytes
    /// The source of readers whose events named none.
    public static let direct = "(direct)"
    /// The source that readers from sources past a store's bound count under.
    public static let other = "(other)"

    /// `source` as the statistics keep it: lower-cased, never a URL — a scheme (`https://`) is
    /// dropped and everything from the first `/`, `?` or `#` on, so that only a host or a
    /// campaign name is left — and with a leading `www.` removed when something follows it, so
    /// that `https://WWW.Example.com/a?b` and `example.com` are one source. A source of which
    /// nothing is left is ``direct``.
    public static func normalised(_ source: String) -> String {
        // What clients send nearly always: already lower-case ASCII, no `www.`, no URL.
        let plain = !source.utf8.contains {
            (0x41...0x5A).contains($0) || $0 >= 0x80 || $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?")
                || $0 == UInt8(ascii: "#")
        }
        if plain, !source.hasPrefix("www."), !source.isEmpty { return source }
        var kept = Substring(source.lowercased())
        if let colon = kept.firstIndex(of: ":"), kept[colon...].hasPrefix("://") {
            kept = kept[kept.index(colon, offsetBy: 3)...]
        }
        if let cut = kept.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) {
            kept = kept[..<cut]
        }
        if kept.hasPrefix("www."), kept.utf8.count > 4 { kept = kept.dropFirst(4) }
        return kept.isEmpty ? direct : String(kept)
    }
}
