/// A file the service serves from memory, as it is written in the repository: its bytes and
/// the headers it goes out with. ``WebCatalog`` prepares every asset once (ETag, gzip).
struct WebAsset: Sendable {
    /// The request paths answered with this file, exactly (`/`, `/dashboard/app.js`).
    var paths: [String]
    /// What metrics and logs call requests for it.
    var label: RouteLabel
    var contentType: String
    /// How long caches may keep it: `no-cache` (revalidate with the ETag every time) for files
    /// whose names do not change between releases.
    var cacheControl: String
    /// Headers of its own, sent with the file (a page's `Content-Security-Policy`).
    var headers: [(name: String, value: String)] = []
    var body: [UInt8]

    /// Content types for the kinds of file served.
    enum ContentType {
        static let html = "text/html; charset=utf-8"
        static let javascript = "text/javascript; charset=utf-8"
        static let css = "text/css; charset=utf-8"
        static let svg = "image/svg+xml"
        static let icon = "image/x-icon"
    }
}
