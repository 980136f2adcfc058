/// Everything a reading client draws from one scroll geometry (docs/api.md, "The figures"), and what the service
/// folds into an article's statistics. Every number is finite and none is `-0`.
public struct ProgressFigures: Sendable, Hashable, Codable {
    /// Whether there is anything to scroll, `S > 0`. Seed 000's scrollable range: content that fits
    /// in its container never moves the progress bar.
    public let scrollable: Bool
    /// How far through the scrollable range the reader is, 0…1: `clamp(p / S, 0, 1)`, 0 when not
    /// scrollable. Seed 000's `ScrollProgressBarMath.progress`, the width of the bar.
    public let progress: Double
    /// ``progress`` as a whole percentage for screen readers, `"15%"`: rounded to the nearest,
    /// ties to even. Seed 000's accessibility value. Made when asked for: the service folds
    /// most figures into statistics without ever showing this text.
    public var percent: String { progress.percentText }
    /// The number in ``percent``, `15` for `"15%"`, for writers that print it themselves.
    public var wholePercent: Int { progress.wholePercent }
    /// How much of the article body has come into view, 0…1: the far edge of the viewport over the
    /// body's length. 1 when not scrollable, and when the content is empty and no region is given
    /// (nothing is hidden). Not from a seed but from analytics practice.
    public let seenDepth: Double
    /// Where seed 003's indicator thumb sits along its track, `progress × (track − thumb)`; always
    /// within the track, even when rubber-banding. Non-nil on the horizontal axis only.
    public let indicatorOffset: Double?
    /// The multi-step flow's bar (seed 002); non-nil only when the geometry carries a ``Step``.
    public let step: StepFigures?

    /// Creates figures; ``ScrollSnapshot/figures()`` is where they normally come from.
    public init(
        scrollable: Bool, progress: Double, seenDepth: Double,
        indicatorOffset: Double?, step: StepFigures?
    ) {
        self.scrollable = scrollable
        self.progress = progress
        self.seenDepth = seenDepth
        self.indicatorOffset = indicatorOffset
        self.step = step
    }
}
