public import ProgressCore

/// What a view tells a ``Reporter`` through ``Reporter/submit(_:)``.
public enum ReaderSignal: Sendable, Hashable {
    /// The view of `article` shows this geometry now.
    case geometry(ScrollSnapshot, article: String)
    /// The view of `article` went away.
    case viewEnded(article: String)
    /// The app changed state.
    case appState(AppState)
    /// The headings of `article` on screen, as ``Reporter/setSections(_:article:)`` takes them.
    case sections([ArticleSection], article: String)
}

/// The app's state as engaged time sees it; SwiftUI's `ScenePhase` without SwiftUI.
public enum AppState: Sendable, Hashable {
    /// In the foreground and taking input: engaged time counts.
    case active
    /// Visible but not taking input (a system sheet over it): engaged time stops.
    case inactive
    /// Not visible: engaged time stops, every open view reports what it has, and delivery starts.
    case background
}
