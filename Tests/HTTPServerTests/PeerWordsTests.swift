import Testing

@testable import HTTPServer

#if canImport(Glibc)
    import Glibc
#endif

@Suite("A peer's address as bytes, and header fields given more than once")
struct PeerWordsTests {
    @Test("IPv4 mapped into ::ffff:0:0/96, IPv6 as its 16 bytes, big-endian halves; text read the same")
    func words() throws {
        let ipv4 = try #require(PeerAddress.address(IPAddress(ipv4: inet_addr("192.0.2.7"))).address)
        #expect(ipv4.high == 0 && ipv4.low == 0x0000_FFFF_C000_0207)
        #expect(ipv4.isIPv4)
        var address = in6_addr()
        #expect(inet_pton(AF_INET6, "2001:db8::1:2", &address) == 1)
        let ipv6 = try #require(PeerAddress.address(IPAddress(ipv6: address)).address)
        #expect(ipv6.high == 0x2001_0DB8_0000_0000 && ipv6.low == 0x0000_0000_0001_0002)
        #expect(!ipv6.isIPv4)
        #expect(PeerAddress.text("192.0.2.7").address == ipv4)
        #expect(PeerAddress.text("2001:db8::1:2").address == ipv6)
        #expect(PeerAddress.text("::ffff:192.0.2.7").address == ipv4)
        #expect(PeerAddress.text("example.com").address == nil)
        #expect(PeerAddress.none.address == nil)
        #expect(ipv4.withBytes { Array($0) } == [192, 0, 2, 7])
        #expect(ipv6.withBytes { Array($0) }.count == 16)
        #expect(ipv6.masked(to: 32) == IPAddress("2001:db8::"))
    }

    @Test("every value of a field, in order, whatever the case of its name")
    func repeatedFields() {
        let request = HTTPRequest(
            method: "GET", path: "/",
            headers: [
                ("X-Forwarded-For", "192.0.2.1"), ("Host", "a"), ("x-forwarded-for", "192.0.2.2, 10.0.0.1"),
                ("X-Forwarded-For", ""),
            ])
        #expect(request.headers(named: "X-Forwarded-For") == ["192.0.2.1", "192.0.2.2, 10.0.0.1", ""])
        #expect(request.headers(named: "Origin").isEmpty)
    }
}
