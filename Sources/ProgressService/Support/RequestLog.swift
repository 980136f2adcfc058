import Foundation
import Synchronization

/// One line per request and per lifecycle event, on standard error.
///
/// A request only appends a small record to a buffer; a background thread turns the records
/// into text and writes them out every 100 ms (or sooner when many are waiting), so that
/// logging costs the thread that answers neither the formatting nor a system call.
public final class RequestLog: Sendable {
    private enum Entry {
        case request(ms: Int64, method: String, route: String, status: Int, micros: Int)
        case line(ms: Int64, text: String)
    }

    private let pending = Mutex<[Entry]>([])
    /// Held while flushing; guards the cache of the current second's text.
    private let formatting = Mutex<(second: Int64, text: String)>((-1, ""))
    private let enabled: Bool
    private static let flushThreshold = 4096

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

    /// Records `2026-11-30T09:00:00.123Z POST /v1/events 202 0.840ms`.
    func request(method: String, route: String, status: Int, seconds: Double, nowMs: Int64) {
        guard enabled else { return }
        let micros = Int((seconds * 1_000_000).rounded())
        let entry = Entry.request(ms: nowMs, method: method, route: route, status: status, micros: micros)
        let count = pending.withLock { entries in
            entries.append(entry)
            return entries.count
        }
        if count >= Self.flushThreshold { flush() }
    }

    /// A lifecycle line, written out at once.
    public func lifecycle(_ message: String) {
        pending.withLock { $0.append(.line(ms: wallClockMs(), text: message)) }
        flush()
    }

    /// Formats and writes out whatever is waiting. One flush at a time (the formatting lock is
    /// held throughout), so lines come out in the order they were recorded.
    public func flush() {
        formatting.withLock { cache in
            let entries = pending.withLock { entries -> [Entry] in
                defer { entries.removeAll(keepingCapacity: true) }
                return entries
            }
            guard !entries.isEmpty else { return }
            var bytes: [UInt8] = []
            bytes.reserveCapacity(entries.count * 64)
            for entry in entries {
                switch entry {
                case .request(let ms, let method, let route, let status, let micros):
                    appendTimestamp(ms, &cache, to: &bytes)
                    bytes.append(UInt8(ascii: " "))
                    bytes.append(contentsOf: method.utf8)
                    bytes.append(UInt8(ascii: " "))
                    bytes.append(contentsOf: route.utf8)
                    bytes.append(UInt8(ascii: " "))
                    appendDigits(status, minimum: 1, to: &bytes)
                    bytes.append(UInt8(ascii: " "))
                    appendDigits(micros / 1000, minimum: 1, to: &bytes)
                    bytes.append(UInt8(ascii: "."))
                    appendDigits(micros % 1000, minimum: 3, to: &bytes)
                    bytes.append(contentsOf: [UInt8(ascii: "m"), UInt8(ascii: "s"), 0x0A])
                case .line(let ms, let message):
                    appendTimestamp(ms, &cache, to: &bytes)
                    bytes.append(UInt8(ascii: " "))
                    bytes.append(contentsOf: message.utf8)
                    bytes.append(0x0A)
                }
            }
            bytes.withUnsafeBytes { raw in
                var offset = 0
                while offset < raw.count {
                    let written = write(2, raw.baseAddress! + offset, raw.count - offset)
                    if written <= 0 { return }
                    offset += written
                }
            }
        }
    }

    /// `2026-11-30T09:00:00.123Z`; the part up to the second changes once a second, so it is
    /// formatted once a second.
    private func appendTimestamp(
        _ ms: Int64, _ cache: inout (second: Int64, text: String), to bytes: inout [UInt8]
    ) {
        let second = ms / 1000
        if cache.second != second {
            cache = (second, String(EventTime.format(second * 1000).dropLast()))
        }
        bytes.append(contentsOf: cache.text.utf8)
        bytes.append(UInt8(ascii: "."))
        appendDigits(Int(ms % 1000), minimum: 3, to: &bytes)
        bytes.append(UInt8(ascii: "Z"))
    }
}

/// Appends `value` (≥ 0) in decimal, zero-padded to `minimum` digits.
private func appendDigits(_ value: Int, minimum: Int, to bytes: inout [UInt8]) {
    let start = bytes.count
    var rest = max(0, value)
    repeat {
        bytes.append(UInt8(ascii: "0") + UInt8(rest % 10))
        rest /= 10
    } while rest > 0
    while bytes.count - start < minimum { bytes.append(UInt8(ascii: "0")) }
    bytes[start...].reverse()
}

/// Milliseconds since the Unix epoch, from the wall clock.
public func wallClockMs() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
}
