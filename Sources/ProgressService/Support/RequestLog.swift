import Foundation
import ProgressStore
import Synchronization

/// One line per request and per lifecycle event, on standard error.
///
/// A request only appends a small record to a buffer; a background thread turns the records
/// into text and writes them out every 100 ms (or sooner when many are waiting), so that
/// logging costs the thread that answers neither the formatting nor a system call, nor even a
/// read of the wall clock: a record carries the monotonic time its request ended (which the
/// request measured anyway), and the flusher turns that into wall-clock time.
///
/// The flusher runs from ``start()`` to ``stop(within:)``, which writes out what is left; it
/// holds the log only while it flushes, never in between.
public final class RequestLog: Sendable {
    private struct Record {
        /// When the request was answered, on ``MonotonicClock``.
        var endedAt: Int64
        var nanoseconds: Int
        var status: Int
        var route: RouteLabel
        var method: String
    }

    private enum Entry {
        case request(Record)
        case line(ms: Int64, text: String)
    }

    /// What flushing keeps from one flush to the next.
    private struct Formatting {
        /// The current second and its text.
        var cache: (second: Int64, text: [UInt8]) = (-1, [])
        /// The lines are formatted here. Kept, not made anew each flush: a flush's text is
        /// often past the size above which malloc maps memory of its own (see `tuneAllocator`),
        /// and a new mapping each time would cost a page fault every 4 KiB and an unmapping.
        var buffer: [UInt8] = []
    }

    private let pending = Mutex<[Entry]>([])
    /// Held while flushing.
    private let formatting = Mutex(Formatting())
    private let enabled: Bool
    /// Where the lines go: standard error, or a test's pipe.
    private let fd: Int32
    private let flusher = Flusher()
    private static let flushThreshold = 4096

    /// A log of requests (unless `enabled` is false: then of lifecycle lines only) on standard
    /// error. Starts no thread: ``start()`` does.
    public convenience init(enabled: Bool = true) {
        self.init(enabled: enabled, fd: 2)
    }

    /// A log written to `fd` (a test hook; the log does not close it).
    package init(enabled: Bool, fd: Int32) {
        self.enabled = enabled
        self.fd = fd
    }

    /// Starts the thread that writes request lines out every 100 ms. Idempotent.
    public func start() {
        guard enabled, flusher.markStarted() else { return }
        let thread = Thread { [weak self, flusher] in
            while flusher.waitForNextFlush(seconds: 0.1) {
                self?.flush()
            }
            flusher.markStopped()
        }
        thread.name = "request-log"
        thread.start()
    }

    /// Stops the flusher, waiting up to `seconds` for it, and writes out what is left.
    public func stop(within seconds: Double = 1) {
        flusher.stop(within: seconds)
        flush()
    }

    /// Records `2026-11-30T09:00:00.123Z POST /v1/events 202 0.840ms` for a request that took
    /// `nanoseconds` and ended at `endedAt` (``MonotonicClock``).
    func request(method: String, route: RouteLabel, status: Int, nanoseconds: Int, endedAt: Int64) {
        guard enabled else { return }
        let entry = Entry.request(
            Record(endedAt: endedAt, nanoseconds: nanoseconds, status: status, route: route, method: method))
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
        formatting.withLock { state in
            let entries = pending.withLock { entries -> [Entry] in
                defer { entries.removeAll(keepingCapacity: true) }
                return entries
            }
            guard !entries.isEmpty else { return }
            // Records are at most a flush interval old: the wall clock's offset from the
            // monotonic one, read now, dates them to well within a millisecond.
            let offset = wallClockNanoseconds() - MonotonicClock.now()
            let capacity = entries.reduce(0) { total, entry in
                switch entry {
                case .request(let record): return total + Self.longestRequestLine + record.method.utf8.count
                case .line(_, let text): return total + Self.timestampLength + 2 + text.utf8.count
                }
            }
            if state.buffer.count < capacity { state.buffer = [UInt8](repeating: 0, count: capacity) }
            var cache = state.cache
            defer { state.cache = cache }
            state.buffer.withUnsafeMutableBufferPointer { buffer in
                var line = LineWriter(UnsafeMutableBufferPointer(rebasing: buffer[..<capacity]))
                for entry in entries {
                    switch entry {
                    case .request(let record):
                        let ms = (record.endedAt + offset) / 1_000_000
                        line.timestamp(ms, cache: &cache)
                        line.byte(UInt8(ascii: " "))
                        line.text(record.method)
                        line.byte(UInt8(ascii: " "))
                        line.text(record.route.text)
                        line.byte(UInt8(ascii: " "))
                        line.decimal(record.status)
                        line.byte(UInt8(ascii: " "))
                        let micros = (record.nanoseconds + 500) / 1000
                        line.decimal(micros / 1000)
                        line.byte(UInt8(ascii: "."))
                        line.decimal(micros % 1000, minimumDigits: 3)
                        line.text("ms\n")
                    case .line(let ms, let message):
                        line.timestamp(ms, cache: &cache)
                        line.byte(UInt8(ascii: " "))
                        line.text(message)
                        line.byte(0x0A)
                    }
                }
                Self.writeAll(
                    fd, UnsafeRawBufferPointer(UnsafeMutableBufferPointer(rebasing: buffer[..<line.count])))
            }
        }
    }

    /// Writes `bytes` to `fd` whole: again after a signal interrupted the call, and on after a
    /// short write. Gives up on any other error: a log that cannot be written (standard error
    /// closed) must not hold the service up, and there is nowhere left to report it.
    private static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) {
        var sent = 0
        while sent < bytes.count {
            let written = write(fd, bytes.baseAddress! + sent, bytes.count - sent)
            if written < 0, errno == EINTR { continue }
            if written <= 0 { return }
            sent += written
        }
    }

    /// `2026-11-30T09:00:00.123Z`, with room for a year of any length.
    fileprivate static let timestampLength = 48
    /// A request line but its method: timestamp, the longest route, a status and a duration
    /// of up to 20 digits each, spaces, `.` and `ms\n`.
    private static let longestRequestLine = timestampLength + 28 + 2 * 20 + 8
}

/// Writes log lines into a buffer sized for them beforehand; what would not fit is dropped
/// rather than written past the end.
private struct LineWriter {
    private let buffer: UnsafeMutableBufferPointer<UInt8>
    private(set) var count = 0

    init(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
        self.buffer = buffer
    }

    mutating func byte(_ byte: UInt8) {
        guard count < buffer.count else { return }
        buffer[count] = byte
        count += 1
    }

    mutating func bytes(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard bytes.count <= buffer.count - count else { return }
        _ = UnsafeMutableBufferPointer(rebasing: buffer[count..<count + bytes.count]).initialize(from: bytes)
        count += bytes.count
    }

    mutating func text(_ text: String) {
        var text = text
        text.withUTF8 { bytes($0) }
    }

    /// `value` (≥ 0) in decimal, zero-padded to `minimumDigits`.
    mutating func decimal(_ value: Int, minimumDigits: Int = 1) {
        var digits = 1
        var limit = 10
        while digits < 19 && value >= limit {
            digits += 1
            limit &*= 10
        }
        digits = max(digits, minimumDigits)
        guard digits <= buffer.count - count else { return }
        var rest = max(0, value)
        for index in stride(from: count + digits - 1, through: count, by: -1) {
            buffer[index] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
        }
        count += digits
    }

    /// `2026-11-30T09:00:00.123Z`; the part up to the second changes once a second, so it is
    /// formatted once a second.
    mutating func timestamp(_ ms: Int64, cache: inout (second: Int64, text: [UInt8])) {
        let second = ms / 1000
        if cache.second != second {
            cache = (second, Array(EventTime.format(second * 1000).utf8.dropLast()))
        }
        cache.text.withUnsafeBufferPointer { bytes($0) }
        byte(UInt8(ascii: "."))
        decimal(Int(ms % 1000), minimumDigits: 3)
        byte(UInt8(ascii: "Z"))
    }
}

/// When the flusher flushes next, and whether it is to stop: what its thread holds instead of
/// the log.
private final class Flusher: @unchecked Sendable {
    // `condition` guards everything below.
    private let condition = NSCondition()
    private var started = false
    private var stopping = false
    private var running = false

    /// Whether this call started it (false when it was already).
    func markStarted() -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard !started else { return false }
        started = true
        running = true
        return true
    }

    /// Waits `seconds` or until stopped; whether to flush (false: stop).
    func waitForNextFlush(seconds: Double) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        if !stopping { _ = condition.wait(until: Date().addingTimeInterval(seconds)) }
        return !stopping
    }

    func markStopped() {
        condition.lock()
        running = false
        condition.broadcast()
        condition.unlock()
    }

    func stop(within seconds: Double) {
        let deadline = Date().addingTimeInterval(seconds)
        condition.lock()
        defer { condition.unlock() }
        stopping = true
        condition.broadcast()
        while running {
            if !condition.wait(until: deadline) { return }
        }
    }
}
