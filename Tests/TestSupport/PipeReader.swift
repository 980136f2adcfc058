import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The read end of a pipe, owned: read with `poll(2)` and `read(2)`, closed once when dropped.
final class PipeReader: @unchecked Sendable {
    private let fd: Int32
    private let lock = NSLock()
    private var buffer: [UInt8] = []
    private var ended = false

    init(_ fd: Int32) { self.fd = fd }

    deinit { Glibc.close(fd) }

    /// The next line without its newline; the rest of the stream when it ends without one; nil
    /// once the stream has ended or when `deadline` passes first.
    func readLine(until deadline: ContinuousClock.Instant) throws -> String? {
        try lock.withLock {
            while true {
                if let newline = buffer.firstIndex(of: 0x0A) {
                    defer { buffer.removeFirst(newline + 1) }
                    return String(decoding: buffer[..<newline], as: UTF8.self)
                }
                if ended {
                    defer { buffer.removeAll() }
                    return buffer.isEmpty ? nil : String(decoding: buffer, as: UTF8.self)
                }
                guard try fill(until: deadline) else { return nil }
            }
        }
    }

    /// Everything until the writers close the pipe.
    func readToEnd() throws -> Data {
        try lock.withLock {
            while !ended { _ = try fill(until: nil) }
            defer { buffer.removeAll() }
            return Data(buffer)
        }
    }

    /// Reads what is there, waiting until `deadline` (forever when nil); false when it passed.
    /// Callers hold `lock`.
    private func fill(until deadline: ContinuousClock.Instant?) throws -> Bool {
        var waiting = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let milliseconds: Int32
        if let deadline {
            let left = deadline - .now
            guard left > .zero else { return false }
            milliseconds = Int32(
                clamping: left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000
                    + 1)
        } else {
            milliseconds = -1
        }
        let ready = poll(&waiting, 1, milliseconds)
        if ready < 0 {
            guard errno == EINTR else { throw TestFailure("poll: \(ChildProcess.describe(errno))") }
            return true
        }
        guard ready > 0 else { return deadline.map { .now < $0 } ?? true }
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if count < 0 {
            guard errno == EINTR || errno == EAGAIN else {
                throw TestFailure("read: \(ChildProcess.describe(errno))")
            }
        } else if count == 0 {
            ended = true
        } else {
            buffer.append(contentsOf: chunk[..<count])
        }
        return true
    }
}
