import ProgressStore

/// The listing's rows over one range of days by article slot, in each of the listing's orders
/// that has been asked for: an order is built the first time a page asks for it, and kept.
struct ListingOrders {
    let days: DayRange
    /// The threshold the rows' completion rates were computed at (NaN before the first listing).
    private(set) var threshold = Double.nan
    /// Where in the index's ``ChangeLog`` the rows are read up to.
    var position = 0
    /// By slot: the row as of the last listing (a placeholder for an erased article).
    private var rows: [ArticleListing] = []
    /// By slot: whether the article is in the orders (not erased).
    private var listed: [Bool] = []
    /// By ``ListingOrder``'s case index: the slots in that order, once asked for.
    private var orders: [SortedSlots?] = Array(repeating: nil, count: ListingOrder.allCases.count)

    init(days: DayRange) {
        self.days = days
    }

    /// Every row again, at `threshold`; `nil` for an erased article.
    mutating func rebuild(_ rows: [ArticleListing?], threshold: Double) {
        self.rows = rows.map { $0 ?? Self.placeholder }
        listed = rows.map { $0 != nil }
        self.threshold = threshold
        orders = Array(repeating: nil, count: ListingOrder.allCases.count)
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

    /// The page `query` asks for, of the rows over ``days``.
    mutating func page(_ query: ListingQuery) -> ListingPage {
        let slots = slots(in: query.order)
        var page: [ArticleListing] = []
        page.reserveCapacity(min(query.limit, 1000))
        var hasMore = false
        var skipped = 0
        let start: Int
        if let prefix = query.prefix, query.order == .article {
            // Ids under a prefix lie together in id order.
            start = slots.firstRank { bytesPrecede(rows[Int($0)].article, prefix) } + query.offset
            skipped = query.offset
        } else if query.prefix == nil {
            start = query.offset
            skipped = query.offset
        } else {
            start = 0
        }
        slots.forEach(from: start) { slot in
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

    /// The slots in `order`, built from the rows if no page has asked for it yet.
    private mutating func slots(in order: ListingOrder) -> SortedSlots {
        let index = Self.index(of: order)
        if let slots = orders[index] { return slots }
        let rows = self.rows
        let sorted = rows.indices.filter { listed[$0] }.sorted {
            order.areInIncreasingOrder(rows[$0], rows[$1])
        }
        let slots = SortedSlots(sorted: sorted.map { Int32($0) })
        orders[index] = slots
        return slots
    }

    private mutating func insert(_ slot: Int32) {
        let rows = self.rows
        for index in orders.indices where orders[index] != nil {
            let order = ListingOrder.allCases[index]
            orders[index]!.insert(slot) { order.areInIncreasingOrder(rows[Int($0)], rows[Int($1)]) }
        }
    }

    private mutating func remove(_ slot: Int32) {
        let rows = self.rows
        for index in orders.indices where orders[index] != nil {
            let order = ListingOrder.allCases[index]
            orders[index]!.remove(slot) { order.areInIncreasingOrder(rows[Int($0)], rows[Int($1)]) }
        }
    }

    private static func index(of order: ListingOrder) -> Int {
        ListingOrder.allCases.firstIndex(of: order)!
    }

    private static let placeholder = ArticleListing(
        article: "", readers: 0, events: 0, completionRate: 0, meanDepth: 0, lastEventMs: nil)
}
