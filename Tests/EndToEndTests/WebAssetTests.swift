import Foundation
import Testing

/// The files served from memory (the dashboard's page, modules, stylesheet and icons): the
/// repository's bytes, with their content type, a strong ETag and 304, gzip when accepted,
/// HEAD like GET, and the page's security headers.
@Suite("Web assets served from memory, end to end")
struct WebAssetTests {
    /// The repository's dashboard folder, read to compare what is served with what is written.
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/ProgressService/Web/dashboard")

    /// Every file of the folder with the path it is served at and its content type.
    static func servedFiles() throws -> [(path: String, file: URL, type: String)] {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        return names.map { name in
            let path =
                switch name {
                case "index.html": "/"
                case "favicon.ico": "/favicon.ico"
                default: "/dashboard/" + name
                }
            let type =
                switch (name as NSString).pathExtension {
                case "html": "text/html; charset=utf-8"
                case "js": "text/javascript; charset=utf-8"
                case "css": "text/css; charset=utf-8"
                case "svg": "image/svg+xml"
                default: "image/x-icon"
                }
            return (path, folder.appendingPathComponent(name), type)
        }
    }

    @Test("every file of the dashboard folder is served as written, with its type and validators")
    func everyFile() throws {
        let server = try ServerProcess(store: "memory:")
        let files = try Self.servedFiles()
        #expect(files.count >= 5)
        for (path, file, type) in files {
            let response = try server.client().get(path)
            #expect(response.status == 200, "\(path)")
            #expect(response.body == Array(try Data(contentsOf: file)), "\(path)")
            #expect(response.header("Content-Type") == type, "\(path)")
            #expect(response.header("X-Content-Type-Options") == "nosniff", "\(path)")
            #expect(response.header("Content-Encoding") == nil, "\(path)")
            let etag = try #require(response.header("ETag"), "\(path)")
            #expect(etag.hasPrefix("\"") && etag.hasSuffix("\"") && etag.count > 2, "a strong tag: \(etag)")
            #expect(response.header("Cache-Control")?.contains("no-store") == false, "\(path)")
        }
        let tags = try files.map { try server.client().get($0.path).header("ETag") }
        #expect(Set(tags).count == files.count, "files of different bytes have different tags")
        #expect(server.stop() == 0)
    }

    @Test("the page carries a policy that allows nothing but the service's own files")
    func pageHeaders() throws {
        let server = try ServerProcess(store: "memory:")
        let page = try server.client().get("/")
        let policy = try #require(page.header("Content-Security-Policy"))
        #expect(policy.hasPrefix("default-src 'self'"))
        #expect(!policy.contains("unsafe"))
        #expect(policy.contains("frame-ancestors 'none'"))
        #expect(page.header("Referrer-Policy") == "no-referrer")
        #expect(page.header("Cache-Control") == "no-cache")
        // The API's answers are still never cached.
        #expect(try server.client().get("/v1/articles").header("Cache-Control") == "no-store")
        #expect(try server.client().get("/healthz").header("Cache-Control") == "no-store")
        #expect(server.stop() == 0)
    }

    @Test("If-None-Match with the current tag is 304 without a body; another tag is 200")
    func conditional() throws {
        let server = try ServerProcess(store: "memory:")
        let client = server.client()
        let full = try client.get("/dashboard/dashboard.css")
        let etag = try #require(full.header("ETag"))
        for header in [etag, "W/\(etag)", "\"other\", \(etag)", "*"] {
            let answer = try client.get("/dashboard/dashboard.css", headers: [("If-None-Match", header)])
            #expect(answer.status == 304, "If-None-Match: \(header)")
            #expect(answer.body.isEmpty)
            #expect(answer.header("ETag") == etag)
            #expect(answer.header("Cache-Control") == full.header("Cache-Control"))
        }
        let stale = try client.get("/dashboard/dashboard.css", headers: [("If-None-Match", "\"0000\"")])
        #expect(stale.status == 200)
        #expect(stale.body == full.body)
        // A tag is the file's, not the path's: another file's tag does not match.
        let otherTag = try #require(try client.get("/").header("ETag"))
        #expect(
            try client.get("/dashboard/dashboard.css", headers: [("If-None-Match", otherTag)]).status == 200)
        // Metrics count each answer under its own status.
        let metrics = try client.get("/metrics").text
        #expect(metrics.contains(#"route="/dashboard/{file}",method="GET",status="304"} 4"#), "\(metrics)")
        #expect(metrics.contains(#"route="/dashboard/{file}",method="GET",status="200"} 3"#), "\(metrics)")
        #expect(server.stop() == 0)
    }

    @Test("gzip when accepted: the same bytes once inflated, a tag of its own, Vary: Accept-Encoding")
    func gzip() throws {
        let server = try ServerProcess(store: "memory:")
        let client = server.client()
        let path = "/"
        let plain = try client.get(path)
        let zipped = try client.get(path, headers: [("Accept-Encoding", "gzip, deflate, br")])
        #expect(zipped.status == 200)
        #expect(zipped.header("Content-Encoding") == "gzip")
        #expect(zipped.body.count < plain.body.count)
        #expect(try Self.gunzip(zipped.body) == plain.body)
        let plainTag = try #require(plain.header("ETag"))
        let zippedTag = try #require(zipped.header("ETag"))
        #expect(plainTag != zippedTag)
        for response in [plain, zipped] {
            #expect(response.headers.contains { $0.name == "Vary" && $0.value == "Accept-Encoding" })
        }
        // Either copy's tag is current: 304 in the coding the request would get.
        for tag in [plainTag, zippedTag] {
            let answer = try client.get(
                path, headers: [("Accept-Encoding", "gzip"), ("If-None-Match", tag)])
            #expect(answer.status == 304)
            #expect(answer.header("ETag") == zippedTag)
        }
        for refusal in ["gzip;q=0", "identity", "br", "*;q=0", "gzip;q=0, *"] {
            let answer = try client.get(path, headers: [("Accept-Encoding", refusal)])
            #expect(answer.header("Content-Encoding") == nil, "Accept-Encoding: \(refusal)")
            #expect(answer.body == plain.body)
        }
        for acceptance in ["GZIP", "*", "x-gzip", "deflate, gzip;q=0.5"] {
            let answer = try client.get(path, headers: [("Accept-Encoding", acceptance)])
            #expect(answer.header("Content-Encoding") == "gzip", "Accept-Encoding: \(acceptance)")
        }
        #expect(server.stop() == 0)
    }

    @Test("HEAD answers like GET without the body; other methods are 405 with Allow")
    func methods() throws {
        let server = try ServerProcess(store: "memory:")
        for path in ["/", "/dashboard/app.js", "/favicon.ico"] {
            let get = try server.client().get(path, headers: [("Accept-Encoding", "gzip")])
            let head = try server.client().send(
                method: "HEAD", target: path, headers: [("Accept-Encoding", "gzip")], body: [])
            #expect(head.status == 200)
            #expect(head.body.isEmpty)
            #expect(head.header("Content-Length") == String(get.body.count), "\(path)")
            #expect(head.header("ETag") == get.header("ETag"))
            #expect(head.header("Content-Type") == get.header("Content-Type"))
            for method in ["POST", "PUT", "DELETE", "OPTIONS"] {
                let refused = try server.client().send(method: method, target: path, body: [])
                #expect(refused.status == 405, "\(method) \(path)")
                #expect(refused.header("Allow") == "GET, HEAD")
            }
        }
        let missing = try server.client().get("/dashboard/missing.js")
        #expect(missing.status == 404)
        #expect((try missing.json["error"] as? [String: Any])?["code"] as? String == "not_found")
        #expect(try server.client().get("/dashboard/").status == 404)
        #expect(server.stop() == 0)
    }

    @Test("with --api-token the page and its files are public; the API calls they make are not")
    func publicWithToken() throws {
        let server = try ServerProcess(store: "memory:", arguments: ["--api-token", "s3cret"])
        #expect(try server.client().get("/").status == 200)
        #expect(try server.client().get("/dashboard/app.js").status == 200)
        #expect(try server.client().get("/v1/articles").status == 401)
        #expect(server.stop() == 0)
    }

    @Test("--rate-limit leaves the files alone: a page load asks for a dozen at once")
    func notRateLimited() throws {
        let server = try ServerProcess(store: "memory:", arguments: ["--rate-limit", "2"])
        let connection = try Connection(port: server.port)
        for path in Array(
            repeating: ["/", "/dashboard/app.js", "/dashboard/dashboard.css", "/favicon.ico"], count: 5
        )
        .joined() {
            let answer = try connection.exchange(method: "GET", target: path, headers: [], body: [])
            #expect(answer.status == 200, "\(path)")
        }
        var statuses: [Int] = []
        for _ in 0..<4 {
            statuses.append(
                try connection.exchange(method: "GET", target: "/v1/articles", headers: [], body: []).status)
        }
        #expect(statuses.contains(429), "the API is still limited: \(statuses)")
        #expect(server.stop() == 0)
    }

    /// `gzip -dc`: an implementation other than the one that compressed.
    static func gunzip(_ bytes: [UInt8]) throws -> [UInt8] {
        let folder = try TemporaryDirectory()
        let file = folder.url.appendingPathComponent("asset.gz")
        try Data(bytes).write(to: file)
        let gzip = try ChildProcess.run("/bin/gzip", ["-dc", file.path])
        guard gzip.status == 0 else { throw TestFailure("gzip -dc failed: \(gzip.errorText)") }
        return Array(gzip.output)
    }
}
