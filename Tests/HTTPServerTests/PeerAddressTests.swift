import Testing

@testable import HTTPServer

#if canImport(Glibc)
    import Glibc
#endif

@Suite("PeerAddress: the client an address stands for")
struct PeerAddressTests {
    static func ipv6(_ text: String) -> PeerAddress {
        var address = in6_addr()
        #expect(inet_pton(AF_INET6, text, &address) == 1)
        return .address(IPAddress(ipv6: address))
    }

    @Test("IPv4 whole, IPv6 by its /64, IPv4 mapped into IPv6 as IPv4")
    func clients() {
        let ipv4 = PeerAddress.address(IPAddress(ipv4: inet_addr("192.0.2.7"))).client
        #expect(ipv4.description == "192.0.2.7")
        #expect(Self.ipv6("2001:db8:1:2:aaaa:bbbb:cccc:dddd").client.description == "2001:db8:1:2::/64")
        #expect(Self.ipv6("2001:db8:1:2::1").client == Self.ipv6("2001:db8:1:2:ffff::9").client)
        #expect(Self.ipv6("2001:db8:1:2::1").client != Self.ipv6("2001:db8:1:3::1").client)
        #expect(Self.ipv6("2001:db8:1:3::1").client.description == "2001:db8:1:3::/64")
        #expect(Self.ipv6("::ffff:192.0.2.7").client == ipv4)
        #expect(Self.ipv6("::ffff:192.0.2.8").client != ipv4)
        #expect(Self.ipv6("::1").client.description == "::/64")
        #expect(PeerAddress.text("10.0.0.1").client == .text("10.0.0.1"))
        #expect(PeerAddress.none.client == .text(""))
        // The address itself is left as it was; one mapped into IPv6 reads as IPv4.
        #expect(Self.ipv6("2001:db8:1:2:aaaa:bbbb:cccc:dddd").text == "2001:db8:1:2:aaaa:bbbb:cccc:dddd")
        #expect(Self.ipv6("::ffff:192.0.2.7").text == "192.0.2.7")
        #expect(PeerAddress.address(IPAddress(ipv4: inet_addr("192.0.2.7"))).text == "192.0.2.7")
    }
}
