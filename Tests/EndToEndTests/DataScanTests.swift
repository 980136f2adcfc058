import Foundation
import Testing

/// No IP address and no `User-Agent` on disk or in a log, ever; erased ids in no file once a
/// checkpoint has run (docs/privacy.md). Every byte of every file under the data folder, and the
/// log, is searched for them.
@Suite("No address, agent or erased id in any file, end to end")
struct DataScanTests {
    static let agent = "ScanAgent/7.3 (marker-ua-5f1c; rv:1.0)"
    static let site = "https://scan-site.example"
    static let ipv4 = "198.51.100.77"
    static let ipv6 = "2001:db8:5ca:11::77"
    static let erasedReader = "erase-me-scan-4b1d"
    static let erasedArticle = "/scan/erased-article-9d2e"

    /// What must be in no file: the addresses as text and the IPv6 one as its 16 bytes (the
    /// IPv4 one's 4 bytes would turn up by chance in a file of some size), the agent, the site.
    static var secrets: [String: [UInt8]] {
        var needles: [String: [UInt8]] = [:]
        for text in [
            ipv4, ipv6, "2001:0db8:05ca:0011", "127.0.0.1", agent, "marker-ua-5f1c", "scan-site.example",
        ] {
            needles.merge(Privacy.spellings(of: text)) { first, _ in first }
        }
        needles["\(ipv6) (bytes)"] = [
            0x20, 0x01, 0x0D, 0xB8, 0x05, 0xCA, 0x00, 0x11, 0, 0, 0, 0, 0, 0, 0, 0x77,
        ]
        return needles
    }

    static var erased: [String: [UInt8]] {
        Privacy.spellings(of: erasedReader).merging(Privacy.spellings(of: erasedArticle)) { first, _ in first
        }
    }

    @Test(
        "after ingest, erasures and a checkpoint (a clean stop), neither the data folder nor the log holds an address, the agent or an erased id"
    )
    func scan() throws {
        let folder = try TemporaryDirectory()
        let arguments = [
            "--trusted-proxies", "127.0.0.1", "--api-token", Privacy.token, "--log-requests", "true",
        ]
        let server = try ServerProcess(store: folder.sqliteStore, arguments: arguments)
        let port = server.port
        let now = Privacy.nowMs
        for address in [Self.ipv4, Self.ipv6] {
            let headers = Privacy.browser(agent: Self.agent, origin: Self.site, forwardedFor: address)
            let batch = (0..<3).map {
                Privacy.event(article: "/scan/kept-\($0)", timeMs: now - Int64($0) * 86_400_000)
            }
            #expect(
                try Privacy.post("[" + batch.joined(separator: ",") + "]", port: port, headers: headers)
                    .status == 202)
            for article in ["/scan/kept-0", Self.erasedArticle] {
                #expect(
                    try Privacy.post(Privacy.event(article: article), port: port, headers: headers).status
                        == 202)
                let named = Privacy.event(article: article, reader: Self.erasedReader, y: 700)
                #expect(try Privacy.post(named, port: port, headers: headers).status == 202)
            }
            // Errors too: a refused event and a refused erasure.
            #expect(try Privacy.post("{", port: port, headers: headers).status == 400)
            let unauthorized = try Privacy.send("DELETE", "/v1/readers/x", port: port, headers: headers)
            #expect(unauthorized.status == 401)
        }
        #expect(try Privacy.readers("/scan/kept-0", port: port, headers: Privacy.bearer) == 3)

        // While the service runs, the journal holds what came in: still no address nor agent.
        // The request log is written every 100 ms: the last request's line says the rest is out.
        #expect(eventually { server.standardError.contains("GET /v1/articles/{article}/stats 200") })
        try Self.expectClean(folder: folder.url, log: server.standardError, of: Self.secrets)

        #expect(try Privacy.erase("/v1/readers/\(Self.erasedReader)", port: port).status == 200)
        let erasedArticle = "/v1/articles/\(Scenario.segment(Self.erasedArticle))"
        #expect(try Privacy.erase(erasedArticle, port: port) == (200, 1, 2))
        #expect(try Privacy.readers("/scan/kept-0", port: port, headers: Privacy.bearer) == 2)
        #expect(server.stop() == 0)
        let log = server.standardError
        #expect(log.contains("DELETE /v1/readers/{reader} 200"), "\(log)")
        try Self.expectClean(
            folder: folder.url, log: log, of: Self.secrets.merging(Self.erased) { a, _ in a })

        // Started again, the store holds the same, and still nothing of the above.
        let restarted = try ServerProcess(store: folder.sqliteStore, arguments: arguments)
        #expect(try Privacy.readers("/scan/kept-0", port: restarted.port, headers: Privacy.bearer) == 2)
        #expect(try Privacy.stats(Self.erasedArticle, port: restarted.port, headers: Privacy.bearer) == nil)
        #expect(restarted.stop() == 0)
        try Self.expectClean(
            folder: folder.url, log: restarted.standardError,
            of: Self.secrets.merging(Self.erased) { a, _ in a })
    }

    static func expectClean(folder: URL, log: String, of needles: [String: [UInt8]]) throws {
        let files = try Privacy.files(under: folder)
        // The scan sees what the store keeps: the ids of the articles kept are there.
        #expect(
            files.contains { Privacy.contains($0.bytes, Array("/scan/kept-1".utf8)) },
            "the scan reads the store")
        for file in files {
            let found = Privacy.found(needles, in: file.bytes)
            #expect(found.isEmpty, "\(file.path) holds \(found)")
        }
        let inLog = Privacy.found(needles, in: Array(log.utf8))
        #expect(inLog.isEmpty, "the log holds \(inLog):\n\(log)")
    }
}
