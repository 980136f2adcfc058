#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How the listing orders its rows; ties go by article id, ascending.
public enum ListingOrder: String, CaseIterable, Sendable, Hashable {
    /// Most readers first.
    case readers
    /// Highest completion rate first.
    case completion
    /// Latest event first; articles with no event in range last.
    case recent
    /// By article id, ascending (UTF-8 byte order).
    case article

    /// Whether `a` comes before `b` in this order. Article ids are unique, so no two rows tie.
    public func areInIncreasingOrder(_ a: ArticleListing, _ b: ArticleListing) -> Bool {
        switch self {
        case .readers where a.readers != b.readers: return a.readers > b.readers
        case .completion where a.completionRate != b.completionRate:
            return a.completionRate > b.completionRate
        case .recent where a.lastEventMs != b.lastEventMs:
            return (a.lastEventMs ?? .min) > (b.lastEventMs ?? .min)
        default: return bytesPrecede(a.article, b.article)
        }
    }
}

/// One page of the listing asked of a store.
public struct ListingQuery: Sendable, Hashable {
    public var days: DayRange
    public var order: ListingOrder
    /// Decides completion, counting readers as the stats route does with `metric=progress` and
    /// `minEngagedSeconds=0`.
    public var threshold: Double
    /// Rows to skip, in `order`.
    public var offset: Int
    /// Rows at most, ≥ 1.
    public var limit: Int
    /// Only articles whose id starts with these bytes; `nil` for every article.
    public var prefix: String?

    public init(
        days: DayRange = .allTime, order: ListingOrder = .readers, threshold: Double, offset: Int = 0,
        limit: Int = 50, prefix: String? = nil
    ) {
        self.days = days
        self.order = order
        self.threshold = threshold
        self.offset = offset
        self.limit = limit
        self.prefix = prefix
    }

    /// Whether `article` belongs in the listing: every article, or those under ``prefix``.
    public func includes(_ article: String) -> Bool {
        guard let prefix else { return true }
        return article.utf8.starts(with: prefix.utf8)
    }
}

/// Rows of the listing, and whether any come after them.
public struct ListingPage: Sendable, Equatable {
    public var rows: [ArticleListing]
    /// Whether a page from `offset + rows.count` would hold anything.
    public var hasMore: Bool

    public init(rows: [ArticleListing], hasMore: Bool) {
        self.rows = rows
        self.hasMore = hasMore
    }
}

/// One article's line in the listing.
public struct ArticleListing: Sendable, Equatable {
    public var article: String
    /// Every reader with an event in range, unscrollable ones included.
    public var readers: Int
    public var events: Int64
    /// Completed ÷ counted (scrollable) readers; 0 when none counts.
    public var completionRate: Double
    /// Mean of the counted readers' maximum progress; 0 when none counts.
    public var meanDepth: Double
    /// Latest event time in range, ms since the epoch; `nil` when none is in range.
    public var lastEventMs: Int64?

    public init(
        article: String, readers: Int, events: Int64, completionRate: Double, meanDepth: Double,
        lastEventMs: Int64?
    ) {
        self.article = article
        self.readers = readers
        self.events = events
        self.completionRate = completionRate
        self.meanDepth = meanDepth
        self.lastEventMs = lastEventMs
    }
}

/// Whether `a`'s UTF-8 bytes sort before `b`'s.
package func bytesPrecede(_ a: String, _ b: String) -> Bool {
    withUTF8(of: a) { a in
        withUTF8(of: b) { b in
            let common = min(a.count, b.count)
            if common > 0 {
                let order = memcmp(a.baseAddress!, b.baseAddress!, common)
                if order != 0 { return order < 0 }
            }
            return a.count < b.count
        }
    }
}
