/// The direction a scroll view scrolls in, and so which half of each point, size and inset counts.
///
/// Seed 000 (the progress bar pinned to the top of an article) scrolls vertically; seed 003 (the
/// custom indicator under a carousel) scrolls horizontally. Every figure in ``ProgressFigures``
/// is measured along this axis only; the other half of the geometry is validated but ignored.
public enum ScrollAxis: String, Sendable, Hashable, Codable, CaseIterable {
    /// Reads `y`, `height` and the `top`/`bottom` insets: an article scrolled down the page.
    case vertical
    /// Reads `x`, `width` and the `leading`/`trailing` insets: a carousel scrolled sideways.
    case horizontal
}
