/// The state of a multi-step flow's progress bar, from seed 002 (the bar that survives page
/// transitions). Present in ``ProgressFigures`` only when the geometry carries a ``Step``.
public struct StepFigures: Sendable, Hashable, Codable {
    /// How full the step bar is, `clamp(index / total, 0, 1)`: seed 002's
    /// `ProgressView(value: path.count, total:)`. Steps past the total show a full bar.
    public let progress: Double
    /// Whether the bar shows at all, `index > 0`: seed 002 hides it on the first page.
    public let visible: Bool
    /// How far to move the bar along the axis, `min(0, −p)` where `p` is the scroll position:
    /// seed 002's `.offset(y: min(0, -scrollOffset))`, so the bar rides up with the content and
    /// stays put when the reader pulls past the start. Never `-0`.
    public let barOffset: Double
    /// How opaque the bar is, `clamp(1 − 0.1 × p, 0, 1)`: seed 002's `.opacity(1 - 0.1 * offset)`,
    /// so the bar fades out over the first 10 points of scrolling.
    public let barOpacity: Double

    /// Creates step figures; ``ScrollSnapshot/figures()`` is where they normally come from.
    public init(progress: Double, visible: Bool, barOffset: Double, barOpacity: Double) {
        self.progress = progress
        self.visible = visible
        self.barOffset = barOffset
        self.barOpacity = barOpacity
    }
}
