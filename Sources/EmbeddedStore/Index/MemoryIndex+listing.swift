import ProgressStore

extension MemoryIndex {
    /// One page of the listing (as ``ProgressStore/listing(_:completion:)``).
    ///
    /// From orders kept a changed article at a time, for all time and for each of the few
    /// ranges asked for last (``ListingBook``): a page costs what the articles that changed since
    /// that range was last listed cost, plus the page itself — not the number of articles. A
    /// range asked for the first time, or at another threshold, folds every article once.
    func listing(_ query: ListingQuery) -> ListingPage {
        listingBook.withLock { book in
            var orders = book.take(query.days)
            let (changed, position, articleCount) = state.write { state in
                book.dropLagging(behind: state.changes.end, by: 2 * state.articles.count + 1024)
                state.changes.forget(before: min(orders.position, book.oldestPosition ?? .max))
                let read =
                    orders.threshold == query.threshold ? state.changes.read(from: orders.position) : nil
                return (read?.slots, read?.next ?? state.changes.markRead(), state.articles.count)
            }
            // Many changes cost as much as folding every article again.
            let rebuild = changed.map { $0.count > articleCount / 2 } ?? true
            // Copies share the articles' buffers; the rows are computed outside the lock.
            let articles = state.read { state in
                rebuild ? state.articles : changed!.map { state.articles[Int($0)] }
            }
            let rows = articles.map {
                $0.isErased ? nil : $0.listing(in: query.days, threshold: query.threshold)
            }
            if rebuild {
                orders.rebuild(rows, threshold: query.threshold)
            } else {
                orders.update(zip(changed!, rows))
            }
            orders.position = position
            let page = orders.page(query)
            book.put(orders)
            return page
        }
    }
}

/// The listing's orders for all time and for the ranges asked for last, at most
/// ``CounterPolicy/keptListingRanges`` of them.
struct ListingBook {
    /// Least recently listed first.
    private var kept: [ListingOrders] = []

    /// The orders over `days`, taken out of the book until ``put(_:)``; new ones if none.
    mutating func take(_ days: DayRange) -> ListingOrders {
        guard let index = kept.firstIndex(where: { $0.days == days }) else {
            return ListingOrders(days: days)
        }
        return kept.remove(at: index)
    }

    /// Keeps `orders` as the most recently listed, forgetting the least recently listed range
    /// past ``CounterPolicy/keptListingRanges`` (all time is kept whatever its turn).
    mutating func put(_ orders: ListingOrders) {
        kept.append(orders)
        while kept.count(where: { $0.days != .allTime }) > CounterPolicy.keptListingRanges {
            kept.remove(at: kept.firstIndex { $0.days != .allTime }!)
        }
    }

    /// Forgets the orders more than `bound` changes behind `end`: folding every article again
    /// costs no more than following that many, and the change log need not keep them.
    mutating func dropLagging(behind end: Int, by bound: Int) {
        kept.removeAll { end - $0.position > bound }
    }

    /// The earliest change log position an order kept reads from.
    var oldestPosition: Int? { kept.map(\.position).min() }
}
