import Foundation
import Testing

@testable import ProgressService

/// The log's writes when the pipe it writes to is full and signals interrupt them.
@Suite("The request log's writes", .serialized)  // installs a process-wide SIGUSR1 handler
struct RequestLogWriteTests {
    @Test("a write interrupted by a signal is tried again, not dropped")
    func interruptedWriteGoesOn() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        let (reader, writer) = (fds[0], fds[1])
        defer {
            _ = close(reader)
            _ = close(writer)
        }
        // Fill the pipe, so that the log's write blocks until the test reads.
        let flags = fcntl(writer, F_GETFL)
        _ = fcntl(writer, F_SETFL, flags | O_NONBLOCK)
        let filler = [UInt8](repeating: UInt8(ascii: "x"), count: 4096)
        var filled = 0
        while true {
            let written = filler.withUnsafeBytes { write(writer, $0.baseAddress, $0.count) }
            if written <= 0 { break }
            filled += written
        }
        _ = fcntl(writer, F_SETFL, flags)

        // A handler without SA_RESTART: a blocked write returns EINTR.
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in }
        action.sa_flags = 0
        var previous = sigaction()
        sigaction(SIGUSR1, &action, &previous)
        defer { sigaction(SIGUSR1, &previous, nil) }

        let log = RequestLog(enabled: false, fd: writer)
        let logger = LoggerThread { log.lifecycle("the line after the signal") }
        // Interrupt the blocked write a few times over.
        let storm = Date().addingTimeInterval(0.3)
        while Date() < storm {
            logger.signal(SIGUSR1)
            Thread.sleep(forTimeInterval: 0.005)
        }

        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        let deadline = Date().addingTimeInterval(5)
        while !String(decoding: received, as: UTF8.self).contains("the line after the signal"),
            Date() < deadline
        {
            var ready = pollfd(fd: reader, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, 100) > 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { read(reader, $0.baseAddress, $0.count) }
            if count > 0 { received += buffer[..<count] }
        }
        let arrived = String(decoding: received, as: UTF8.self).contains("the line after the signal")
        #expect(arrived, "\(received.count - filled) bytes came after the \(filled) that filled the pipe")
        logger.join()
    }

    @Test("stop writes out the request lines still waiting, and the flusher with them stops")
    func stopFlushes() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        let (reader, writer) = (fds[0], fds[1])
        defer {
            _ = close(reader)
            _ = close(writer)
        }
        let log = RequestLog(enabled: true, fd: writer)
        log.start()
        log.request(
            method: "GET", route: .unmatched, status: 404, nanoseconds: 1_000, endedAt: MonotonicClock.now())
        log.stop(within: 5)
        var buffer = [UInt8](repeating: 0, count: 4096)
        var ready = pollfd(fd: reader, events: Int16(POLLIN), revents: 0)
        #expect(poll(&ready, 1, 0) == 1, "the line is out as soon as stop returns")
        let count = buffer.withUnsafeMutableBytes { read(reader, $0.baseAddress, $0.count) }
        #expect(
            String(decoding: buffer[..<max(0, count)], as: UTF8.self).hasSuffix(
                " GET unmatched 404 0.001ms\n"))
        // Stopped: a later record waits for a flush nobody makes.
        log.request(
            method: "GET", route: .unmatched, status: 404, nanoseconds: 1_000, endedAt: MonotonicClock.now())
        #expect(poll(&ready, 1, 300) == 0)
    }
}

/// A thread that runs `body` once, that a test can send signals to; it stays alive (so that a
/// signal always has a live thread to go to) until ``join()``.
private final class LoggerThread: @unchecked Sendable {
    private let started = DispatchSemaphore(value: 0)
    private let released = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private var thread = pthread_t()

    init(_ body: @escaping @Sendable () -> Void) {
        Thread.detachNewThread { [self] in
            // Threads may start with signals blocked; this one must take them.
            var signals = sigset_t()
            sigemptyset(&signals)
            sigaddset(&signals, SIGUSR1)
            pthread_sigmask(SIG_UNBLOCK, &signals, nil)
            thread = pthread_self()
            started.signal()
            body()
            released.wait()
            finished.signal()
        }
        started.wait()
    }

    func signal(_ number: Int32) {
        _ = pthread_kill(thread, number)
    }

    func join() {
        released.signal()
        _ = finished.wait(timeout: .now() + 10)
    }
}
