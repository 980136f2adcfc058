import HTTPServer
import Testing

@testable import ProgressService

@Suite("The client address: trusted proxies and X-Forwarded-For")
struct ClientAddressTests {
    static func request(from peer: String, forwardedFor fields: [String] = []) -> HTTPRequest {
        HTTPRequest(
            method: "POST", path: "/v1/events", headers: fields.map { ("X-Forwarded-For", $0) },
            remoteAddress: peer)
    }

    static func proxies(_ list: String) throws -> TrustedProxies {
        try TrustedProxies(parsing: list)
    }

    @Test("blocks: IPv4 and IPv6, with and without a prefix; bits past the prefix ignored")
    func blocks() throws {
        let trusted = try Self.proxies(" 10.0.0.0/8, 192.0.2.7 ,2001:db8::/32,::1,,172.16.5.4/12")
        #expect(trusted.blocks.count == 5)
        for inside in ["10.1.2.3", "10.255.255.255", "192.0.2.7", "2001:db8:ffff::1", "::1", "172.31.0.1"] {
            #expect(trusted.contains(try #require(IPAddress(inside))), "\(inside)")
        }
        // IPv4 in IPv6 clothing is the IPv4 address.
        #expect(trusted.contains(try #require(IPAddress("::ffff:10.9.9.9"))))
        for outside in ["11.0.0.1", "192.0.2.8", "2001:db9::1", "::2", "172.32.0.1", "9.255.255.255"] {
            #expect(!trusted.contains(try #require(IPAddress(outside))), "\(outside)")
        }
        #expect(try Self.proxies("0.0.0.0/0").contains(try #require(IPAddress("203.0.113.9"))))
        #expect(try !Self.proxies("0.0.0.0/0").contains(try #require(IPAddress("2001:db8::1"))))
        #expect(try Self.proxies("").isEmpty)
    }

    @Test(
        "a list with anything but addresses and blocks is refused, naming the entry",
        arguments: [
            "10.0.0.0/33", "::/129", "10.0.0.0/", "10.0.0.0/-1", "10.0.0.0/8/8", "10.0.0", "proxy.local",
            "10.0.0.0/ 8", "fe80::1%eth0", "10.0.0.1:80", "[::1]", "10.0.0.0/٨",
        ])
    func refused(entry: String) {
        #expect {
            try TrustedProxies(parsing: "127.0.0.1, \(entry)")
        } throws: { error in
            (error as? TrustedProxies.Invalid)?.entry == entry.trimmingCharacters(in: [" "])
        }
    }

    @Test("without trusted proxies, or from a peer that is not one, the peer is the client")
    func peer() throws {
        let spoofed = Self.request(from: "198.51.100.4", forwardedFor: ["203.0.113.9"])
        #expect(TrustedProxies.none.clientAddress(of: spoofed) == IPAddress("198.51.100.4"))
        let trusted = try Self.proxies("10.0.0.0/8")
        #expect(trusted.clientAddress(of: spoofed) == IPAddress("198.51.100.4"))
        #expect(trusted.clientAddress(of: Self.request(from: "10.0.0.1")) == IPAddress("10.0.0.1"))
        #expect(
            trusted.clientAddress(of: Self.request(from: "10.0.0.1", forwardedFor: [" "]))
                == IPAddress("10.0.0.1"))
    }

    @Test("from a trusted peer: the right-most entry that is no trusted proxy")
    func rightMostUntrusted() throws {
        let trusted = try Self.proxies("10.0.0.0/8, 2001:db8:cafe::/48")
        let cases: [([String], String)] = [
            (["203.0.113.9"], "203.0.113.9"),
            // What the client wrote itself stands left of what the proxies vouch for.
            (["1.1.1.1, 203.0.113.9"], "203.0.113.9"),
            (["1.1.1.1, 203.0.113.9, 10.0.0.2"], "203.0.113.9"),
            (["1.1.1.1,203.0.113.9 ,\t10.0.0.2, 10.0.0.3"], "203.0.113.9"),
            // A proxy that adds a field of its own rather than extend the client's.
            (["1.1.1.1", "203.0.113.9"], "203.0.113.9"),
            (["1.1.1.1, 203.0.113.9", "10.0.0.2"], "203.0.113.9"),
            // Every entry trusted: the left-most.
            (["10.0.0.5, 10.0.0.2"], "10.0.0.5"),
            // Empty elements are no elements.
            (["203.0.113.9,, 10.0.0.2,"], "203.0.113.9"),
            // Ports and brackets as some proxies write them.
            (["203.0.113.9:51234"], "203.0.113.9"),
            (["[2001:db8::7]:443, 10.0.0.2"], "2001:db8::7"),
            (["[2001:db8::7]"], "2001:db8::7"),
            (["2001:db8::7, 2001:db8:cafe::1"], "2001:db8::7"),
            (["::ffff:203.0.113.9"], "203.0.113.9"),
        ]
        for (fields, expected) in cases {
            let request = Self.request(from: "10.0.0.1", forwardedFor: fields)
            #expect(trusted.clientAddress(of: request) == IPAddress(expected), "\(fields)")
        }
    }

    @Test("an entry that is no address ends the walk at the trusted hop that wrote it")
    func malformed() throws {
        let trusted = try Self.proxies("10.0.0.0/8")
        let cases: [([String], String)] = [
            (["unknown"], "10.0.0.1"),
            (["203.0.113.9, unknown"], "10.0.0.1"),
            (["203.0.113.9, garbage, 10.0.0.2"], "10.0.0.2"),
            (["203.0.113.9, 10.0.0.2, 300.1.1.1"], "10.0.0.1"),
            (["203.0.113.9, [2001:db8::1"], "10.0.0.1"),
            (["203.0.113.9:99999"], "10.0.0.1"),
            (["203.0.113.9:"], "10.0.0.1"),
            (["fe80::1%eth0"], "10.0.0.1"),
            (["\"203.0.113.9\""], "10.0.0.1"),
            (["[203.0.113.9]"], "10.0.0.1"),
        ]
        for (fields, expected) in cases {
            let request = Self.request(from: "10.0.0.1", forwardedFor: fields)
            #expect(trusted.clientAddress(of: request) == IPAddress(expected), "\(fields)")
        }
    }

    @Test("the rate limit counts the resolved client: IPv4 whole, IPv6 by its /64")
    func networks() throws {
        #expect(try #require(IPAddress("203.0.113.9")).network.description == "203.0.113.9")
        let a = try #require(IPAddress("2001:db8:1:2::1")).network
        #expect(a == (try #require(IPAddress("2001:db8:1:2:ffff::9")).network))
        #expect(a != (try #require(IPAddress("2001:db8:1:3::1")).network))
        #expect(a.description == "2001:db8:1:2::/64")
        #expect(try #require(IPAddress("::ffff:203.0.113.9")).network.description == "203.0.113.9")
    }

    @Test("a peer's address read from its bytes is the address its text names")
    func peerWords() throws {
        for text in ["127.0.0.1", "::1", "2001:db8::7", "::ffff:192.0.2.1"] {
            let request = HTTPRequest(method: "GET", path: "/", remoteAddress: text)
            #expect(request.peerAddress == IPAddress(text), "\(text)")
        }
        #expect(HTTPRequest(method: "GET", path: "/", remoteAddress: "").peerAddress == nil)
    }
}
