// Section headings and the device class for ReadingProgressUI. Thin on purpose: the map's
// arithmetic and cleaning are `ArticleSection.map(of:body:)` in ReadingProgressClient, tested
// on Linux; here a heading only reports its frame and the scroll view passes them on.
#if canImport(SwiftUI)
    public import ProgressCore
    public import ReadingProgressClient
    public import SwiftUI
    #if canImport(UIKit)
        import UIKit
    #endif

    /// The headings laid out in a scroll view's content, collected from every marked view.
    struct SectionHeadingsKey: PreferenceKey {
        static let defaultValue: [SectionHeading] = []
        static func reduce(value: inout [SectionHeading], nextValue: () -> [SectionHeading]) {
            value.append(contentsOf: nextValue())
        }
    }

    @available(iOS 18, macOS 15, tvOS 18, watchOS 11, visionOS 2, *)
    struct MarksSection: ViewModifier {
        let title: String
        let words: Int?
        let axis: ScrollAxis
        @State private var offset: Double?

        func body(content: Content) -> some View {
            content
                .onGeometryChange(for: Double.self) { proxy in
                    // In the scroll view's visible bounds; the scroll view adds its content offset.
                    let frame = proxy.frame(in: .scrollView)
                    return Double(axis == .vertical ? frame.minY : frame.minX)
                } action: {
                    offset = $0
                }
                .preference(
                    key: SectionHeadingsKey.self,
                    value: offset.map { [SectionHeading(title: title, offset: $0, words: words)] } ?? [])
        }
    }

    /// Hands the headings of the content to `reporter` as `article`'s map when the map they
    /// make changes. A heading's frame comes in the visible bounds, so its place in the content
    /// is that plus the content offset of the same layout.
    @available(iOS 18, macOS 15, tvOS 18, watchOS 11, visionOS 2, *)
    struct ReportsSections: ViewModifier {
        let reporter: Reporter?
        let article: String?
        let region: Region?
        let axis: ScrollAxis
        @State private var headings: [SectionHeading] = []
        @State private var layout = Layout(offset: 0, length: 0)
        @State private var sent: [ArticleSection] = []

        func body(content: Content) -> some View {
            content
                .onPreferenceChange(SectionHeadingsKey.self) { headings = $0 }
                .onScrollGeometryChange(for: Layout.self) { [axis] geometry in
                    axis == .vertical
                        ? Layout(
                            offset: Double(geometry.contentOffset.y),
                            length: Double(geometry.contentSize.height))
                        : Layout(
                            offset: Double(geometry.contentOffset.x),
                            length: Double(geometry.contentSize.width))
                } action: { _, new in
                    layout = new
                }
                .onChange(of: headings) { report() }
                .onChange(of: layout) { report() }
        }

        private func report() {
            guard let reporter, let article, !headings.isEmpty else { return }
            let inContent = headings.map {
                SectionHeading(title: $0.title, offset: $0.offset + layout.offset, words: $0.words)
            }
            let map = ArticleSection.map(of: inContent, body: region ?? Region(start: 0, end: layout.length))
            guard map != sent else { return }
            sent = map
            reporter.submit(.sections(map, article: article))
        }

        private struct Layout: Equatable {
            var offset: Double
            var length: Double
        }
    }

    extension View {
        /// Marks this view, inside a `ScrollView` with ``scrollProgressBar(tint:height:article:region:reporter:)``,
        /// as the heading of a section: its leading edge in the content is where the section
        /// starts. `words` counts the section's words, for the dashboard's reading speed.
        @available(iOS 18, macOS 15, tvOS 18, watchOS 11, visionOS 2, *)
        public func readingSection(_ title: String, words: Int? = nil, axis: ScrollAxis = .vertical)
            -> some View
        {
            modifier(MarksSection(title: title, words: words, axis: axis))
        }
    }

    extension DeviceClass {
        /// The class of the platform's idiom: an iPhone is a phone, an iPad a tablet, a Mac a
        /// desktop, anything else other.
        @MainActor public static var platform: DeviceClass {
            #if canImport(UIKit) && !os(watchOS)
                switch UIDevice.current.userInterfaceIdiom {
                case .phone: .phone
                case .pad: .tablet
                case .mac: .desktop
                default: .other
                }
            #elseif os(macOS)
                .desktop
            #else
                .other
            #endif
        }
    }

    extension Reporter.Configuration {
        /// This configuration with ``DeviceClass/platform`` as its device class unless it has one.
        @MainActor public var withPlatformDevice: Self {
            var copy = self
            copy.device = copy.device ?? .platform
            return copy
        }
    }
#endif
