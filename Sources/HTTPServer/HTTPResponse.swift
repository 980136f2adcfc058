/// An HTTP response to send back to the client.
public struct HTTPResponse: Sendable {
    /// The status code, such as `200`.
    public var status: Int {
        didSet { prepared = nil }
    }
    /// Header fields to send. `Content-Length` is always derived from `body` by the server, so
    /// one given here is ignored.
    public var headers: [(name: String, value: String)] {
        didSet { prepared = nil }
    }
    /// The response body (empty for none).
    public var body: [UInt8] {
        didSet { prepared = nil }
    }
    /// The libmicrohttpd response built for exactly this answer, while it is unchanged.
    private(set) var prepared: PreparedResponse?

    /// Creates a response.
    public init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The answer `prepared` holds, sent without building it again.
    public init(prepared: PreparedResponse) {
        self = prepared.response
        self.prepared = prepared
    }
}
