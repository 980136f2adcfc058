public import Foundation

/// Where a ``Reporter`` reads the time and waits: the system's clock in an app, a clock a test
/// can move forward to see what a day's wait or a minute of reading does.
public protocol ReportingClock: Sendable {
    /// The current wall-clock time: an event's `time`, and how old a queued event is.
    func now() -> Date
    /// Returns after `duration`, or throws `CancellationError` when the task is cancelled first.
    func sleep(for duration: Duration) async throws
}

/// The system's clock: `Date()` and `Task.sleep`.
public struct SystemClock: ReportingClock {
    /// Creates the system clock.
    public init() {}

    public func now() -> Date { Date() }

    public func sleep(for duration: Duration) async throws {
        try await Task.sleep(for: duration)
    }
}

extension Duration {
    /// The duration in seconds, as Foundation's dates count them.
    var seconds: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) * 1e-18
    }

    /// A duration of `seconds`, which must be finite.
    static func interval(_ seconds: TimeInterval) -> Duration {
        .nanoseconds(Int64((seconds * 1e9).rounded()))
    }
}
