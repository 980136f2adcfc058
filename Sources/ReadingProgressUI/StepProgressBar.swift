#if canImport(SwiftUI)
    public import ProgressCore
    public import ReadingProgressClient
    public import SwiftUI

    /// What seed 002's step bar needs from the page on screen: its scroll geometry and the top
    /// of its safe area. Keep it in the view that owns the `NavigationStack` (`@State`), hand a
    /// binding to every page (`stepProgressPage(_:)`) and the value to the bar
    /// (`stepProgressBar(_:step:of:article:reporter:)`). Apple platforms only.
    public struct StepPageGeometry: Equatable, Sendable {
        /// The scroll geometry of the page on screen; nil for a page that has not scrolled.
        public var scroll: ScrollSnapshot?
        /// The top of the page's safe area (below the navigation bar); nil until it is known.
        public var safeAreaTop: CGFloat?

        /// Nothing known yet.
        public init() {}
    }

    /// Seed 002: a progress bar in the safe area of a `NavigationStack`, outside its pages, so
    /// that it stays put while they slide in and out; hidden on the first page, rising and fading
    /// as the page scrolls. Reports the page's geometry with its step when given a reporter.
    @available(iOS 18, macOS 15, tvOS 18, watchOS 11, visionOS 2, *)
    struct StepProgressBar: ViewModifier {
        var page: StepPageGeometry
        var index: Int
        var total: Int
        var article: String?
        var reporter: Reporter?

        private var snapshot: ScrollSnapshot { (page.scroll ?? .resting).onStep(index, of: total) }

        func body(content: Content) -> some View {
            content
                .safeAreaInset(edge: .top) {
                    // Invalid geometry (a region outside the content) shows no bar.
                    if let bar = try? snapshot.figures().step, bar.visible, let top = page.safeAreaTop {
                        ProgressView(value: bar.progress)
                            .padding(.top, top)
                            .padding(.horizontal)
                            .offset(y: CGFloat(bar.barOffset))
                            .opacity(bar.barOpacity)
                            // After the paddings: the bar sits below the page's navigation bar.
                            .ignoresSafeArea(edges: .top)
                    }
                }
                .onChange(of: snapshot, initial: true) { _, shown in
                    guard let reporter, let article else { return }
                    reporter.submit(.geometry(shown, article: article))
                }
                .modifier(ReportsLifecycle(reporter: reporter, article: article))
        }
    }

    /// Reads a page's scroll geometry and safe area for the step bar.
    @available(iOS 18, macOS 15, tvOS 18, watchOS 11, visionOS 2, *)
    struct StepProgressPage: ViewModifier {
        @Binding var page: StepPageGeometry

        func body(content: Content) -> some View {
            content
                // A page comes in at rest; without this, one with no scroll view would show the
                // bar as the page before it had scrolled.
                .onAppear { page.scroll = nil }
                .onScrollGeometryChange(for: ScrollSnapshot.self) { geometry in
                    ScrollSnapshot(geometry)
                } action: { _, scroll in
                    page.scroll = scroll
                }
                .onGeometryChange(for: CGFloat.self) { proxy in
                    proxy.safeAreaInsets.top
                } action: { top in
                    page.safeAreaTop = top
                }
        }
    }

    extension View {
        /// Puts seed 002's step bar over this `NavigationStack`: page `step` (0 first, where the
        /// bar is hidden; `path.count`, say) of `total`, moved and faded as `page` scrolls. With a
        /// `reporter` and an `article` (the flow's id), reports each page's geometry with its step.
        @available(iOS 18, macOS 15, tvOS 18, watchOS 11, visionOS 2, *)
        public func stepProgressBar(
            _ page: StepPageGeometry, step: Int, of total: Int, article: String? = nil,
            reporter: Reporter? = nil
        ) -> some View {
            modifier(
                StepProgressBar(page: page, index: step, total: total, article: article, reporter: reporter))
        }

        /// Makes this page of a `NavigationStack` (its `ScrollView`, when it has one) tell the
        /// step bar how far it has scrolled and where its safe area begins.
        @available(iOS 18, macOS 15, tvOS 18, watchOS 11, visionOS 2, *)
        public func stepProgressPage(_ page: Binding<StepPageGeometry>) -> some View {
            modifier(StepProgressPage(page: page))
        }
    }
#endif
