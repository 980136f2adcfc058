public import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// How a ``Reporter`` reaches the service: one `POST` of a JSON body, its answer or a thrown
/// network error. ``URLSessionTransport`` in an app; a test wraps it to watch requests or to
/// inject the faults a network has.
public protocol Transport: Sendable {
    /// Posts `body` (`Content-Type: application/json`) to `url` and returns the answer, whatever
    /// its status; throws when no answer came within `timeout` or the connection failed.
    func post(_ body: Data, to url: URL, timeout: Duration) async throws -> TransportResponse
}

/// An HTTP answer as a ``Reporter`` reads it.
public struct TransportResponse: Sendable, Hashable {
    /// The status code, such as 202.
    public var status: Int
    /// Header fields by lower-cased name.
    public var headers: [String: String]
    /// The body, as received.
    public var body: Data

    /// Creates an answer; header names are lower-cased.
    public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }) { first, _ in first }
        self.body = body
    }

    /// The value of header field `name`, whatever its case.
    public func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// ``Transport`` over `URLSession`: an ephemeral session with no cookies and no cache, one
/// connection to the host, no waiting for connectivity (a failed request is retried later).
public final class URLSessionTransport: Transport {
    private let session: URLSession

    /// Creates the transport with a session of its own.
    public init() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpMaximumConnectionsPerHost = 1
        #if !canImport(FoundationNetworking)
            // Fail at once when offline: the events wait on disk, not inside URLSession.
            configuration.waitsForConnectivity = false
        #endif
        session = URLSession(configuration: configuration)
    }

    deinit { session.finishTasksAndInvalidate() }

    public func post(_ body: Data, to url: URL, timeout: Duration) async throws -> TransportResponse {
        var request = URLRequest(
            url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout.seconds)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = body
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name] = value }
        }
        return TransportResponse(status: http.statusCode, headers: headers, body: data)
    }
}
