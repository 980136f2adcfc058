extension WebAsset {
    /// The web tracker (docs/tracker.md), loaded by other sites' pages with a `<script>` tag: the
    /// build that draws the reading progress bar a page asks for with `data-bar`.
    ///
    /// Its name never changes between releases, so caches may keep it for a day: a release
    /// reaches every reader within one, and the ETag turns each later check into a 304. Other
    /// origins must be able to load it (`Cross-Origin-Resource-Policy: cross-origin`).
    static let tracker = trackerBuild(at: "/tracker.js", body: PackageResources.tracker_js)

    /// The same tracker without the bar, for pages that want the smallest script; metrics count
    /// its requests with the tracker's.
    static let trackerLite = trackerBuild(at: "/tracker-lite.js", body: PackageResources.tracker_lite_js)

    /// Both builds come from `tracker.src.js` (scripts/build-tracker), which is not served.
    private static func trackerBuild(at path: String, body: [UInt8]) -> WebAsset {
        WebAsset(
            paths: [path], label: .tracker, contentType: ContentType.javascript,
            cacheControl: "public, max-age=86400",
            headers: [
                ("X-Content-Type-Options", "nosniff"), ("Cross-Origin-Resource-Policy", "cross-origin"),
            ],
            body: body)
    }
}
