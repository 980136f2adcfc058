import ProgressStore

/// One article of a ``MemoryIndex`` as bytes: what a store keeps, one blob per article,
/// rewriting only the articles whose version moved since it last wrote them.
struct EncodedArticle: Sendable {
    /// The article's ``MemoryIndex/version(of:)`` when it was taken.
    var version: UInt64
    /// The index's ``MemoryIndex/mark`` when it was taken: the article holds every event
    /// applied up to that mark, and none applied after it.
    var mark: Int64
    /// Everything needed to rebuild the article exactly, checksummed (see ``ArticleCodec``).
    var bytes: [UInt8]
}

/// An article rebuilt from an ``EncodedArticle``'s bytes but not yet in any index: decode on
/// as many threads as you like, then hand the articles to ``MemoryIndex/insert(_:)``.
struct DecodedArticle: Sendable {
    let index: ArticleIndex
    /// The mark it was encoded with (see ``EncodedArticle/mark``).
    let mark: Int64
    /// The highest source id its reader-days name, which the index it joins must hold.
    let highestSource: UInt16

    /// The article id.
    var article: String { index.name }
    /// Its version, which it keeps once inserted.
    var version: UInt64 { index.version }
    /// Its readers: the (article, reader) pairs it adds.
    var readerCount: Int { index.readerCount }
}

extension MemoryIndex {
    /// Every article with its version, in no particular order; the lock is held for one pass
    /// over the articles.
    func articleVersions() -> [(article: String, version: UInt64)] {
        state.read { state in state.articles.compactMap { $0.isErased ? nil : ($0.name, $0.version) } }
    }

    /// `article` as bytes with its version and the index's mark, or `nil` for an unknown
    /// article. The read lock is held only to copy the article (a copy-on-write snapshot);
    /// encoding runs outside it, and meanwhile the writer copies at most one chunk of any column
    /// it changes. Safe from any thread.
    func encodeArticle(_ article: String) -> EncodedArticle? {
        guard
            let (index, mark) = state.read({ state in state.article(named: article).map { ($0, state.mark) } }
            )
        else { return nil }
        return EncodedArticle(
            version: index.version, mark: mark, bytes: ArticleCodec.encode(index, mark: mark))
    }

    /// Rebuilds an article from ``EncodedArticle/bytes`` without touching any index: a pure
    /// function, safe on any number of threads at once. Throws ``StoreError`` for bytes that are
    /// truncated, damaged or of an unknown format; never reads outside `bytes`.
    static func decodeArticle(_ bytes: UnsafeRawBufferPointer) throws(StoreError) -> DecodedArticle {
        let (index, mark) = try ArticleCodec.decode(bytes)
        return DecodedArticle(index: index, mark: mark, highestSource: index.highestSource)
    }

    /// Adds decoded articles under one short hold of the write lock (a dictionary insertion
    /// each). Throws, adding none, when the index already holds one of them or two share an id:
    /// restore articles into an index before applying events to it.
    func insert(_ articles: [DecodedArticle]) throws(StoreError) {
        var names = Set<ExactKey>()
        for article in articles where !names.insert(ExactKey(article.article)).inserted {
            throw StoreError.corrupt("article \(article.article) restored twice")
        }
        try state.write { state throws(StoreError) in
            if let held = articles.first(where: { state.slots[ExactKey($0.article)] != nil }) {
                throw StoreError.corrupt("article \(held.article) is already in the index")
            }
            if let unknown = articles.first(where: { Int($0.highestSource) >= state.sources.count }) {
                throw StoreError.corrupt("article \(unknown.article) names a source the store does not hold")
            }
            state.insert(articles.map(\.index))
        }
    }

    /// Decodes one article and inserts it (``decodeArticle(_:)`` then ``insert(_:)``): the
    /// decoding runs outside the lock, so threads may restore different articles at once.
    func restoreArticle(_ bytes: UnsafeRawBufferPointer) throws(StoreError) {
        try insert([Self.decodeArticle(bytes)])
    }
}
