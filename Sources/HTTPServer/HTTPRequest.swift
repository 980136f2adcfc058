/// One HTTP request, complete with its body, as it arrived on the wire.
///
/// The path and query are left exactly as the client sent them (still percent-encoded), so
/// an encoded `/` inside a path segment (`%2F`) can be told apart from a segment separator.
public struct HTTPRequest: Sendable {
    /// The request method, such as `"GET"` or `"POST"`.
    public var method: String
    /// The raw request path, still percent-encoded, without the query.
    public var path: String
    /// The raw query string after `?`, still percent-encoded; `nil` when there was no `?`.
    public var query: String?
    /// The request body (empty when there was none).
    public var body: [UInt8]
    var fields: HeaderFields
    var peer: PeerAddress

    /// The header fields in the order they were received.
    ///
    /// Built on each call: to look one up, ``header(_:)`` is cheaper.
    public var headers: [(name: String, value: String)] {
        get { fields.pairs }
        set { fields = HeaderFields(newValue) }
    }

    /// The peer's IP address, such as `"127.0.0.1"` or `"::1"` (formatted on each call; an IPv4
    /// address mapped into IPv6 reads as IPv4).
    public var remoteAddress: String {
        get { peer.text }
        set { peer = .text(newValue) }
    }

    /// The peer's address, without formatting it; `nil` when unknown.
    public var peerAddress: IPAddress? { peer.address }

    /// The client the peer's address stands for (see ``ClientNetwork``): what a per-client limit
    /// should count by.
    public var client: ClientNetwork { peer.client }

    /// Creates a request; the server builds these from the wire, tests build them by hand.
    public init(
        method: String, path: String, query: String? = nil,
        headers: [(name: String, value: String)] = [], body: [UInt8] = [],
        remoteAddress: String = "127.0.0.1"
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.body = body
        self.fields = HeaderFields(headers)
        self.peer = .text(remoteAddress)
    }

    /// A request for the server to fill in as its parts arrive.
    init(path: String, query: String?) {
        method = ""
        self.path = path
        self.query = query
        body = []
        fields = HeaderFields()
        peer = .none
    }

    /// The value of the first header field called `name`, compared case-insensitively.
    public func header(_ name: String) -> String? {
        fields.value(named: name)
    }

    /// The values of every header field called `name` (compared case-insensitively), in the
    /// order received.
    public func headers(named name: String) -> [String] {
        fields.values(named: name)
    }

    /// `classify` applied to the bytes of the first header field called `name` (compared
    /// case-insensitively), without making a `String`; `nil` when there is none. An `Int`, not a
    /// generic result: across the module boundary a generic one cost more than the `String`.
    public func withHeader(_ name: String, _ classify: (UnsafeRawBufferPointer) -> Int) -> Int? {
        fields.withValue(named: name, classify)
    }
}
