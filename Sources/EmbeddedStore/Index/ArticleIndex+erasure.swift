import ProgressStore

/// Taking records out of an article, for erasure and retention: the records are append-only,
/// so the article is folded anew from the ones that stay. Rare, and in proportion to the
/// article's size.
extension ArticleIndex {
    /// Calls `body` with every (reader slot, day) record, its figures and its segment.
    func forEachRecord(
        _ body: (_ slot: Int32, _ day: Int32, _ figures: ReaderFigures, _ segment: SegmentRecord) -> Void
    ) {
        for index in 0..<names.count {
            let first = firstDays.records[index]
            body(Int32(index), first.day, firstDays.figures(of: first, at: index), firstDays.segments[index])
            guard first.hasOtherDays, var next = otherHeads[Int32(index)] else { continue }
            while next >= 0 {
                let other = Int(next)
                body(
                    Int32(index), otherDays.day(at: other), otherDays.figures(at: other),
                    otherDays.segments[other])
                next = otherNext[other]
            }
        }
    }

    /// This article with only the records `keep` keeps, and how many it dropped. Its version
    /// moves past this one's, as every change does. The section map and attention stay: they
    /// are kept by article and day, not by reader.
    func keeping(_ keep: (_ slot: Int32, _ day: Int32) -> Bool) -> (article: ArticleIndex, dropped: Int) {
        var kept = ArticleIndex(name: name, version: version &+ 1, dayCountersFrom: dayCountersFrom)
        kept.sections = sections
        var dropped = 0
        forEachRecord { slot, day, figures, segment in
            if keep(slot, day) {
                _ = kept.fold(reader: names.name(at: slot), day: day, figures, segment: segment)
            } else {
                dropped += 1
            }
        }
        return (kept, dropped)
    }

    /// The number of (reader, day) records held.
    var recordCount: Int { firstDays.count + otherDays.count }

    /// The first UTC day with an event, if any.
    var firstDay: Int32? {
        counters.firstMs.map { UTCDay.of(ms: $0) }
    }
}
