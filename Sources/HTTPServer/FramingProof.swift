import CMicroHTTPD
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The proof, made when the server starts and before it listens, that the refusals of
/// docs/proxies.md hold on the libmicrohttpd it runs on.
///
/// Some of them (a folded field, a NUL, a bare LF) rest on how libmicrohttpd lays out the head
/// it has read (``HeadLayout``), which only a known version does as expected; the others on how
/// it splits the fields it hands over. So rather than trust a version number, the proof starts
/// a daemon as the server would, hands it one connection per request of ``cases`` over a socket
/// pair, and looks at what comes back: each refused request must never reach the responder, and
/// each well-formed neighbour must, which also shows that the proof itself works.
package struct FramingProof: Sendable {
    /// The libmicrohttpd version the server runs on, as the proof saw it.
    package let version: String
    /// Each case whose outcome was not the one expected, with what happened instead.
    package let failures: [(name: String, outcome: String)]

    /// Whether every case came out as expected.
    package var holds: Bool { failures.isEmpty }

    /// What failed, and why, in one paragraph for an operator.
    package var summary: String {
        var text =
            "on libmicrohttpd \(version) the framing refusals of docs/proxies.md do not all hold: "
            + failures.map { "\($0.name) (\($0.outcome))" }.joined(separator: "; ")
        if !HeadLayout.isKnown(version: version) {
            text +=
                ". The checks that read the head where libmicrohttpd keeps it know how version "
                + HeadLayout.knownVersion + " lays it out, and are off on any other"
        }
        return text
    }

    /// Runs the proof with the limits of `configuration` and the head checks `version` allows.
    package static func make(_ configuration: HTTPServerConfiguration, version: String) -> FramingProof {
        let recorder = ProbeResponder()
        let core = ServerCore(
            responder: recorder, maxBodyBytes: configuration.maxBodyBytes, libraryVersion: version)
        var probing = configuration
        probing.threads = 1
        // The limits on connections are not what is proven, and libmicrohttpd may not yet have
        // let go of one case's connection when the next comes (0: no limit).
        probing.perIPConnectionLimit = 0
        probing.connectionLimit = max(configuration.connectionLimit, 64)
        let daemon: OpaquePointer
        do {
            daemon = try core.startDaemon(probing, listening: nil)
        } catch {
            return FramingProof(version: version, failures: [("the proof itself", error.description)])
        }
        defer { MHD_stop_daemon(daemon) }
        // Each answer comes within microseconds; the bounds are for a machine under load (or
        // under valgrind), and for a library that leaves a request waiting.
        let end = ContinuousClock.now + .seconds(10)
        var failures: [(name: String, outcome: String)] = []
        for framing in cases {
            let before = recorder.served.load(ordering: .sequentiallyConsistent)
            let deadline = min(end, ContinuousClock.now + .seconds(2))
            let outcome = ProbeConnection.exchange(Array(framing.bytes.utf8), with: daemon, until: deadline)
            let reached = recorder.served.load(ordering: .sequentiallyConsistent) != before
            if let outcome = framing.failure(outcome, reachedResponder: reached) {
                failures.append((framing.name, outcome))
            }
        }
        return FramingProof(version: version, failures: failures)
    }
}

/// One request of the proof, and whether the server is to serve or refuse it.
struct ProofCase: Sendable {
    let name: String
    let bytes: String
    /// The status of a refusal, or `nil` for a request to be served.
    let refusal: Int?

    /// What went wrong, given what came back and whether the request, or one smuggled in it,
    /// reached the responder; `nil` when the case came out as expected.
    func failure(_ outcome: ProbeConnection.Outcome, reachedResponder: Bool) -> String? {
        switch (outcome, refusal) {
        case (.unsent, _): return "the request could not be handed to libmicrohttpd"
        case (.silent, _): return "no answer within the proof's time"
        case (_, let refusal?) where reachedResponder: return "served, where \(refusal) was due"
        case (_, .some): return nil
        case (.answered(200), nil) where reachedResponder: return nil
        case (.answered(let status), nil): return "a well-formed request was answered \(status)"
        case (.closed, nil): return "a well-formed request had its connection closed unanswered"
        }
    }
}

extension FramingProof {
    private static func refused(_ name: String, _ fields: [String], body: String = "", status: Int = 400)
        -> ProofCase
    {
        ProofCase(name: name, bytes: post(fields, body: body), refusal: status)
    }

    private static func post(_ fields: [String], body: String, version: String = "HTTP/1.1") -> String {
        "POST /proof \(version)\r\n" + fields.map { $0 + "\r\n" }.joined() + "\r\n" + body
    }

    private static let smuggled = "GET /smuggled HTTP/1.1\r\nHost: t\r\n\r\n"
    private static let chunked = "5\r\nhello\r\n0\r\n\r\n"

    /// A request for each refusal of docs/proxies.md, and the well-formed neighbours that must
    /// still be served.
    static let cases: [ProofCase] = [
        refused(
            "Content-Length with Transfer-Encoding",
            ["Host: t", "Content-Length: 5", "Transfer-Encoding: chunked"], body: chunked + smuggled),
        refused(
            "Content-Length twice", ["Host: t", "Content-Length: 5", "Content-Length: 40"], body: "hello"),
        refused("a final coding other than chunked", ["Host: t", "Transfer-Encoding: chunked, identity"]),
        refused("chunked twice", ["Host: t", "Transfer-Encoding: chunked, chunked"]),
        refused("a parameter on chunked", ["Host: t", "Transfer-Encoding: chunked;q=1"]),
        refused("a coding before chunked", ["Host: t", "Transfer-Encoding: gzip, chunked"], status: 501),
        refused("Transfer-Encoding not exactly chunked", ["Host: t", "Transfer-Encoding: chunked "]),
        ProofCase(
            name: "Transfer-Encoding in HTTP/1.0",
            bytes: post(["Host: t", "Transfer-Encoding: chunked"], body: chunked, version: "HTTP/1.0"),
            refusal: 400),
        refused("HTTP/1.1 without Host", ["Content-Length: 5"], body: "hello"),
        refused("Host twice", ["Host: a", "Host: b"]),
        refused("a Host that is not a host", ["Host: a b"]),
        refused("whitespace before a colon", ["Host: t", "Content-Length : 5"], body: "hello" + smuggled),
        refused(
            "a folded field (obs-fold)", ["Host: t", "X-Folded: a", " b", "Content-Length: 5"], body: "hello"),
        refused("a folded Content-Length (obs-fold)", ["Host: t", "Content-Length: 5", " 0"], body: "hello"),
        refused("whitespace before the first field", [" Host: t"]),
        refused("an empty field name", ["Host: t", ": value"]),
        refused("a field name that is not a token", ["Host: t", "X(y): 1"]),
        refused("a NUL in a value", ["Host: t", "X-Nul: a\u{0}b"]),
        refused(
            "a NUL ending Content-Length", ["Host: t", "Content-Length: 5\u{0}0"], body: "hello" + smuggled),
        refused("a bare CR in a value", ["Host: t", "X-CR: a\rContent-Length: 5"], body: "hello"),
        refused("a control character in a value", ["Host: t", "X-Bell: a\u{7}b"]),
        ProofCase(
            name: "a bare LF ending a header line",
            bytes: "POST /proof HTTP/1.1\r\nHost: t\nContent-Length: 5\r\n\r\nhello", refusal: 400),
        ProofCase(
            name: "a bare LF ending the request line", bytes: "POST /proof HTTP/1.1\nHost: t\r\n\r\n",
            refusal: 400),
        ProofCase(name: "a space in the target", bytes: "GET /a b HTTP/1.1\r\nHost: t\r\n\r\n", refusal: 400),
        ProofCase(
            name: "two spaces in the request line", bytes: "GET  /a HTTP/1.1\r\nHost: t\r\n\r\n", refusal: 400
        ),
        ProofCase(
            name: "Content-Length alone", bytes: post(["Host: t", "Content-Length: 5"], body: "hello"),
            refusal: nil),
        ProofCase(
            name: "Transfer-Encoding: chunked alone",
            bytes: post(["Host: t", "Transfer-Encoding: Chunked"], body: chunked), refusal: nil),
        ProofCase(
            name: "HTTP/1.0 without Host",
            bytes: post(["Content-Length: 5"], body: "hello", version: "HTTP/1.0"), refusal: nil),
        ProofCase(
            name: "tabs, UTF-8 and a long value",
            bytes: post(
                [
                    "Host: t", "X-Name:\tZoë\t", "X-Long: " + String(repeating: "x", count: 2_000),
                    "Content-Length: 0",
                ],
                body: ""),
            refusal: nil),
    ]
}

/// Answers every request it is handed 200, and counts them.
private final class ProbeResponder: HTTPResponder {
    let served = Atomic<Int>(0)

    func respond(to request: HTTPRequest, reply: @escaping @Sendable (HTTPResponse) -> Void) {
        served.add(1, ordering: .sequentiallyConsistent)
        reply(HTTPResponse(status: 200))
    }

    func bodyTooLarge(_ request: HTTPRequest) -> HTTPResponse {
        HTTPResponse(status: 413)
    }
}
