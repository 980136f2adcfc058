import ProgressCore

/// One heading of an article: where its section starts in the body and how many words it has
/// (docs/api.md, "Sections and attention"). A section ends where the next starts; the last at 1.
public struct ArticleSection: Codable, Sendable, Hashable {
    /// The heading's text.
    public var title: String
    /// Where the heading lies, as a share of the body along the axis (the snapshot's `region`,
    /// else the content): `0 ≤ start < 1`, the same coordinate as `seenDepth`.
    public var start: Double
    /// The words of the section, up to the next heading; nil when not counted.
    public var words: Int?

    /// Creates a section.
    public init(title: String, start: Double, words: Int? = nil) {
        self.title = title
        self.start = start
        self.words = words
    }

    /// The most sections a map may have.
    public static let maximumCount = EventPartLimits.sections
    /// The longest title, in UTF-8 bytes.
    public static let maximumTitleBytes = EventPartLimits.titleBytes
    /// The most words a section may count.
    public static let maximumWords = EventPartLimits.words

    /// Turns what the app gives into a map the service takes, by one rule: repair what can be
    /// repaired without guessing, drop what cannot. Control characters and runs of white space
    /// in a title become one space, the title is trimmed and cut to 200 bytes on a character
    /// boundary; a section whose title is then empty, whose `start` is not finite or outside
    /// `0 ≤ start < 1`, or whose `start` is not after the previous kept section's, is dropped;
    /// `words` is clamped to `0…1,000,000`; past 64 sections the rest are dropped.
    public static func map(of sections: [ArticleSection]) -> [ArticleSection] {
        var kept: [ArticleSection] = []
        for section in sections where kept.count < maximumCount {
            let title = cleaned(section.title, toBytes: maximumTitleBytes)
            guard !title.isEmpty, section.start.isFinite, section.start >= 0, section.start < 1,
                section.start > kept.last?.start ?? -1
            else { continue }
            let words = section.words.map { min(max($0, 0), maximumWords) }
            kept.append(ArticleSection(title: title, start: section.start, words: words))
        }
        return kept
    }

    /// `text` with control characters and white space collapsed to single spaces, trimmed, and
    /// cut to `limit` UTF-8 bytes on a character boundary.
    static func cleaned(_ text: String, toBytes limit: Int) -> String {
        var words: [Substring] = []
        var current = Substring()
        for character in text {
            if character.unicodeScalars.contains(where: { $0.properties.isWhitespace || isControl($0) }) {
                if !current.isEmpty { words.append(current) }
                current = Substring()
            } else {
                current.append(character)
            }
        }
        if !current.isEmpty { words.append(current) }
        return cut(words.joined(separator: " "), toBytes: limit)
    }

    /// The longest prefix of `text` of whole characters within `limit` UTF-8 bytes.
    private static func cut(_ text: String, toBytes limit: Int) -> String {
        var bytes = 0
        var end = text.startIndex
        for index in text.indices {
            let size = text[index].utf8.count
            guard bytes + size <= limit else { break }
            bytes += size
            end = text.index(after: index)
        }
        return String(text[..<end])
    }

    /// C0 and C1 controls and DEL, which the service refuses in titles and sources.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
