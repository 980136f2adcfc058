import Dispatch
import HTTPServer
import Synchronization
import Testing

@Suite("Asynchronous replies, timeouts and shutdown")
struct LifecycleTests {
    @Test("a reply from another thread 50 ms later is sent")
    func delayedReply() throws {
        try withServer(.delayed(0.05)) { _, port in
            let connection = try RawConnection(port: port)
            try connection.send("POST /later HTTP/1.1\r\nHost: t\r\nContent-Length: 5\r\n\r\nhello")
            let response = try connection.readResponse()
            #expect(response.status == 200)
            #expect(response.text == "hello")
        }
    }

    @Test("a one-thread server holds two pending replies at once")
    func pendingRepliesDoNotHoldTheWorker() throws {
        // Neither request is answered until both have reached the responder, which can only
        // happen if waiting for a reply leaves the single worker thread free.
        let pending = Mutex<[@Sendable () -> Void]>([])
        let responder = TestResponder { request, reply in
            let ready = pending.withLock { waiting in
                waiting.append { reply(echoResponse(request)) }
                return waiting.count == 2 ? waiting : []
            }
            for answer in ready { DispatchQueue.global().async { answer() } }
            DispatchQueue.global().asyncAfter(deadline: .now() + 3) {
                reply(HTTPResponse(status: 504))
            }
        }
        try withServer(responder, threads: 1) { _, port in
            let first = try RawConnection(port: port)
            let second = try RawConnection(port: port)
            try first.send("GET /one HTTP/1.1\r\nHost: t\r\n\r\n")
            try second.send("GET /two HTTP/1.1\r\nHost: t\r\n\r\n")
            let answers = try [first.readResponse(), second.readResponse()]
            #expect(answers.map(\.status) == [200, 200])
            #expect(answers.map { $0.header("X-Path") } == ["/one", "/two"])
        }
    }

    @Test("replies racing the suspension are never lost", arguments: [1, 4])
    func replyRace(threads: Int) throws {
        // Replying on another thread at once races the access handler's suspend; replying
        // inline and after a pause cover the other two paths.
        let counter = Atomic<Int>(0)
        let responder = TestResponder { request, reply in
            switch counter.add(1, ordering: .relaxed).newValue % 3 {
            case 0: reply(echoResponse(request))
            case 1: DispatchQueue.global().async { reply(echoResponse(request)) }
            default:
                DispatchQueue.global().asyncAfter(deadline: .now() + 0.001) {
                    reply(echoResponse(request))
                }
            }
        }
        try withServer(responder, threads: threads) { _, port in
            let connections = try (0..<4).map { _ in try RawConnection(port: port) }
            for round in 0..<100 {
                for (index, connection) in connections.enumerated() {
                    try connection.send("GET /r\(round)/c\(index) HTTP/1.1\r\nHost: t\r\n\r\n")
                }
                for (index, connection) in connections.enumerated() {
                    #expect(try connection.readResponse().header("X-Path") == "/r\(round)/c\(index)")
                }
            }
        }
    }

    @Test("a second reply is ignored")
    func secondReplyIgnored() throws {
        let responder = TestResponder { _, reply in
            reply(HTTPResponse(status: 200))
            reply(HTTPResponse(status: 500))
        }
        try withServer(responder) { _, port in
            let connection = try RawConnection(port: port)
            try connection.send("GET /a HTTP/1.1\r\nHost: t\r\n\r\nGET /b HTTP/1.1\r\nHost: t\r\n\r\n")
            #expect(try connection.readResponse().status == 200)
            #expect(try connection.readResponse().status == 200)
        }
    }

    @Test("a client that stops halfway through its headers is dropped after the timeout")
    func silentClientDropped() throws {
        try withServer(.echo, timeoutSeconds: 1) { _, port in
            let connection = try RawConnection(port: port, receiveTimeoutSeconds: 6)
            try connection.send("GET /slow HTTP/1.1\r\nHost: t\r\n")
            let started = DispatchTime.now()
            #expect(connection.isClosedByPeer())
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
            #expect(seconds > 0.5 && seconds < 4)
        }
    }

    @Test("stop() answers a request still unanswered at the end of its wait 503 in JSON, and returns")
    func stopIsBounded() throws {
        let arrived = DispatchSemaphore(value: 0)
        let held = Mutex<[@Sendable (HTTPResponse) -> Void]>([])
        let responder = TestResponder { _, reply in
            held.withLock { $0.append(reply) }
            arrived.signal()
        }
        var configuration = HTTPServerConfiguration(port: 0, threads: 1)
        configuration.drainSeconds = 0.2
        let server = HTTPServer(configuration: configuration, responder: responder)
        let port = try server.start()
        let connection = try RawConnection(port: port)
        try connection.send("GET /forever HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(arrived.wait(timeout: .now() + 5) == .success)
        let started = ContinuousClock.now
        server.stop()
        #expect(started.duration(to: .now) < .seconds(3))
        let response = try connection.readResponse()
        #expect(response.status == 503)
        #expect(response.header("Content-Type") == "application/json")
        #expect(response.text.contains(#""code":"shutting_down""#), "\(response.text)")
        // A reply after the server has stopped goes nowhere.
        for reply in held.withLock({ $0 }) { reply(HTTPResponse(status: 200)) }
    }

    @Test("stop() lets a request in flight finish, then refuses connections")
    func stopDrains() throws {
        let arrived = DispatchSemaphore(value: 0)
        let responder = TestResponder { request, reply in
            arrived.signal()
            DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) {
                reply(echoResponse(request))
            }
        }
        try withServer(responder) { server, port in
            let connection = try RawConnection(port: port)
            try connection.send("POST /inflight HTTP/1.1\r\nHost: t\r\nContent-Length: 2\r\n\r\nok")
            #expect(arrived.wait(timeout: .now() + 5) == .success)
            server.stop()
            let response = try connection.readResponse()
            #expect(response.status == 200)
            #expect(response.text == "ok")
            #expect(response.header("Connection")?.lowercased() == "close")
            #expect(throws: ConnectionError.self) { try RawConnection(port: port) }
        }
    }

    @Test("while stop() waits for a request in flight, new connections are refused at once")
    func refusesDuringDrain() throws {
        let arrived = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let responder = TestResponder { request, reply in
            arrived.signal()
            DispatchQueue.global().async {
                _ = release.wait(timeout: .now() + 5)
                reply(echoResponse(request))
            }
        }
        try withServer(responder) { server, port in
            let connection = try RawConnection(port: port)
            try connection.send("POST /inflight HTTP/1.1\r\nHost: t\r\nContent-Length: 2\r\n\r\nok")
            #expect(arrived.wait(timeout: .now() + 5) == .success)
            let stopped = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                server.stop()
                stopped.signal()
            }
            // The listening socket stays open until the daemon has stopped (libmicrohttpd's
            // threads may still use it) but takes no connection meanwhile: a client is refused
            // rather than left waiting in the backlog.
            #expect(eventually { (try? RawConnection(port: port)) == nil })
            #expect(stopped.wait(timeout: .now()) == .timedOut, "stop() waits for the request in flight")
            release.signal()
            #expect(try connection.readResponse().status == 200)
            #expect(stopped.wait(timeout: .now() + 15) == .success)
        }
    }

    @Test("starting on a port in use throws an error naming the address")
    func portInUse() throws {
        try withServer(.echo) { _, port in
            let configuration = HTTPServerConfiguration(port: port, threads: 1)
            let second = HTTPServer(configuration: configuration, responder: TestResponder.echo)
            let error = try #require(throws: HTTPServerError.self) { try second.start() }
            #expect(error.description.contains("127.0.0.1:\(port)"))
            #expect(error.description.contains("in use"))
        }
    }

    @Test("localhost is accepted as a host")
    func localhost() throws {
        let configuration = HTTPServerConfiguration(host: "localhost", port: 0, threads: 1)
        let server = HTTPServer(configuration: configuration, responder: TestResponder.echo)
        let port = try server.start()
        defer { server.stop() }
        let connection = try RawConnection(port: port)
        try connection.send("GET /here HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(try connection.readResponse().header("X-Path") == "/here")
    }
}
