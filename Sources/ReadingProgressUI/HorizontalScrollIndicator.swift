#if canImport(SwiftUI)
    public import ProgressCore
    public import ReadingProgressClient
    public import SwiftUI

    /// Seed 003: a horizontal `ScrollView` without the system's indicator, over a custom one —
    /// a thumb sliding along a short track, that never leaves it however far the content is
    /// pulled. Reports the geometry when given a reporter. Apple platforms only.
    @available(iOS 18, macOS 15, tvOS 18, watchOS 11, visionOS 2, *)
    public struct HorizontalScrollIndicatorView<Content: View>: View {
        private let indicator: Indicator
        private let thickness: CGFloat
        private let spacing: CGFloat
        private let tint: Color
        private let article: String?
        private let reporter: Reporter?
        private let content: Content

        @State private var thumbOffset: CGFloat = 0

        /// Creates the scroll view and its indicator.
        ///
        /// - Parameters:
        ///   - indicator: the lengths of the track and of the thumb (seed 003's 90 and 40).
        ///   - thickness: the indicator's height.
        ///   - spacing: between the content and the indicator.
        ///   - tint: the thumb's color; the track is a pale gray.
        ///   - article: the id events carry; nil reports nothing.
        ///   - reporter: where events go; nil reports nothing.
        ///   - content: what scrolls.
        public init(
            indicator: Indicator = .standard, thickness: CGFloat = 6, spacing: CGFloat = 16,
            tint: Color = .blue,
            article: String? = nil, reporter: Reporter? = nil, @ViewBuilder content: () -> Content
        ) {
            self.indicator = indicator
            self.thickness = thickness
            self.spacing = spacing
            self.tint = tint
            self.article = article
            self.reporter = reporter
            self.content = content()
        }

        public var body: some View {
            VStack(spacing: spacing) {
                ScrollView(.horizontal, showsIndicators: false) {
                    content
                }
                .onScrollGeometryChange(for: ScrollSnapshot.self) { [indicator] geometry in
                    ScrollSnapshot(geometry, axis: .horizontal, indicator: indicator)
                } action: { _, snapshot in
                    // Invalid geometry (a region outside the content) leaves the indicator where it was.
                    guard let figures = try? snapshot.figures() else { return }
                    thumbOffset = CGFloat(figures.indicatorOffset ?? 0)
                    if let reporter, let article { reporter.submit(.geometry(snapshot, article: article)) }
                }
                ZStack(alignment: .leading) {
                    RoundedRectangle(cornerRadius: 5)
                        .fill(Color.gray.opacity(0.3))
                        .frame(width: CGFloat(indicator.trackLength), height: thickness)
                    RoundedRectangle(cornerRadius: 5)
                        .fill(tint)
                        .frame(width: CGFloat(indicator.thumbLength), height: thickness)
                        .offset(x: thumbOffset)
                }
                .accessibilityHidden(true)
            }
            .modifier(ReportsLifecycle(reporter: reporter, article: article))
        }
    }
#endif
