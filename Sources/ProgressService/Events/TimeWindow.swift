import ProgressStore

/// The times an event may have, seen at one moment of the server's clock: at most 5 minutes
/// ahead, at most 30 days old (docs/api.md, "Fields"), and with `--retention-days N` not
/// before the first kept day, today − N + 1 (docs/privacy.md, "Retention").
struct TimeWindow: Sendable {
    let nowMs: Int64
    /// Days kept; 0 keeps every day.
    let retentionDays: Int
    /// The first millisecond of the first kept day, when days are dropped.
    let earliestMs: Int64?

    init(nowMs: Int64, retentionDays: Int) {
        self.nowMs = nowMs
        self.retentionDays = retentionDays
        guard retentionDays > 0 else {
            earliestMs = nil
            return
        }
        let today = Int64(UTCDay.of(ms: nowMs))
        earliestMs = (today - Int64(retentionDays) + 1) * 86_400_000
    }

    /// The time `event` counts at: its own, or now; throws when it is out of the window.
    func time(of event: DecodedEvent) throws(APIError) -> Int64 {
        let timeMs = event.timeMs ?? nowMs
        try check(timeMs)
        return timeMs
    }

    func check(_ timeMs: Int64) throws(APIError) {
        try EventTime.check(timeMs, nowMs: nowMs)
        if let earliestMs, timeMs < earliestMs {
            let first = EventTime.format(earliestMs).prefix(10)
            let kept =
                retentionDays == 1 ? "today's events are" : "events of the last \(retentionDays) days are"
            throw .invalidEvent(
                "time is before the retention window: only \(kept) kept (from \(first))", field: "time")
        }
    }
}
