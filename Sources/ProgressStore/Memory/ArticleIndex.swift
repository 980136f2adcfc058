/// One article's readers, their day records, and the all-time figures kept up to date as
/// records fold in, so that the default statistics never visit a reader.
///
/// Reader `slot`'s first day is record `slot` of ``firstDays``; its other days are records of
/// ``otherDays`` chained from there by `next`. With one day a reader costs 36 bytes of
/// figures and about 10 bytes plus its id in ``ReaderNames``.
final class ArticleIndex {
    let name: String
    private(set) var names = ReaderNames()
    private(set) var firstDays = DayColumns()
    private(set) var otherDays = DayColumns()
    private(set) var totals = ArticleTotals()
    /// Counted readers' all-time depths per metric, built once the article has more than
    /// ``histogramMinimumReaders`` readers: below that, folding the readers is as quick as
    /// reading 2 × 1001 bins and much smaller for the many articles that stay small.
    private(set) var histograms: (progress: DepthHistogram, seenDepth: DepthHistogram)?

    static let histogramMinimumReaders = 512

    init(name: String) {
        self.name = name
    }

    var readerCount: Int { names.count }

    /// A copy to read from outside the index's lock. Cheap: the columns are copy-on-write
    /// arrays, shared until the live article next changes (which then copies what it changes).
    func snapshot() -> ArticleIndex {
        let copy = ArticleIndex(name: name)
        copy.names = names
        copy.firstDays = firstDays
        copy.otherDays = otherDays
        copy.totals = totals
        copy.histograms = histograms
        copy.version = version
        return copy
    }

    /// Counts the folds: any figure of the article can have changed only when this has.
    private(set) var version: UInt64 = 0

    /// Folds `figures` of `reader` on `day` into the article; returns whether the reader is new.
    func fold(reader: String, day: Int32, _ figures: DayFigures) -> Bool {
        version &+= 1
        let (slot, isNew) = names.slot(for: reader)
        let before: DayFigures?
        var after = figures
        if isNew {
            before = nil
            firstDays.append(day: day, figures, next: -1)
        } else {
            let (allTime, record) = walk(slot, lookingFor: day)
            before = allTime
            after.fold(allTime)
            switch record {
            case .first(let index): firstDays.fold(figures, at: index)
            case .other(let index): otherDays.fold(figures, at: index)
            case nil:
                // A new day goes first in the chain; the order of a reader's days is irrelevant.
                let index = otherDays.append(day: day, figures, next: firstDays.next[Int(slot)])
                firstDays.next[Int(slot)] = index
            }
        }
        totals.add(figures)
        recount(from: before, to: after)
        if histograms == nil && names.count > Self.histogramMinimumReaders {
            buildHistograms()
        }
        return isNew
    }

    /// Where one of a reader's day records is.
    enum Record {
        case first(Int)
        case other(Int)
    }

    /// Reader `slot`'s figures over all its days, and its record on `day` if it has one.
    private func walk(_ slot: Int32, lookingFor day: Int32) -> (DayFigures, Record?) {
        let index = Int(slot)
        var folded = firstDays.figures(at: index)
        var record: Record? = firstDays.day[index] == day ? .first(index) : nil
        var next = firstDays.next[index]
        while next >= 0 {
            let other = Int(next)
            folded.fold(otherDays.figures(at: other))
            if otherDays.day[other] == day { record = .other(other) }
            next = otherDays.next[other]
        }
        return (folded, record)
    }

    /// Reader `slot`'s figures folded over the days in `days`, or nil when it has none there.
    func figures(of slot: Int32, in days: DayRange) -> DayFigures? {
        let from = days.from ?? .min
        let to = days.to ?? .max
        let index = Int(slot)
        var folded: DayFigures?
        let first = firstDays.day[index]
        if first >= from && first <= to { folded = firstDays.figures(at: index) }
        var next = firstDays.next[index]
        while next >= 0 {
            let other = Int(next)
            let day = otherDays.day[other]
            if day >= from && day <= to {
                let figures = otherDays.figures(at: other)
                if folded == nil { folded = figures } else { folded!.fold(figures) }
            }
            next = otherDays.next[other]
        }
        return folded
    }

    /// Moves a reader's all-time depths from `before` (nil for a new reader) to `after`.
    private func recount(from before: DayFigures?, to after: DayFigures) {
        let wasCounted = before?.scrollable ?? false
        if before != nil && !wasCounted && after.scrollable { totals.unscrollable -= 1 }
        if before == nil && !after.scrollable { totals.unscrollable += 1 }
        if !(wasCounted && after.scrollable && before!.maxProgress == after.maxProgress) {
            if wasCounted {
                totals.progressSum.remove(before!.maxProgress)
                histograms?.progress.remove(before!.maxProgress)
            }
            if after.scrollable {
                totals.progressSum.add(after.maxProgress)
                histograms?.progress.insert(after.maxProgress)
            }
        }
        if before?.maxSeenDepth != after.maxSeenDepth {
            if let before {
                totals.seenSum.remove(before.maxSeenDepth)
                histograms?.seenDepth.remove(before.maxSeenDepth)
            }
            totals.seenSum.add(after.maxSeenDepth)
            histograms?.seenDepth.insert(after.maxSeenDepth)
        }
    }

    private func buildHistograms() {
        var progress = DepthHistogram()
        var seenDepth = DepthHistogram()
        for slot in 0..<Int32(names.count) {
            guard let allTime = figures(of: slot, in: .allTime) else { continue }
            if allTime.scrollable { progress.insert(allTime.maxProgress) }
            seenDepth.insert(allTime.maxSeenDepth)
        }
        histograms = (progress, seenDepth)
    }
}
