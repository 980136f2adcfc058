import Foundation
import Testing

/// Helpers of the privacy suites: events with or without a reader, sent as a browser would —
/// with `User-Agent`, `Origin` and, through a trusted proxy, `X-Forwarded-For`.
enum Privacy {
    static let token = "privacy-token"
    static let bearer = [("Authorization", "Bearer \(token)")]

    static var nowMs: Int64 { Int64(Date().timeIntervalSince1970 * 1000) }

    /// An event of `article`, by `reader` (none: the service derives one), at `timeMs` (none:
    /// when it is received).
    static func event(article: String, reader: String? = nil, y: Int = 300, timeMs: Int64? = nil) -> String {
        var json = #"{"article":\#(Scenario.quote(article)),"#
        if let reader { json += #""reader":\#(Scenario.quote(reader)),"# }
        json += #""contentOffset":{"x":0,"y":\#(y)},"contentSize":{"width":400,"height":2000},"#
        json += #""containerSize":{"width":400,"height":1000}"#
        if let timeMs { json += #","time":\#(timeMs)"# }
        return json + "}"
    }

    /// The header fields of a browser: its agent, its page's origin, and the address a proxy
    /// says it came from.
    static func browser(agent: String?, origin: String?, forwardedFor: String? = nil) -> [(String, String)] {
        var headers: [(String, String)] = []
        if let agent { headers.append(("User-Agent", agent)) }
        if let origin { headers.append(("Origin", origin)) }
        if let forwardedFor { headers.append(("X-Forwarded-For", forwardedFor)) }
        return headers
    }

    /// Posts `body` on a new connection (from `sourceAddress`, when given) with `headers`.
    static func post(
        _ body: String, port: UInt16, headers: [(String, String)] = [],
        contentType: String = "application/json",
        sourceAddress: String? = nil
    ) throws -> HTTPClient.Response {
        try Connection(port: port, sourceAddress: sourceAddress).exchange(
            method: "POST", target: "/v1/events", headers: [("Content-Type", contentType)] + headers,
            body: Array(body.utf8))
    }

    /// Sends `method` to `target` on a new connection.
    static func send(_ method: String, _ target: String, port: UInt16, headers: [(String, String)] = [])
        throws -> HTTPClient.Response
    {
        try Connection(port: port).exchange(method: method, target: target, headers: headers, body: [])
    }

    /// The stats of `article` (with `query`), as JSON; `nil` for 404.
    static func stats(_ article: String, port: UInt16, query: String = "", headers: [(String, String)] = [])
        throws -> [String: Any]?
    {
        let target = "/v1/articles/\(Scenario.segment(article))/stats" + (query.isEmpty ? "" : "?\(query)")
        let response = try send("GET", target, port: port, headers: headers)
        if response.status == 404 { return nil }
        guard response.status == 200 else {
            throw TestFailure("stats of \(article): \(response.status) \(response.text)")
        }
        return try response.json
    }

    /// Readers of `article` over all time (0 when it is unknown).
    static func readers(_ article: String, port: UInt16, headers: [(String, String)] = []) throws -> Int {
        try stats(article, port: port, headers: headers)?["readers"] as? Int ?? 0
    }

    /// `DELETE` of a reader or an article: the `erased` counts of a 200, or the status.
    static func erase(_ path: String, port: UInt16, headers: [(String, String)] = bearer) throws -> (
        status: Int, articles: Int?, readerDays: Int?
    ) {
        let response = try send("DELETE", path, port: port, headers: headers)
        guard response.status == 200 else { return (response.status, nil, nil) }
        let erased = try response.json["erased"] as? [String: Any]
        return (200, erased?["articles"] as? Int, erased?["readerDays"] as? Int)
    }

    /// Every regular file under `folder`, with its bytes.
    static func files(under folder: URL) throws -> [(path: String, bytes: [UInt8])] {
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else {
            return []
        }
        var files: [(String, [UInt8])] = []
        for case let url as URL in walker {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder),
                !isFolder.boolValue
            else { continue }
            files.append((url.path, Array(try Data(contentsOf: url))))
        }
        return files
    }

    /// The needles found in `haystack`, as text (UTF-8 and UTF-16, either byte order) or bytes.
    static func found(_ needles: [String: [UInt8]], in haystack: [UInt8]) -> [String] {
        needles.filter { contains(haystack, $0.value) }.map(\.key).sorted()
    }

    /// A needle for each spelling of `text` a file could hold it in.
    static func spellings(of text: String) -> [String: [UInt8]] {
        let utf16 = Array(text.utf16)
        return [
            "\(text) (UTF-8)": Array(text.utf8),
            "\(text) (UTF-16LE)": utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] },
            "\(text) (UTF-16BE)": utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] },
        ]
    }

    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty else { return false }
        return haystack.withUnsafeBytes { hay in
            needle.withUnsafeBytes { pin in
                memmem(hay.baseAddress, hay.count, pin.baseAddress, pin.count) != nil
            }
        }
    }

    /// Runs the executable with `arguments` to its exit: its status and standard error.
    static func run(_ arguments: [String]) throws -> (status: Int32, errors: String) {
        let outcome = try ChildProcess.run(ServerProcess.executable.path, arguments)
        return (outcome.status, outcome.errorText)
    }
}

/// glibc's `memmem(3)`, a GNU extension the Glibc module leaves out.
@_silgen_name("memmem")
private func memmem(
    _ haystack: UnsafeRawPointer?, _ haystackLength: Int, _ needle: UnsafeRawPointer?, _ needleLength: Int
) -> UnsafeMutableRawPointer?
