#if canImport(SwiftUI)
    public import ProgressCore
    public import ReadingProgressClient
    public import SwiftUI

    /// Seed 000: a thin bar pinned to the top of a scroll view that grows with the reading
    /// progress, reporting the geometry to a reporter when given one. Apple platforms only.
    ///
    /// The bar follows the scroll position directly, so it has no animation of its own.
    @available(iOS 18, macOS 15, tvOS 18, watchOS 11, visionOS 2, *)
    struct ScrollProgressBar: ViewModifier {
        var tint: LinearGradient
        var height: CGFloat
        var article: String?
        var region: Region?
        var reporter: Reporter?

        @State private var progress: CGFloat = 0
        @State private var percent = "0%"

        func body(content: Content) -> some View {
            content
                .onScrollGeometryChange(for: ScrollSnapshot.self) { [region] geometry in
                    ScrollSnapshot(geometry, region: region)
                } action: { _, snapshot in
                    // Invalid geometry (a region outside the content) leaves the bar where it was.
                    guard let figures = try? snapshot.figures() else { return }
                    progress = CGFloat(figures.progress)
                    percent = figures.percent
                    if let reporter, let article { reporter.submit(.geometry(snapshot, article: article)) }
                }
                .overlay(alignment: .top) { bar }
                .modifier(
                    ReportsSections(reporter: reporter, article: article, region: region, axis: .vertical)
                )
                .modifier(ReportsLifecycle(reporter: reporter, article: article))
        }

        private var bar: some View {
            GeometryReader { proxy in
                ZStack(alignment: .leading) {
                    Capsule().fill(.quaternary)
                    Capsule()
                        .fill(tint)
                        .frame(width: proxy.size.width * progress)
                }
            }
            .frame(height: max(height, 0))
            .padding(.horizontal, 12)
            .accessibilityElement()
            .accessibilityLabel("Reading progress")
            .accessibilityValue(percent)
        }
    }

    extension View {
        /// Pins seed 000's reading-progress bar to the top of this `ScrollView`; with a `reporter`
        /// and an `article`, reports the scroll geometry, the view's end and the app's state.
        ///
        /// - Parameters:
        ///   - tint: the bar's fill.
        ///   - height: the bar's height in points.
        ///   - article: the article id events carry; nil reports nothing.
        ///   - region: where the article body lies in the content, for `seenDepth`.
        ///   - reporter: where events go; nil reports nothing.
        @available(iOS 18, macOS 15, tvOS 18, watchOS 11, visionOS 2, *)
        public func scrollProgressBar(
            tint: LinearGradient = LinearGradient(
                colors: [.pink, .orange], startPoint: .leading, endPoint: .trailing),
            height: CGFloat = 5, article: String? = nil, region: Region? = nil, reporter: Reporter? = nil
        ) -> some View {
            modifier(
                ScrollProgressBar(
                    tint: tint, height: height, article: article, region: region, reporter: reporter))
        }
    }
#endif
