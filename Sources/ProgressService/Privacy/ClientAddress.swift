import HTTPServer

extension TrustedProxies {
    /// The address a request comes from (docs/privacy.md, "The client address"): the peer's, or —
    /// when the peer is a trusted proxy — the right-most address of `X-Forwarded-For` that is
    /// not a trusted proxy. It keys the derived reader id and the rate limit, and is never
    /// written anywhere.
    ///
    /// Every `X-Forwarded-For` field counts, in order, as one list: a proxy may add a field of its
    /// own rather than extend the client's. Walking from the right, each trusted address vouches
    /// for the entry to its left. When every entry is trusted the left-most is the client. An
    /// entry that is not an address (`unknown`, a name, garbage) ends the walk at the trusted hop
    /// that wrote it, since whatever stands further left no trusted proxy vouched for. `nil` only
    /// when the peer's address is unknown.
    func clientAddress(of request: HTTPRequest) -> IPAddress? {
        guard let peer = request.peerAddress else { return nil }
        guard !isEmpty, contains(peer) else { return peer }
        let fields = request.headers(named: "X-Forwarded-For")
        guard !fields.isEmpty else { return peer }
        var client = peer
        for field in fields.reversed() {
            for entry in field.split(separator: ",", omittingEmptySubsequences: false).reversed() {
                let trimmed = entry.trimmingSpaces
                // An empty element of a list is no element (RFC 9110, section 5.6.1).
                if trimmed.isEmpty { continue }
                guard let address = Self.forwardedAddress(trimmed) else { return client }
                client = address
                if !contains(address) { return address }
            }
        }
        return client
    }

    /// The address of one `X-Forwarded-For` entry: `192.0.2.7`, `2001:db8::1`, and with a port as
    /// some proxies write them, `192.0.2.7:443`, `[2001:db8::1]` or `[2001:db8::1]:443`.
    static func forwardedAddress(_ entry: Substring) -> IPAddress? {
        if entry.first == "[" {
            guard let close = entry.firstIndex(of: "]") else { return nil }
            let rest = entry[entry.index(after: close)...]
            guard rest.isEmpty || Self.isPort(rest) else { return nil }
            let inner = entry[entry.index(after: entry.startIndex)..<close]
            guard let address = IPAddress(inner), !address.isIPv4 || inner.contains(":") else { return nil }
            return address
        }
        if let colon = entry.firstIndex(of: ":"), entry.lastIndex(of: ":") == colon {
            // One colon: IPv4 with a port (IPv6 has at least two).
            guard Self.isPort(entry[colon...]), let address = IPAddress(entry[..<colon]), address.isIPv4
            else { return nil }
            return address
        }
        return IPAddress(entry)
    }

    /// `:` and a port number, 0…65535.
    private static func isPort(_ text: Substring) -> Bool {
        let digits = text.dropFirst()
        return text.first == ":" && (1...5).contains(digits.count)
            && digits.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
            && Int(digits).map { $0 <= 65_535 } == true
    }
}

extension ProgressService {
    /// The client the rate limit counts the request against: the resolved client address, as
    /// an IPv4 address or an IPv6 /64.
    func limiterKey(of request: HTTPRequest) -> ClientNetwork {
        // Without trusted proxies the peer is the client, taken without formatting it.
        guard !configuration.trustedProxies.isEmpty else { return request.client }
        return configuration.trustedProxies.clientAddress(of: request)?.network ?? request.client
    }
}
