/// A width and a height, in points; both must be finite and ≥ 0.
///
/// Used for `contentSize` (the whole article, as seed 000 reads `contentSize.height`) and for
/// `containerSize` (the viewport the reader looks through, seed 000's `containerSize.height`).
public struct Size: Sendable, Hashable, Codable {
    /// Extent along the ``ScrollAxis/horizontal`` axis.
    public var width: Double
    /// Extent along the ``ScrollAxis/vertical`` axis.
    public var height: Double

    /// Creates a size from its two extents.
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }
}
