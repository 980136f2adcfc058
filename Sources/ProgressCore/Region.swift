/// Where the article body lies along the axis, in content coordinates: `0 ≤ start < end ≤ C`.
///
/// Not from a seed but from analytics practice: with a region, ``ProgressFigures/seenDepth``
/// measures how much of the body has come into view, so headers, footers and comments below
/// the article do not count towards it. Without one the whole content `[0, C]` is the body.
public struct Region: Sendable, Hashable, Codable {
    /// Where the body begins, measured from the start of the content.
    public var start: Double
    /// Where the body ends, measured from the start of the content.
    public var end: Double

    /// Creates a region from its two ends.
    public init(start: Double, end: Double) {
        self.start = start
        self.end = end
    }
}
