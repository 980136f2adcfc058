import HTTPServer
import ProgressStore

/// Every file the service serves from memory, found by its exact request path.
///
/// Built once, on first use (``ProgressService`` touches it when it starts): each file gets a
/// strong ETag from its bytes and, when that is smaller, a gzip copy with an ETag of its own
/// (RFC 9110 wants strong tags to differ between codings). A request then only picks one of
/// the answers made here.
final class WebCatalog: Sendable {
    /// The files built into the executable (see `WebAsset+builtIn.swift`).
    static let builtIn = WebCatalog(WebAsset.builtIn)

    /// One file, with its four possible answers.
    struct Entry: Sendable {
        let label: RouteLabel
        let etag: String
        /// `nil` when gzip would not make the file smaller.
        let gzipETag: String?
        let plain: Reply
        let gzipped: Reply?
        let plainNotModified: Reply
        let gzippedNotModified: Reply?

        init(_ asset: WebAsset) {
            label = asset.label
            etag = EntityTag.strong(of: asset.body, suffix: "")
            let compressed = Gzip.compress(asset.body).flatMap { $0.count < asset.body.count ? $0 : nil }
            gzipETag = compressed.map { _ in EntityTag.strong(of: asset.body, suffix: ".gz") }
            // A file that has a gzip copy varies by Accept-Encoding, whichever copy is sent.
            let vary: [(name: String, value: String)] =
                compressed == nil ? [] : [("Vary", "Accept-Encoding")]
            func validators(_ tag: String) -> [(name: String, value: String)] {
                [("ETag", tag), ("Cache-Control", asset.cacheControl)] + vary
            }
            plain = Reply(
                status: 200, body: asset.body, contentType: asset.contentType,
                headers: validators(etag) + asset.headers)
            plainNotModified = Reply(status: 304, body: [], contentType: "", headers: validators(etag))
            if let compressed, let gzipETag {
                gzipped = Reply(
                    status: 200, body: compressed, contentType: asset.contentType,
                    headers: validators(gzipETag) + [("Content-Encoding", "gzip")] + asset.headers)
                gzippedNotModified = Reply(
                    status: 304, body: [], contentType: "", headers: validators(gzipETag))
            } else {
                gzipped = nil
                gzippedNotModified = nil
            }
        }

        /// The answer to a GET or HEAD: gzip when the client accepts it, 304 when the client's
        /// copy (either coding) is current.
        func reply(to request: HTTPRequest) -> Reply {
            let useGzip = gzipped != nil && AcceptEncoding.allowsGzip(request.header("Accept-Encoding"))
            if let tags = request.header("If-None-Match"),
                EntityTag.list(tags, matchesAnyOf: [etag, gzipETag].compactMap { $0 })
            {
                return useGzip ? gzippedNotModified ?? plainNotModified : plainNotModified
            }
            return useGzip ? gzipped ?? plain : plain
        }
    }

    let entries: [Entry]
    private let indexes: [String: Int]

    init(_ assets: [WebAsset]) {
        entries = assets.map(Entry.init)
        var indexes: [String: Int] = [:]
        for (index, asset) in assets.enumerated() {
            for path in asset.paths {
                precondition(indexes.updateValue(index, forKey: path) == nil, "two web assets at \(path)")
            }
        }
        self.indexes = indexes
    }

    /// The entry serving `path`, exactly as requested (still percent-encoded).
    func index(of path: String) -> Int? {
        indexes[path]
    }
}

/// Strong entity tags (RFC 9110 §8.8.3) and `If-None-Match` lists.
enum EntityTag {
    /// `"<FNV-1a 64 of the bytes, hex><suffix>"`: the tag changes whenever the file does.
    static func strong(of bytes: [UInt8], suffix: String) -> String {
        "\"" + FNV1a.hex(bytes) + suffix + "\""
    }

    /// Whether an `If-None-Match` value names one of `tags`, or is `*`. The comparison is the
    /// weak one that RFC 9110 prescribes for `If-None-Match`: `W/"x"` matches `"x"`.
    static func list(_ header: String, matchesAnyOf tags: [String]) -> Bool {
        for item in header.split(separator: ",") {
            var tag = item.trimmingSpaces
            if tag == "*" { return true }
            if tag.hasPrefix("W/") { tag = tag.dropFirst(2) }
            if tags.contains(where: { $0 == tag }) { return true }
        }
        return false
    }
}

/// The `Accept-Encoding` request header (RFC 9110 §12.5.3).
enum AcceptEncoding {
    /// Whether gzip is acceptable: named (or `x-gzip`), or covered by `*`, with a q-value above 0.
    static func allowsGzip(_ header: String?) -> Bool {
        guard let header else { return false }
        var gzip: Double?
        var any: Double?
        for item in header.split(separator: ",") {
            let parts = item.split(separator: ";")
            guard let coding = parts.first?.trimmingSpaces.lowercased() else { continue }
            var quality = 1.0
            for parameter in parts.dropFirst() {
                let parameter = parameter.trimmingSpaces
                if parameter.lowercased().hasPrefix("q=") { quality = Double(parameter.dropFirst(2)) ?? 0 }
            }
            if coding == "gzip" || coding == "x-gzip" {
                gzip = quality
            } else if coding == "*" {
                any = quality
            }
        }
        return (gzip ?? any ?? 0) > 0
    }
}
