public import ProgressCore

/// A heading as a view lays it out: its title, where it lies in the scroll content along the
/// axis (points from the content's start) and its section's words; ``ArticleSection/map(of:body:)``
/// turns a page's headings into the article's map.
public struct SectionHeading: Sendable, Hashable {
    /// The heading's text.
    public var title: String
    /// The heading's leading edge in the content, along the scroll axis.
    public var offset: Double
    /// The words of its section; nil when not counted.
    public var words: Int?

    /// Creates a heading.
    public init(title: String, offset: Double, words: Int? = nil) {
        self.title = title
        self.offset = offset
        self.words = words
    }
}

extension ArticleSection {
    /// The map of `headings` laid out in `body` (the snapshot's region, else `0…` the content's
    /// length): in order of their offsets, each `start` the offset's share of the body rounded
    /// to 1/10,000 (so that a layout moving by a fraction of a point is not a changed map), then
    /// cleaned by ``map(of:)`` (a heading outside the body is dropped).
    public static func map(of headings: [SectionHeading], body: Region) -> [ArticleSection] {
        let length = body.end - body.start
        guard length > 0 else { return [] }
        let sections = headings.sorted { $0.offset < $1.offset }.map { heading in
            let share = ((heading.offset - body.start) / length * 10_000).rounded() / 10_000
            return ArticleSection(title: heading.title, start: share, words: heading.words)
        }
        return map(of: sections)
    }
}
