import ProgressCore
import ProgressStore

/// One article's all-time counters for each device class, over each reader's days of that class
/// (docs/api.md, "Segments"), so that statistics filtered by device, and the segments by device,
/// answer as the unfiltered ones do, without visiting a reader. An article keeps them from
/// ``CounterPolicy/segmentCountersFrom`` readers on, each class's histograms from its first
/// reader (24 KB a class).
///
/// A reader-day changes class when an event that names one arrives after the day's width, or
/// one with an earlier time: the class it left drops the reader's figures there and takes them
/// again without that day. Earliest and latest times cannot be taken back out of a minimum, so
/// a class whose extreme may have gone with such a day is marked, and its times are found by a
/// scan of the article's records (outside the index's lock) from then on.
struct DeviceCounters: Sendable {
    /// By ``DeviceClass/number``.
    private var classes: [ArticleCounters]
    private var timesStale = [Bool](repeating: false, count: 4)

    /// The counters of `article`'s readers, recounted.
    init(_ article: ArticleIndex) {
        classes = [ArticleCounters](repeating: ArticleCounters(), count: 4)
        for slot in 0..<Int32(article.readerCount) {
            let byDevice = article.figuresByDevice(of: slot)
            for number in 0..<4 {
                if let figures = byDevice[number] { add(figures, to: number) }
            }
        }
    }

    /// Adds a reader new to class `number`.
    private mutating func add(_ figures: ReaderFigures, to number: Int) {
        Self.add(figures, to: &classes[number])
    }

    /// In place: `classes[number].histograms == nil` copied the class's counters, histograms and
    /// all, for every reader counted (see ``ArticleCounters/move(from:to:)``).
    private static func add(_ figures: ReaderFigures, to counters: inout ArticleCounters) {
        if case .none = counters.histograms { counters.histograms = DepthHistograms() }
        counters.move(from: nil, to: figures)
    }

    /// Readers with a day of `device`.
    func readers(of device: DeviceClass) -> Int { classes[device.number].readers }

    /// Moves one reader from its figures by class `before` to `after`, which differ only by one
    /// day: of class `dayWas` before (`nil` when it is new) and `dayIs` after.
    mutating func move(
        from before: InlineArray<4, ReaderFigures?>, to after: InlineArray<4, ReaderFigures?>,
        dayWas: DeviceClass?, dayIs: DeviceClass
    ) {
        for number in 0..<4 {
            switch (before[number], after[number]) {
            case (nil, nil):
                continue
            case (nil, let now?):
                add(now, to: number)
            case (let was?, let now):
                guard was != now else { continue }
                if dayWas?.number == number && dayIs.number != number {
                    // The day left this class: the reader's figures here shrink.
                    drop(was, from: number)
                    if let now { add(now, to: number) }
                } else if let now {
                    classes[number].move(from: was, to: now)
                }
            }
        }
    }

    /// Moves a reader of one day from its figures `before` (`nil`: it is new), of class `dayWas`,
    /// to `after`, of class `dayIs`.
    mutating func move(
        from before: ReaderFigures?, to after: ReaderFigures, dayWas: DeviceClass?, dayIs: DeviceClass
    ) {
        guard let before, let dayWas else { return add(after, to: dayIs.number) }
        if dayWas == dayIs {
            if before != after { classes[dayIs.number].move(from: before, to: after) }
        } else {
            drop(before, from: dayWas.number)
            add(after, to: dayIs.number)
        }
    }

    private mutating func drop(_ figures: ReaderFigures, from number: Int) {
        if figures.firstMs == classes[number].firstMs || figures.lastMs == classes[number].lastMs {
            timesStale[number] = true
        }
        classes[number].drop(figures)
    }

    /// The all-time counters of `device`'s reader-days. When the class's earliest and latest
    /// times may not hold, they are `scan`'s, and without it the answer is `nil`.
    func counters(
        of device: DeviceClass, scan: ((DeviceClass) -> (first: Int64?, last: Int64?))? = nil
    ) -> ArticleCounters? {
        var counters = classes[device.number]
        if timesStale[device.number] {
            guard let scan else { return nil }
            (counters.firstMs, counters.lastMs) = scan(device)
        }
        return counters
    }

    /// The counters of each class with readers — of the one named `only`, when given — by
    /// class name; `nil` when a class's times need `scan` and there is none.
    func kept(
        only: String?, scan: ((DeviceClass) -> (first: Int64?, last: Int64?))?
    ) -> [(name: String, counters: ArticleCounters)]? {
        var found: [(name: String, counters: ArticleCounters)] = []
        for device in DeviceClass.allCases where only.map({ $0 == device.rawValue }) ?? true {
            guard readers(of: device) > 0 else { continue }
            guard let counters = counters(of: device, scan: scan) else { return nil }
            found.append((device.rawValue, counters))
        }
        return found
    }

    /// Bytes held: the histograms' bins.
    var footprint: Int { classes.filter { $0.histograms != nil }.count * 2 * DepthHistogram.binCount * 12 }
}
