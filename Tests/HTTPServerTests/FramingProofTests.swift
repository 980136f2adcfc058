import Foundation
import Testing

@testable import HTTPServer

/// The server proves at start that its framing refusals hold on the libmicrohttpd it runs on,
/// and refuses to start when one does not, unless told to start anyway.
@Suite("The framing proof at start")
struct FramingProofTests {
    /// A configuration whose head checks assume `version` of libmicrohttpd.
    static func configuration(version: String? = nil, accepting: Bool = false) -> HTTPServerConfiguration {
        var configuration = HTTPServerConfiguration(port: 0, threads: 1, acceptsUnprovenFraming: accepting)
        if let version { configuration.libraryVersion = version }
        return configuration
    }

    @Test("on the libmicrohttpd linked every refusal holds, and the server says nothing of it")
    func holdsOnTheLinkedVersion() throws {
        let configuration = Self.configuration()
        let proof = FramingProof.make(configuration, version: configuration.libraryVersion)
        #expect(proof.holds, "\(proof.summary)")
        let server = HTTPServer(configuration: configuration, responder: TestResponder.echo)
        _ = try server.start()
        defer { server.stop() }
        #expect(server.unprovenFraming == nil)
    }

    @Test("the proof holds whatever the limits on connections")
    func holdsWithTightLimits() {
        var configuration = Self.configuration()
        configuration.perIPConnectionLimit = 1
        configuration.connectionLimit = 1
        let proof = FramingProof.make(configuration, version: configuration.libraryVersion)
        #expect(proof.holds, "\(proof.summary)")
    }

    @Test("with a version whose head layout is unknown, the refusals it loses are named, and why")
    func unknownVersionIsReported() {
        let proof = FramingProof.make(Self.configuration(), version: "99.1.0")
        #expect(!proof.holds)
        let names = proof.failures.map(\.name)
        #expect(names.contains("a folded field (obs-fold)"), "\(names)")
        #expect(names.contains("a NUL in a value"), "\(names)")
        #expect(names.contains("a bare LF ending a header line"), "\(names)")
        // Those that rest on the fields libmicrohttpd hands over still hold.
        #expect(!names.contains("Content-Length with Transfer-Encoding"), "\(names)")
        #expect(proof.failures.allSatisfy { $0.outcome == "served, where 400 was due" }, "\(proof.failures)")
        #expect(proof.summary.contains("libmicrohttpd 99.1.0"))
        #expect(proof.summary.contains("version 0.9.75 lays it out"))
    }

    @Test("the server then refuses to start, naming each refusal that does not hold")
    func unknownVersionRefusesToStart() throws {
        let server = HTTPServer(
            configuration: Self.configuration(version: "99.1.0"), responder: TestResponder.echo)
        let error = try #require(throws: HTTPServerError.self) { try server.start() }
        for name in [
            "obs-fold", "a NUL in a value", "a bare LF ending a header line", "99.1.0",
            "--accept-unproven-framing",
        ] {
            #expect(error.description.contains(name), "\(error.description)")
        }
        #expect(server.unprovenFraming == nil)
    }

    @Test(
        "told to accept unproven framing, it starts, says what does not hold, and serves what it cannot refuse"
    )
    func acceptedStartsAnyway() throws {
        let server = HTTPServer(
            configuration: Self.configuration(version: "99.1.0", accepting: true),
            responder: TestResponder.echo)
        let port = try server.start()
        defer { server.stop() }
        let warning = try #require(server.unprovenFraming)
        #expect(warning.contains("obs-fold") && warning.contains("99.1.0"), "\(warning)")
        let connection = try RawConnection(port: port)
        try connection.send(
            "POST /folded HTTP/1.1\r\nHost: t\r\nX-Folded: a\r\n b\r\nContent-Length: 2\r\n\r\nok")
        let response = try connection.readResponse()
        #expect(response.status == 200)
        #expect(response.text == "ok")
    }

    @Test(
        "a refusal holds when its request reaches no route and is answered or closed, not when it goes unanswered"
    )
    func outcomes() {
        let refused = ProofCase(name: "r", bytes: "", refusal: 400)
        let served = ProofCase(name: "s", bytes: "", refusal: nil)
        #expect(refused.failure(.answered(400), reachedResponder: false) == nil)
        #expect(refused.failure(.closed, reachedResponder: false) == nil)
        #expect(refused.failure(.answered(200), reachedResponder: true) == "served, where 400 was due")
        #expect(refused.failure(.silent, reachedResponder: false) == "no answer within the proof's time")
        #expect(refused.failure(.unsent, reachedResponder: false) != nil)
        #expect(served.failure(.answered(200), reachedResponder: true) == nil)
        #expect(
            served.failure(.answered(400), reachedResponder: false)
                == "a well-formed request was answered 400")
        #expect(served.failure(.closed, reachedResponder: false) != nil)
        #expect(served.failure(.silent, reachedResponder: false) != nil)
    }
}
