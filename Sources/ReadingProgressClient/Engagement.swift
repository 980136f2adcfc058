import Foundation

/// One view's engaged time: time while the app is active, up to `idleTimeout` after the reader
/// last scrolled, not yet carried by an event.
struct Engagement {
    let idleTimeout: TimeInterval
    private var lastScroll: Date?
    private var countedUntil: Date?
    private var pending: TimeInterval = 0

    init(idleTimeout: TimeInterval) {
        self.idleTimeout = idleTimeout
    }

    /// Counts the time since the previous call up to `now`: engaged where the app was `active`
    /// all along and within `idleTimeout` of the last scroll. Time is counted once only, even
    /// when the clock steps back.
    mutating func advance(to now: Date, active: Bool) {
        if active, let lastScroll, let countedUntil {
            let end = min(now, lastScroll.addingTimeInterval(idleTimeout))
            if end > countedUntil { pending += end.timeIntervalSince(countedUntil) }
        }
        if countedUntil.map({ now > $0 }) ?? true { countedUntil = now }
    }

    /// The reader scrolled at `now` (after ``advance(to:active:)`` to `now`).
    mutating func scrolled(at now: Date) { lastScroll = now }

    /// Engaged time counted and not yet taken, in seconds.
    var pendingSeconds: TimeInterval { pending }

    /// Takes the pending time in whole milliseconds, at most a day (the most an event may carry);
    /// the remainder stays pending.
    mutating func take() -> Int {
        let milliseconds = min(Int((pending * 1000).rounded(.down)), Self.maximumMilliseconds)
        pending = max(0, pending - TimeInterval(milliseconds) / 1000)
        return milliseconds
    }

    /// The largest `engagedMs` the service takes.
    static let maximumMilliseconds = 86_400_000
}
