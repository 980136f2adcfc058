/// A point in scroll-view coordinates, in points.
///
/// Used for `contentOffset`, the `ScrollGeometry.contentOffset` of seeds 000 and 002: how far the
/// content has been scrolled. It may be negative (pulled past the start) or beyond the end.
public struct Point: Sendable, Hashable, Codable {
    /// Horizontal coordinate; counts on the ``ScrollAxis/horizontal`` axis.
    public var x: Double
    /// Vertical coordinate; counts on the ``ScrollAxis/vertical`` axis.
    public var y: Double

    /// Creates a point from its two coordinates.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}
