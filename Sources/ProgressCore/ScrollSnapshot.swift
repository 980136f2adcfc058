/// One snapshot of a scroll view, as a reading client reports it: the input of the figures (docs/api.md).
///
/// It mirrors SwiftUI's `ScrollGeometry`, which seeds 000 and 002 read in
/// `onScrollGeometryChange`, plus the optional ``Region``, ``Step`` and ``Indicator`` that the
/// service's figures need. Call ``figures()`` to validate it and compute ``ProgressFigures``.
public struct ScrollSnapshot: Sendable, Hashable, Codable {
    /// Which way the view scrolls; the figures read only this axis's half of the geometry.
    public var axis: ScrollAxis
    /// How far the content is scrolled (seed 000's `contentOffset.y`). At rest at the start it is
    /// minus the leading inset; it may go further either way while rubber-banding.
    public var contentOffset: Point
    /// The size of the whole scrollable content, such as the article (seed 000's `contentSize`).
    public var contentSize: Size
    /// The size of the viewport the content scrolls in (seed 000's `containerSize`).
    public var containerSize: Size
    /// Space added around the content, such as under a navigation bar (seed 000's `contentInsets`).
    public var contentInsets: Insets
    /// Where the article body lies along the axis, for ``ProgressFigures/seenDepth``; nil for all
    /// of the content.
    public var region: Region?
    /// The reader's place in a multi-step flow (seed 002); nil outside one.
    public var step: Step?
    /// The horizontal indicator's geometry (seed 003); nil for ``Indicator/standard``.
    public var indicator: Indicator?

    /// Creates a geometry; nothing is checked until ``validate()`` or ``figures()``.
    public init(
        axis: ScrollAxis = .vertical, contentOffset: Point, contentSize: Size, containerSize: Size,
        contentInsets: Insets = .zero, region: Region? = nil, step: Step? = nil,
        indicator: Indicator? = nil
    ) {
        self.axis = axis
        self.contentOffset = contentOffset
        self.contentSize = contentSize
        self.containerSize = containerSize
        self.contentInsets = contentInsets
        self.region = region
        self.step = step
        self.indicator = indicator
    }
}
