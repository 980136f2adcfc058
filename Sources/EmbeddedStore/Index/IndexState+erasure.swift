import ProgressStore

/// Erasure and retention on the index's state. An article left without readers is erased:
/// its slot stays (the listing's orders and the change list hold slots) with an empty article
/// in it, out of `slots`, so that it is unknown to every read and a later event of that name
/// starts a new article.
extension IndexState {
    /// Takes `reader` out of every article.
    mutating func erase(reader: String) -> ErasureCount {
        var count = ErasureCount.nothing
        for slot in articles.indices where !articles[slot].isErased {
            guard let readerSlot = articles[slot].names.existingSlot(of: reader) else { continue }
            let (kept, dropped) = articles[slot].keeping { held, _ in held != readerSlot }
            count.articles += 1
            count.readerDays += dropped
            replace(Int32(slot), with: kept)
        }
        return count
    }

    /// Takes the article `name` out, with all of its readers.
    mutating func erase(article name: String) -> ErasureCount {
        guard let slot = slots[ExactKey(name)] else { return .nothing }
        let dropped = articles[Int(slot)].recordCount
        replace(
            slot,
            with: ArticleIndex(
                name: name, version: articles[Int(slot)].version &+ 1, dayCountersFrom: dayCountersFrom))
        return ErasureCount(articles: 1, readerDays: dropped)
    }

    /// Takes out every record of a day before `day`; returns how many.
    mutating func dropDays(before day: Int32) -> Int {
        var dropped = 0
        for slot in articles.indices where !articles[slot].isErased {
            guard let first = articles[slot].firstDay, first < day else { continue }
            var (kept, count) = articles[slot].keeping { _, held in held >= day }
            kept.sections.dropDays(before: day)
            dropped += count
            replace(Int32(slot), with: kept)
        }
        return dropped
    }

    /// Puts `article` in `slot` in place of what was there; an article without readers is
    /// erased.
    private mutating func replace(_ slot: Int32, with article: ArticleIndex) {
        let before = articles[Int(slot)]
        pairCount += article.readerCount - before.readerCount
        if article.isErased {
            slots[ExactKey(before.name)] = nil
            // A later event of this name starts a new article, not this empty one.
            if lastSlot == slot { lastSlot = -1 }
            erasedSinceCapture.insert(ExactKey(before.name))
            let erased = ArticleIndex(name: before.name, version: max(article.version, before.version &+ 1))
            articles[Int(slot)] = erased
            versionFloor = max(versionFloor, erased.version &+ 1)
        } else {
            articles[Int(slot)] = article
        }
        noteChange(of: slot)
    }
}

extension ArticleIndex {
    /// Whether the article has been erased (an article exists from its first reader on).
    var isErased: Bool { readerCount == 0 }
}
