import HTTPServer

/// A successful answer before the service adds the headers every answer carries.
struct Reply: Sendable {
    var status: Int
    var body: [UInt8]
    var contentType = "application/json"
    var headers: [(name: String, value: String)] = []
    /// This answer, rendered and built into a libmicrohttpd response once, for requests without
    /// `Origin` (whose answers carry no CORS fields that vary).
    var prepared: PreparedReply?

    static func json(_ status: Int, _ writer: JSONWriter) -> Reply {
        Reply(status: status, body: writer.bytes)
    }

    static func noContent(headers: [(name: String, value: String)] = []) -> Reply {
        Reply(status: 204, body: [], contentType: "", headers: headers)
    }
}

/// A kept answer built once, as it is and, when it is large enough to gain, gzipped for the
/// clients that accept it (docs/api.md, "Compression").
struct PreparedReply: Sendable {
    var identity: PreparedResponse
    var gzip: PreparedResponse?

    /// Bodies below this many bytes are sent as they are: compressing them saves little.
    static let gzipMinimumBytes = 512

    /// The response for a client that does or does not accept gzip.
    func response(acceptingGzip: Bool) -> PreparedResponse {
        acceptingGzip ? gzip ?? identity : identity
    }
}

/// How a route hands back its answer, now or from another thread later.
typealias Completion = @Sendable (Result<Reply, APIError>) -> Void

extension Result where Success == Reply, Failure == APIError {
    /// The status the client will see.
    var status: Int {
        switch self {
        case .success(let reply): return reply.status
        case .failure(let error): return error.status
        }
    }
}
