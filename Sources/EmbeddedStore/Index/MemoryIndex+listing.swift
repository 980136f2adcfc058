import ProgressStore

extension MemoryIndex {
    /// One page of the listing (as ``ProgressStore/listing(_:completion:)``).
    ///
    /// All time, from orders kept a changed article at a time: a page costs what the articles
    /// that changed since the last listing cost, plus the page itself — not the number of
    /// articles. Over a date range every article is folded over the range, outside the lock.
    func listing(_ query: ListingQuery) -> ListingPage {
        guard query.days == .allTime else {
            let snapshots = state.read { $0.articles }
            return ListingPage.cut(
                from: snapshots.compactMap {
                    $0.isErased ? nil : $0.listing(in: query.days, threshold: query.threshold)
                },
                for: query)
        }
        return listingOrders.withLock { orders in
            let changed = state.write { $0.takeChangedSlots() }
            let rebuild = orders.threshold != query.threshold
            // Copies share the article's buffers; the rows are computed outside the lock.
            let articles = state.read { state in
                rebuild ? state.articles : changed.map { state.articles[Int($0)] }
            }
            let slots = rebuild ? Array(0..<Int32(articles.count)) : changed
            let rows = articles.map {
                $0.isErased ? nil : $0.listing(in: .allTime, threshold: query.threshold)
            }
            if rebuild {
                orders.rebuild(rows, threshold: query.threshold)
            } else {
                orders.update(zip(slots, rows))
            }
            return orders.page(query)
        }
    }
}

/// The all-time listing's rows by article slot, in each of the listing's orders.
struct ListingOrders {
    /// The threshold the rows' completion rates were computed at (NaN before the first listing).
    private(set) var threshold = Double.nan
    /// By slot: the all-time row as of the last listing (a placeholder for an erased article).
    private var rows: [ArticleListing] = []
    /// By slot: whether the article is in the orders (not erased).
    private var listed: [Bool] = []
    private var byName = SortedSlots()
    private var byReaders = SortedSlots()
    private var byCompletion = SortedSlots()
    private var byRecent = SortedSlots()

    /// Every row again, at `threshold`; `nil` for an erased article.
    mutating func rebuild(_ rows: [ArticleListing?], threshold: Double) {
        self.rows = rows.map { $0 ?? Self.placeholder }
        listed = rows.map { $0 != nil }
        self.threshold = threshold
        byName = SortedSlots()
        byReaders = SortedSlots()
        byCompletion = SortedSlots()
        byRecent = SortedSlots()
        for slot in rows.indices where listed[slot] { insert(Int32(slot)) }
    }

    /// Moves each changed article to its new places: out of the orders first, all of them, then
    /// back in — so that an erased article and a new one of the same name never meet in an
    /// order. Articles new to the listing are added; erased ones only taken out.
    mutating func update(_ changed: some Sequence<(Int32, ArticleListing?)>) {
        let changed = Array(changed)
        for (slot, _) in changed where Int(slot) < rows.count && listed[Int(slot)] {
            remove(slot)
            listed[Int(slot)] = false
        }
        for (slot, row) in changed {
            // Slots are given out in order, and a new one is among the changed.
            while rows.count <= Int(slot) {
                rows.append(Self.placeholder)
                listed.append(false)
            }
            rows[Int(slot)] = row ?? Self.placeholder
        }
        for (slot, row) in changed where row != nil {
            listed[Int(slot)] = true
            insert(slot)
        }
    }

    /// The page `query` (all time) asks for.
    func page(_ query: ListingQuery) -> ListingPage {
        var page: [ArticleListing] = []
        page.reserveCapacity(min(query.limit, 1000))
        var hasMore = false
        var skipped = 0
        let start: Int
        if let prefix = query.prefix, query.order == .article {
            // Ids under a prefix lie together in id order.
            start = byName.firstRank { bytesPrecede(rows[Int($0)].article, prefix) } + query.offset
            skipped = query.offset
        } else if query.prefix == nil {
            start = query.offset
            skipped = query.offset
        } else {
            start = 0
        }
        slots(in: query.order).forEach(from: start) { slot in
            let row = rows[Int(slot)]
            guard query.includes(row.article) else { return query.order != .article }
            if skipped < query.offset {
                skipped += 1
                return true
            }
            guard page.count < query.limit else {
                hasMore = true
                return false
            }
            page.append(row)
            return true
        }
        return ListingPage(rows: page, hasMore: hasMore)
    }

    private func slots(in order: ListingOrder) -> SortedSlots {
        switch order {
        case .article: byName
        case .readers: byReaders
        case .completion: byCompletion
        case .recent: byRecent
        }
    }

    private mutating func insert(_ slot: Int32) {
        let rows = self.rows
        byName.insert(slot) { ListingOrder.article.areInIncreasingOrder(rows[Int($0)], rows[Int($1)]) }
        byReaders.insert(slot) { ListingOrder.readers.areInIncreasingOrder(rows[Int($0)], rows[Int($1)]) }
        byCompletion.insert(slot) {
            ListingOrder.completion.areInIncreasingOrder(rows[Int($0)], rows[Int($1)])
        }
        byRecent.insert(slot) { ListingOrder.recent.areInIncreasingOrder(rows[Int($0)], rows[Int($1)]) }
    }

    private mutating func remove(_ slot: Int32) {
        let rows = self.rows
        byName.remove(slot) { ListingOrder.article.areInIncreasingOrder(rows[Int($0)], rows[Int($1)]) }
        byReaders.remove(slot) { ListingOrder.readers.areInIncreasingOrder(rows[Int($0)], rows[Int($1)]) }
        byCompletion.remove(slot) {
            ListingOrder.completion.areInIncreasingOrder(rows[Int($0)], rows[Int($1)])
        }
        byRecent.remove(slot) { ListingOrder.recent.areInIncreasingOrder(rows[Int($0)], rows[Int($1)]) }
    }

    private static let placeholder = ArticleListing(
        article: "", readers: 0, events: 0, completionRate: 0, meanDepth: 0, lastEventMs: nil)
}
