import ProgressStore

/// One article's latest section map and the attention of its bands summed per UTC day
/// (docs/api.md, "Sections and attention"). Kept by article, never by reader: erasing a reader
/// leaves it; erasing the article or expiring its days takes it out.
///
/// Inline in ``ArticleIndex`` and empty for the many articles whose events carry neither: four
/// words of an article, nothing a reader.
struct ArticleSections: Sendable, Equatable {
    /// The map of the event with the latest time that carried one, `nil` before any.
    private(set) var map: [Section]?
    /// That event's time: a map of an earlier time replaces nothing, one of the same time does
    /// (events fold in the order they were acknowledged, so the later arrival wins a tie).
    private(set) var mapTimeMs: Int64 = .min
    /// The days with attention, ascending.
    private(set) var days: [Int32] = []
    /// ``AttentionBands/count`` summed milliseconds per day of ``days``, in its order.
    private(set) var bands: [Int64] = []
    /// Whether attention was ever held: a checkpoint then deletes the saved row once the last
    /// day has expired.
    private(set) var hadAttention = false

    init() {}

    /// Parts as a checkpoint saved them; the caller has checked that `days` ascend and that
    /// `bands` has ``AttentionBands/count`` values for each.
    init(map: [Section]?, mapTimeMs: Int64, days: [Int32], bands: [Int64]) {
        self.map = map
        self.mapTimeMs = mapTimeMs
        self.days = days
        self.bands = bands
        hadAttention = !days.isEmpty
    }

    var isEmpty: Bool { map == nil && days.isEmpty }

    /// Folds what `event` carries; returns whether anything changed.
    mutating func fold(_ event: EventRecord) -> Bool {
        var changed = false
        if let sections = event.sections, event.timeMs >= mapTimeMs {
            map = sections
            mapTimeMs = event.timeMs
            changed = true
        }
        if let attention = event.attention, attention.count == AttentionBands.count {
            let offset = slot(of: event.day) * AttentionBands.count
            for band in 0..<AttentionBands.count { bands[offset + band] += Int64(attention[band]) }
            hadAttention = true
            changed = true
        }
        return changed
    }

    /// The index in ``days`` of `day`, added if new: mostly the last day or a new one after it.
    private mutating func slot(of day: Int32) -> Int {
        var position = days.count
        while position > 0 && days[position - 1] > day { position -= 1 }
        if position > 0 && days[position - 1] == day { return position - 1 }
        days.insert(day, at: position)
        bands.insert(
            contentsOf: repeatElement(0, count: AttentionBands.count), at: position * AttentionBands.count)
        return position
    }

    /// The bands' milliseconds summed over the days of `range`.
    func attention(in range: DayRange) -> [Int64] {
        var sums = [Int64](repeating: 0, count: AttentionBands.count)
        let from = range.from ?? .min
        let to = range.to ?? .max
        for (position, day) in days.enumerated() where day >= from && day <= to {
            let offset = position * AttentionBands.count
            for band in 0..<AttentionBands.count { sums[band] += bands[offset + band] }
        }
        return sums
    }

    /// Takes out the attention of the days before `day` (retention).
    mutating func dropDays(before day: Int32) {
        let dropped = days.prefix { $0 < day }.count
        days.removeFirst(dropped)
        bands.removeFirst(dropped * AttentionBands.count)
    }

    /// Bytes held, counting capacity (titles' own buffers approximately).
    var footprint: Int {
        let titles = map?.reduce(0) { $0 + max(0, $1.title.utf8.count - 15) } ?? 0
        return (map?.capacity ?? 0) * MemoryLayout<Section>.stride + titles + days.capacity * 4
            + bands.capacity * 8
    }
}
