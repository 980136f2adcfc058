import Foundation
import Synchronization

/// One line per request and per lifecycle event, on standard error.
///
/// Lines gather in a buffer that a background thread writes out every 100 ms (or sooner when it
/// fills), so that logging costs a request a memcpy, not a system call.
public final class RequestLog: Sendable {
    private let buffer = Mutex<[UInt8]>([])
    private let enabled: Bool
    private static let flushThreshold = 64 * 1024

    public init(enabled: Bool = true) {
        self.enabled = enabled
        guard enabled else { return }
        let flusher = Thread { [weak self] in
            while let log = self {
                log.flush()
                Thread.sleep(forTimeInterval: 0.1)
            }
        }
        flusher.name = "request-log"
        flusher.start()
    }

    /// `2026-11-30T09:00:00.123Z POST /v1/events 202 0.84ms`
    func request(method: String, route: String, status: Int, seconds: Double, nowMs: Int64) {
        guard enabled else { return }
        let micros = Int((seconds * 1_000_000).rounded())
        let duration = "\(micros / 1000).\(String(micros % 1000 + 1000).dropFirst())ms"
        append("\(timestamp(nowMs)) \(method) \(route) \(status) \(duration)\n")
    }

    /// The date and time up to the second change once a second: format them once a second.
    private let secondText = Mutex<(second: Int64, text: String)>((-1, ""))

    private func timestamp(_ ms: Int64) -> String {
        let second = ms / 1000
        let text = secondText.withLock { cached in
            if cached.second != second {
                cached = (second, String(EventTime.format(second * 1000).dropLast()))
            }
            return cached.text
        }
        return "\(text).\(String(ms % 1000 + 1000).dropFirst())Z"
    }

    /// A lifecycle line, written out at once.
    public func lifecycle(_ message: String) {
        append("\(EventTime.format(wallClockMs())) \(message)\n")
        flush()
    }

    private func append(_ line: String) {
        let full = buffer.withLock { buffer in
            buffer.append(contentsOf: line.utf8)
            return buffer.count >= Self.flushThreshold
        }
        if full { flush() }
    }

    /// Writes out whatever is buffered.
    public func flush() {
        let pending = buffer.withLock { buffer -> [UInt8] in
            defer { buffer.removeAll(keepingCapacity: true) }
            return buffer
        }
        guard !pending.isEmpty else { return }
        pending.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = write(2, raw.baseAddress! + offset, raw.count - offset)
                if written <= 0 { return }
                offset += written
            }
        }
    }
}

/// Milliseconds since the Unix epoch, from the wall clock.
public func wallClockMs() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
}
