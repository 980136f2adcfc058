import Dispatch
import EmbeddedStore
import Foundation
import HTTPServer
import ProgressService
import ProgressStore
import Synchronization
import Testing

/// The service over the real embedded store in memory, asked as the HTTP server asks it: a
/// request in, a reply out, on whatever thread the service answers from. No socket and no
/// process: what the end-to-end suite covers with the executable, these tests reach directly.
final class ServiceUnderTest {
    /// 2026-11-30T12:00:00Z: the service's clock, fixed, so that event times are known.
    static let nowMs: Int64 = 20_787 * dayMs + 12 * 3_600_000
    static let dayMs: Int64 = 86_400_000

    let store: EmbeddedStore
    let service: ProgressService

    init(_ configuration: ServiceConfiguration = ServiceConfiguration()) throws {
        store = try EmbeddedStore.open(
            path: ":memory:", options: EmbeddedStore.Options(clock: { ServiceUnderTest.nowMs }))
        service = ProgressService(
            configuration: configuration, store: store, clock: { ServiceUnderTest.nowMs })
    }

    /// The service over `store` (closed with the harness).
    init(store: EmbeddedStore, _ configuration: ServiceConfiguration = ServiceConfiguration()) {
        self.store = store
        service = ProgressService(
            configuration: configuration, store: store, clock: { ServiceUnderTest.nowMs })
    }

    deinit {
        store.close()
    }

    /// Asks `method target` — the target as a client sends it, still percent-encoded — and waits
    /// for the reply, at most 10 s.
    func ask(
        _ method: String, _ target: String, headers: [(String, String)] = [],
        body: String = "", sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> Answer {
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let request = HTTPRequest(
            method: method, path: String(parts[0]), query: parts.count > 1 ? String(parts[1]) : nil,
            headers: headers.map { (name: $0.0, value: $0.1) }, body: Array(body.utf8))
        let reply = Reply()
        service.respond(to: request) { reply.set($0) }
        let response = try #require(
            reply.wait(seconds: 10), "no reply to \(method) \(target)", sourceLocation: sourceLocation)
        return Answer(response: response)
    }

    func get(_ target: String, headers: [(String, String)] = []) throws -> Answer {
        try ask("GET", target, headers: headers)
    }

    /// POSTs `body` as JSON (or as `contentType`).
    func post(
        _ target: String, _ body: String, contentType: String = "application/json",
        headers: [(String, String)] = []
    ) throws -> Answer {
        try ask("POST", target, headers: [("Content-Type", contentType)] + headers, body: body)
    }

    /// Sends `events` (JSON objects, see ``event(_:_:y:at:id:)``) as one array and expects all
    /// of them taken.
    func ingest(_ events: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let answer = try post("/v1/events", "[" + events.joined(separator: ",") + "]")
        #expect(answer.status == 202, "\(answer.text)", sourceLocation: sourceLocation)
        #expect(try answer.json()["accepted"] as? Int == events.count, sourceLocation: sourceLocation)
    }

    /// An event whose progress is `y / 1000` and whose seenDepth is `(y + 1000) / 2000`: content
    /// 2000 tall in a container 1000 tall. `at` is milliseconds before the service's clock.
    static func event(
        _ article: String, _ reader: String, y: Double = 500, at agoMs: Int64 = 60_000, engagedMs: Int = 0,
        id: String? = nil
    ) -> String {
        var json = """
            {"article":\(quoted(article)),"reader":\(quoted(reader)),"contentOffset":{"x":0,"y":\(y)},\
            "contentSize":{"width":400,"height":2000},"containerSize":{"width":400,"height":1000},\
            "engagedMs":\(engagedMs),"time":\(nowMs - agoMs)
            """
        if let id { json += #","id":\#(quoted(id))"# }
        return json + "}"
    }

    static func quoted(_ text: String) -> String {
        String(
            decoding: try! JSONSerialization.data(withJSONObject: text, options: .fragmentsAllowed),
            as: UTF8.self)
    }

    /// `article` percent-encoded as one path segment.
    static func segment(_ article: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return article.addingPercentEncoding(withAllowedCharacters: allowed)!
    }

    static func statsPath(_ article: String, _ query: String = "") -> String {
        "/v1/articles/\(segment(article))/stats" + (query.isEmpty ? "" : "?" + query)
    }
}

/// The reply of one request, once it came.
private final class Reply: Sendable {
    private let response = Mutex<HTTPResponse?>(nil)
    private let arrived = DispatchSemaphore(value: 0)

    func set(_ value: HTTPResponse) {
        response.withLock { $0 = $0 ?? value }
        arrived.signal()
    }

    func wait(seconds: Int) -> HTTPResponse? {
        guard arrived.wait(timeout: .now() + .seconds(seconds)) == .success else { return nil }
        return response.withLock { $0 }
    }
}

/// What the service answered.
struct Answer {
    let response: HTTPResponse

    var status: Int { response.status }
    var body: [UInt8] { response.body }
    var text: String { String(decoding: response.body, as: UTF8.self) }

    /// The first header field called `name`, compared case-insensitively.
    func header(_ name: String) -> String? {
        response.headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    func json() throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any], "\(text)")
    }

    /// `error.code` and `error.field` of an error answer.
    var error: (code: String?, field: String?) {
        let detail = (try? json())?["error"] as? [String: Any]
        return (detail?["code"] as? String, detail?["field"] as? String)
    }
}
