#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Everything a ``MemoryIndex`` holds, behind its lock.
struct IndexState {
    /// By exact bytes: ids that differ only in Unicode normalization are different articles.
    var slots: [ArticleKey: Int32] = [:]
    var articles: [ArticleIndex] = []
    var pairCount = 0
    /// See ``MemoryIndex/mark``.
    var mark: Int64 = 0
    /// The article the last event went to: a batch's events mostly share one.
    private var lastSlot: Int32 = -1

    func article(named name: String) -> ArticleIndex? {
        slots[ArticleKey(name)].map { articles[Int($0)] }
    }

    /// The version of the article `name`, read in place: copying the article out (as
    /// ``article(named:)`` does) retains every buffer it holds.
    func version(of name: String) -> UInt64? {
        slots[ArticleKey(name)].map { articles[Int($0)].version }
    }

    mutating func fold(article name: String, reader: String, day: Int32, _ figures: DayFigures) {
        let slot: Int32
        if lastSlot >= 0 && ArticleKey.bytesEqual(articles[Int(lastSlot)].name, name) {
            slot = lastSlot
        } else if let found = slots[ArticleKey(name)] {
            slot = found
        } else {
            slot = Int32(articles.count)
            slots[ArticleKey(name)] = slot
            articles.append(ArticleIndex(name: name))
        }
        lastSlot = slot
        if articles[Int(slot)].fold(reader: reader, day: day, figures) {
            pairCount += 1
        }
    }

    /// Adds whole articles; the caller has checked that none is held yet.
    mutating func insert(_ inserted: [ArticleIndex]) {
        articles.reserveCapacity(articles.count + inserted.count)
        for article in inserted {
            slots[ArticleKey(article.name)] = Int32(articles.count)
            articles.append(article)
            pairCount += article.readerCount
        }
    }
}

/// An article id as a dictionary key by its exact bytes, like ``ExactKey``, compared with
/// `memcmp` rather than `String.UTF8View.elementsEqual`: that walk took a fifth of `apply`.
struct ArticleKey: Hashable {
    let name: String

    init(_ name: String) {
        self.name = name
    }

    static func == (lhs: ArticleKey, rhs: ArticleKey) -> Bool {
        bytesEqual(lhs.name, rhs.name)
    }

    func hash(into hasher: inout Hasher) {
        withUTF8(of: name) { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }

    static func bytesEqual(_ a: String, _ b: String) -> Bool {
        a.utf8.count == b.utf8.count
            && withUTF8(of: a) { a in
                withUTF8(of: b) { b in a.isEmpty || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0 }
            }
    }
}

/// Calls `body` with `string`'s UTF-8 bytes. Borrows them where `String.withUTF8` would copy
/// the string into a `var` first: a retain and a release per call, 6% of `apply`.
func withUTF8<Result>(of string: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
    if let result = string.utf8.withContiguousStorageIfAvailable(body) { return result }
    var copy = string
    return copy.withUTF8(body)
}
