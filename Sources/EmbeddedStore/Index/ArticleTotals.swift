import ProgressStore

/// An article's all-time figures, kept as records fold in. Readers are the article's slots.
struct ArticleTotals {
    /// Readers none of whose events was scrollable (left out of the progress figures).
    var unscrollable = 0
    var events: Int64 = 0
    var engagedMs: Int64 = 0
    var firstMs: Int64?
    var lastMs: Int64?
    /// Sums of counted readers' all-time depths: progress over scrollable readers, seenDepth
    /// over all.
    var progressSum = DepthSum()
    var seenSum = DepthSum()

    /// Counts the events, engaged time and times of `figures`.
    mutating func add(_ figures: DayFigures) {
        events += figures.events
        engagedMs += figures.engagedMs
        firstMs = min(firstMs ?? figures.firstMs, figures.firstMs)
        lastMs = max(lastMs ?? figures.lastMs, figures.lastMs)
    }

    /// Whether `days` holds every day this article has an event on, so that figures over
    /// `days` are the all-time ones.
    func spans(_ days: DayRange) -> Bool {
        guard let firstMs, let lastMs else { return true }
        let first = Int32(firstMs.floorDivided(by: DayRecords.dayMs))
        let last = Int32(lastMs.floorDivided(by: DayRecords.dayMs))
        return (days.from ?? .min) <= first && (days.to ?? .max) >= last
    }

    /// Whether this article has no event on any day of `days`.
    func misses(_ days: DayRange) -> Bool {
        guard let firstMs, let lastMs else { return true }
        let first = Int32(firstMs.floorDivided(by: DayRecords.dayMs))
        let last = Int32(lastMs.floorDivided(by: DayRecords.dayMs))
        return (days.from ?? .min) > last || (days.to ?? .max) < first
    }
}
