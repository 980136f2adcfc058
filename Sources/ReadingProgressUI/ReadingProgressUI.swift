// ReadingProgressUI: the seeds' three SwiftUI components, each reporting to a
// ReadingProgressClient `Reporter` when given one. SwiftUI exists on Apple platforms only:
// everything below is compiled there and nowhere else (on Linux this module is empty), so it
// is kept thin — the figures and every decision about events live in ProgressCore and
// ReadingProgressClient, which are built and tested on Linux.
#if canImport(SwiftUI)
    public import ProgressCore
    public import ReadingProgressClient
    public import SwiftUI

    @available(iOS 18, macOS 15, tvOS 18, watchOS 11, visionOS 2, *)
    extension ScrollSnapshot {
        /// The snapshot of SwiftUI's `ScrollGeometry`, as `onScrollGeometryChange` reports it.
        public init(
            _ geometry: ScrollGeometry, axis: ScrollAxis = .vertical, region: Region? = nil,
            step: Step? = nil, indicator: Indicator? = nil
        ) {
            self.init(
                axis: axis, contentOffset: Point(geometry.contentOffset),
                contentSize: Size(geometry.contentSize),
                containerSize: Size(geometry.containerSize),
                contentInsets: Insets(
                    top: Double(geometry.contentInsets.top), leading: Double(geometry.contentInsets.leading),
                    bottom: Double(geometry.contentInsets.bottom),
                    trailing: Double(geometry.contentInsets.trailing)),
                region: region, step: step, indicator: indicator)
        }
    }

    @available(iOS 18, macOS 15, tvOS 18, watchOS 11, visionOS 2, *)
    extension AppState {
        /// The state engaged time needs of a scene's phase.
        public init(_ phase: ScenePhase) {
            switch phase {
            case .active: self = .active
            case .inactive: self = .inactive
            case .background: self = .background
            @unknown default: self = .inactive
            }
        }
    }

    /// Tells `reporter` when the view of `article` goes away and when the app changes state;
    /// does nothing without both.
    @available(iOS 18, macOS 15, tvOS 18, watchOS 11, visionOS 2, *)
    struct ReportsLifecycle: ViewModifier {
        let reporter: Reporter?
        let article: String?
        @Environment(\.scenePhase) private var scenePhase

        func body(content: Content) -> some View {
            content
                .onChange(of: scenePhase) { _, phase in
                    guard let reporter, article != nil else { return }
                    reporter.submit(.appState(AppState(phase)))
                }
                .onDisappear {
                    guard let reporter, let article else { return }
                    reporter.submit(.viewEnded(article: article))
                }
        }
    }
#endif
