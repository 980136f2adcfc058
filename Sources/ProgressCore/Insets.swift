/// Space the scroll view adds around its content, in points; each edge must be finite and ≥ 0.
///
/// Seed 000 adds `contentInsets.top` and `.bottom` to the scrollable range and seed 002 adds
/// `contentInsets.top` to the offset, so that a scroll view under a navigation bar reads 0 at rest.
public struct Insets: Sendable, Hashable, Codable {
    /// The leading-edge inset on the ``ScrollAxis/vertical`` axis (under a navigation bar, say).
    public var top: Double
    /// The leading-edge inset on the ``ScrollAxis/horizontal`` axis.
    public var leading: Double
    /// The trailing-edge inset on the ``ScrollAxis/vertical`` axis (above a tab bar, say).
    public var bottom: Double
    /// The trailing-edge inset on the ``ScrollAxis/horizontal`` axis.
    public var trailing: Double

    /// Creates insets; edges left out are 0.
    public init(top: Double = 0, leading: Double = 0, bottom: Double = 0, trailing: Double = 0) {
        self.top = top
        self.leading = leading
        self.bottom = bottom
        self.trailing = trailing
    }

    /// No inset on any edge: the content starts and ends flush with the container.
    public static let zero = Insets()
}
