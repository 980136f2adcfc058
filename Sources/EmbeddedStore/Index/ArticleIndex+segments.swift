import ProgressCore
import ProgressStore

/// Which reader-days a read counts (a ``SegmentFilter`` in the index's terms): those of one
/// device class, of one source id, or both; ``none`` when the filter names a source the store
/// never saw.
struct SegmentMatch: Sendable {
    var device: DeviceClass?
    var source: UInt16?
    var isNone = false

    static let all = SegmentMatch()
    static let none = SegmentMatch(isNone: true)

    var isAll: Bool { device == nil && source == nil && !isNone }

    @inline(__always) func admits(_ segment: SegmentRecord) -> Bool {
        !isNone && (device.map { $0 == segment.device } ?? true)
            && (source.map { $0 == segment.source } ?? true)
    }
}

extension ArticleIndex {
    /// Reader `slot`'s figures folded over its days in `days` that `match` admits, or `nil`
    /// when it has none.
    func figures(of slot: Int32, in days: DayRange, matching match: SegmentMatch) -> ReaderFigures? {
        if match.isAll { return figures(of: slot, in: days) }
        var folded: ReaderFigures?
        forEachDay(of: slot, in: days) { figures, segment in
            guard match.admits(segment) else { return }
            if folded == nil { folded = figures } else { folded!.fold(figures) }
        }
        return folded
    }

    /// Calls `body` with each of reader `slot`'s days in `days`: its figures and its segment.
    func forEachDay(
        of slot: Int32, in days: DayRange,
        _ body: (_ figures: ReaderFigures, _ segment: SegmentRecord) -> Void
    ) {
        let from = days.from ?? .min
        let to = days.to ?? .max
        let index = Int(slot)
        let first = firstDays.records[index]
        if first.day >= from && first.day <= to {
            body(firstDays.figures(of: first, at: index), firstDays.segments[index])
        }
        guard first.hasOtherDays, var next = otherHeads[slot] else { return }
        while next >= 0 {
            let other = Int(next)
            let day = otherDays.day(at: other)
            if day >= from && day <= to { body(otherDays.figures(at: other), otherDays.segments[other]) }
            next = otherNext[other]
        }
    }

    /// Every reader's figures folded over its days in `days` that `match` admits, for those
    /// with such a day.
    func figures(in days: DayRange, matching match: SegmentMatch) -> [ReaderFigures] {
        if match.isAll { return figures(in: days) }
        var figures: [ReaderFigures] = []
        guard !match.isNone else { return figures }
        for slot in 0..<Int32(names.count) {
            if let folded = self.figures(of: slot, in: days, matching: match) { figures.append(folded) }
        }
        return figures
    }

    /// Every reader's figures over its days in `days` that `match` admits, grouped by those
    /// days' device class (`by` device: keys are ``DeviceClass/number``) or source id (below
    /// `sourceCount`): a reader with days of two groups is in both, with each group's days folded.
    /// Readers of one day — most — are read a chunk of records at a time, straight into their
    /// group.
    func figuresBySegment(
        in days: DayRange, matching match: SegmentMatch, by dimension: SegmentStatistics.Dimension,
        sourceCount: Int = Int(UInt16.max) + 1
    ) -> [Int: [ReaderFigures]] {
        guard !match.isNone else { return [:] }
        let from = days.from ?? .min
        let to = days.to ?? .max
        var groups = [[ReaderFigures]](repeating: [], count: dimension == .device ? 4 : sourceCount)
        @inline(__always) func key(_ segment: SegmentRecord) -> Int {
            dimension == .device ? segment.device.number : Int(segment.source)
        }
        // Counted first, so that each group is allocated once: growing them as they fill moved
        // and faulted in several times the memory of a million readers' figures.
        var sizes = [Int](repeating: 0, count: groups.count)
        for days in [firstDays, otherDays] {
            days.records.forEachChunk { start, records in
                days.segments.chunks[start >> ChunkedArray<SegmentRecord>.chunkShift].withUnsafeBufferPointer
                {
                    segments in
                    for offset in records.indices
                    where records[offset].day >= from && records[offset].day <= to {
                        if match.admits(segments[offset]) { sizes[key(segments[offset])] += 1 }
                    }
                }
            }
        }
        for index in groups.indices where sizes[index] > 0 { groups[index].reserveCapacity(sizes[index]) }
        var own: [(key: Int, figures: ReaderFigures)] = []
        firstDays.records.forEachChunk { start, records in
            firstDays.segments.chunks[start >> ChunkedArray<SegmentRecord>.chunkShift].withUnsafeBufferPointer
            {
                segments in
                for offset in records.indices {
                    let record = records[offset]
                    let slot = start + offset
                    guard record.hasOtherDays else {
                        guard record.day >= from && record.day <= to, match.admits(segments[offset]) else {
                            continue
                        }
                        groups[key(segments[offset])].append(firstDays.figures(of: record, at: slot))
                        continue
                    }
                    own.removeAll(keepingCapacity: true)
                    forEachDay(of: Int32(slot), in: days) { figures, segment in
                        guard match.admits(segment) else { return }
                        if let held = own.firstIndex(where: { $0.key == key(segment) }) {
                            own[held].figures.fold(figures)
                        } else {
                            own.append((key(segment), figures))
                        }
                    }
                    for (key, figures) in own { groups[key].append(figures) }
                }
            }
        }
        var found: [Int: [ReaderFigures]] = [:]
        for (key, group) in groups.enumerated() where !group.isEmpty { found[key] = group }
        return found
    }

    /// The highest source id of the article's reader-days.
    var highestSource: UInt16 {
        var highest = SourceTable.direct
        for days in [firstDays, otherDays] {
            days.segments.forEachChunk { _, segments in
                for segment in segments { highest = max(highest, segment.source) }
            }
        }
        return highest
    }

    /// Reader `slot`'s all-time figures by the device class of its days.
    func figuresByDevice(of slot: Int32) -> InlineArray<4, ReaderFigures?> {
        var byDevice = InlineArray<4, ReaderFigures?>(repeating: nil)
        forEachDay(of: slot, in: .allTime) { figures, segment in
            let number = segment.device.number
            if byDevice[number] == nil { byDevice[number] = figures } else { byDevice[number]!.fold(figures) }
        }
        return byDevice
    }

    /// The statistics of `query`, whose segment is `match`: from the counters of the filter's
    /// device class when they answer, otherwise by folding the readers.
    func statistics(_ query: StatisticsQuery, matching match: SegmentMatch) -> ArticleStatistics {
        if match.isAll { return statistics(query) }
        return statisticsFromCounters(query, matching: match, scanning: true)
            ?? ArticleStatistics.compute(readers: figures(in: query.days, matching: match), query: query)
    }

    /// The statistics of `query` from the counters of one device class, when it filters by
    /// device alone and they answer (see ``DeviceCounters/statistics(of:answering:spanned:scan:)``);
    /// `scanning`: the class's times are found by a scan of the records if need be (a few ms for
    /// a million: not under the index's lock).
    func statisticsFromCounters(
        _ query: StatisticsQuery, matching match: SegmentMatch, scanning: Bool = false
    )
        -> ArticleStatistics?
    {
        guard let device = match.device, match.source == nil, !match.isNone, let deviceCounters else {
            return nil
        }
        return deviceCounters.statistics(
            of: device, answering: query, spanned: counters.spans(query.days),
            scan: scanning ? { self.timeSpan(of: $0) } : nil)
    }

    /// The earliest and latest event time of `device`'s reader-days.
    func timeSpan(of device: DeviceClass) -> (first: Int64?, last: Int64?) {
        var first: Int64?
        var last: Int64?
        for days in [firstDays, otherDays] {
            for index in 0..<days.count where days.segments[index].device == device {
                let figures = days.figures(at: index)
                first = min(first ?? figures.firstMs, figures.firstMs)
                last = max(last ?? figures.lastMs, figures.lastMs)
            }
        }
        return (first, last)
    }

    /// The segments of `query` from the device counters, when it asks for devices over all
    /// of the article's days and they answer; `scanning` as for ``statisticsFromCounters(_:matching:scanning:)``.
    func segmentsFromCounters(_ query: SegmentsQuery, scanning: Bool = false) -> SegmentStatistics? {
        guard query.by == .device, query.statistics.segment.isAll, let deviceCounters else { return nil }
        var segments: [SegmentStatistics.Segment] = []
        for device in DeviceClass.allCases where deviceCounters.readers(of: device) > 0 {
            guard
                let statistics = deviceCounters.statistics(
                    of: device, answering: query.statistics, spanned: counters.spans(query.statistics.days),
                    scan: scanning ? { self.timeSpan(of: $0) } : nil)
            else { return nil }
            segments.append(SegmentStatistics.Segment(name: device.rawValue, statistics: statistics))
        }
        return SegmentStatistics(segments: SegmentStatistics.ranked(segments), other: nil)
    }

    /// The segments of `query`, whose filter is `match`, by folding the readers; `sources`
    /// names the source ids.
    func segmentsFolded(_ query: SegmentsQuery, matching match: SegmentMatch, sources: SourceTable)
        -> SegmentStatistics
    {
        if match.isAll, let answered = segmentsFromCounters(query, scanning: true) { return answered }
        let groups = figuresBySegment(
            in: query.statistics.days, matching: match, by: query.by, sourceCount: sources.count)
        var named: [ExactKey: [ReaderFigures]] = [:]
        for (key, figures) in groups {
            let name =
                query.by == .device ? DeviceClass.numbered(key).rawValue : sources.name(of: UInt16(key))
            named[ExactKey(name)] = figures
        }
        return SegmentStatistics.compute(
            figures: named, by: query.by, limit: query.limit, query: query.statistics)
    }

    /// The sections of `query` over the readers `match` admits, without attention (it is kept
    /// by article and day, not by reader).
    func sectionsFolded(_ query: StatisticsQuery, matching match: SegmentMatch) -> SectionStatistics {
        if match.isAll { return sectionsFolded(query) }
        let depths = figures(in: query.days, matching: match).map { $0.scrollable ? $0.maxSeenDepth : 1 }
            .sorted()
        return SectionStatistics.compute(
            map: sections.map ?? [], readers: depths.count,
            readersAtOrAbove: { SectionStatistics.countAtOrAbove($0, inSorted: depths) }, attentionMs: nil)
    }
}
