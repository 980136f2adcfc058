import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Every test of the package runs in one process: a descriptor closed twice anywhere closes
/// whatever another test opened under that number meanwhile (the lowest free one, so most
/// likely the very number just closed). These tests make that meanwhile as busy as they can.
@Suite("Descriptors under concurrent tests")
struct DescriptorTests {
    @Test("a refused connection closes its socket once: what other threads open meanwhile stays open")
    func refusedConnectionClosesOnce() throws {
        let port = try Self.vacantPort()
        let stop = Atomic(false)
        let refusals = Atomic(0)
        let refusing = Thread {
            while !stop.load(ordering: .relaxed) {
                if (try? RawConnection(port: port)) == nil { refusals.add(1, ordering: .relaxed) }
            }
        }
        refusing.start()
        defer { stop.store(true, ordering: .relaxed) }
        var lost = 0
        var opened = 0
        let deadline = ContinuousClock.now + .seconds(3)
        while ContinuousClock.now < deadline || refusals.load(ordering: .relaxed) < 1000 {
            let fd = open("/dev/null", O_RDONLY | O_CLOEXEC)
            try #require(fd >= 0)
            opened += 1
            var byte: UInt8 = 0
            // A read of /dev/null is 0; -1 (EBADF) means another thread closed this number.
            if read(fd, &byte, 1) != 0 { lost += 1 }
            if close(fd) != 0 { lost += 1 }
        }
        #expect(lost == 0, "\(lost) of \(opened) descriptors closed by another thread")
    }

    @Test("servers started and stopped side by side, while connections are refused around them")
    func serversSideBySide() throws {
        let port = try Self.vacantPort()
        let stop = Atomic(false)
        let refusing = Thread {
            while !stop.load(ordering: .relaxed) { _ = try? RawConnection(port: port) }
        }
        refusing.start()
        defer { stop.store(true, ordering: .relaxed) }
        let started = Atomic(0)
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for _ in 0..<5 {
                do {
                    let server = try ServerProcess(store: "memory:")
                    started.add(1, ordering: .relaxed)
                    guard try server.client().get("/healthz").status == 200 else {
                        throw TestFailure("/healthz was not 200")
                    }
                    let status = server.stop()
                    guard status == 0 else { throw TestFailure("exit status \(status)") }
                } catch {
                    failures.withLock { $0.append(String(describing: error)) }
                }
            }
        }
        #expect(failures.withLock { $0 } == [])
        #expect(started.load(ordering: .relaxed) == 20)
    }

    @Test("programs run side by side each get their own output, whole")
    func programsSideBySide() throws {
        let outputs = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for round in 0..<10 {
                let text = "\(worker)-\(round)"
                let echoed = (try? ChildProcess.run("/bin/echo", [text]))?.outputText ?? "failed"
                outputs.withLock { $0.append(echoed == text + "\n" ? text : "\(text): \(echoed)") }
            }
        }
        let expected = (0..<8).flatMap { worker in (0..<10).map { "\(worker)-\($0)" } }
        #expect(outputs.withLock { $0 }.sorted() == expected.sorted())
    }

    /// A port nothing listens on: one a socket bound and let go of.
    static func vacantPort() throws -> UInt16 {
        let server = try ServerProcess(store: "memory:")
        let port = server.port
        #expect(server.stop() == 0)
        return port
    }
}
