extension WebAsset {
    /// The web tracker (docs/tracker.md), loaded by other sites' pages with a `<script>` tag.
    ///
    /// Its name never changes between releases, so caches may keep it for a day: a release
    /// reaches every reader within one, and the ETag turns each later check into a 304. Other
    /// origins must be able to load it (`Cross-Origin-Resource-Policy: cross-origin`).
    static let tracker = WebAsset(
        paths: ["/tracker.js"], label: .tracker, contentType: ContentType.javascript,
        cacheControl: "public, max-age=86400",
        headers: [("X-Content-Type-Options", "nosniff"), ("Cross-Origin-Resource-Policy", "cross-origin")],
        body: PackageResources.tracker_js)
}
