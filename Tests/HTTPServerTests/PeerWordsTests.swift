import Testing

@testable import HTTPServer

#if canImport(Glibc)
    import Glibc
#endif

@Suite("A peer's address as bytes, and header fields given more than once")
struct PeerWordsTests {
    @Test("IPv4 mapped into ::ffff:0:0/96, IPv6 as its 16 bytes, big-endian halves; text read the same")
    func words() throws {
        let ipv4 = try #require(PeerAddress.ipv4(inet_addr("192.0.2.7")).words)
        #expect(ipv4.high == 0 && ipv4.low == 0x0000_FFFF_C000_0207)
        var address = in6_addr()
        #expect(inet_pton(AF_INET6, "2001:db8::1:2", &address) == 1)
        let ipv6 = try #require(PeerAddress.ipv6(address).words)
        #expect(ipv6.high == 0x2001_0DB8_0000_0000 && ipv6.low == 0x0000_0000_0001_0002)
        #expect(PeerAddress.text("192.0.2.7").words.map { [$0.high, $0.low] } == [ipv4.high, ipv4.low])
        #expect(PeerAddress.text("2001:db8::1:2").words.map { [$0.high, $0.low] } == [ipv6.high, ipv6.low])
        #expect(
            PeerAddress.text("::ffff:192.0.2.7").words.map { [$0.high, $0.low] } == [ipv4.high, ipv4.low])
        #expect(PeerAddress.text("example.com").words == nil)
        #expect(PeerAddress.none.words == nil)
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
