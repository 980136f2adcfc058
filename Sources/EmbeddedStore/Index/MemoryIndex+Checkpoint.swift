import ProgressStore

/// One article as it was at a checkpoint's moment: a copy-on-write copy, encoded later,
/// outside every lock.
struct CapturedArticle: Sendable {
    let key: ExactKey
    let version: UInt64
    let index: ArticleIndex
}

extension MemoryIndex {
    /// The articles whose version is not the one in `known`, as they are now. Cheap: copies
    /// share their chunks with the live articles until those change.
    func captureArticles(changedSince known: [ExactKey: UInt64]) -> [CapturedArticle] {
        state.read { state in
            state.articles.compactMap { article in
                guard !article.isErased else { return nil }
                let key = ExactKey(article.name)
                return known[key] == article.version
                    ? nil : CapturedArticle(key: key, version: article.version, index: article)
            }
        }
    }

    /// The articles erased since the last call (a checkpoint deletes their rows).
    func takeErasedArticles() -> Set<ExactKey> {
        state.write { state in
            defer { state.erasedSinceCapture = [] }
            return state.erasedSinceCapture
        }
    }

    /// Every article's version now, by exact id.
    func versionsByArticle() -> [ExactKey: UInt64] {
        Dictionary(uniqueKeysWithValues: articleVersions().map { (ExactKey($0.article), $0.version) })
    }

    /// A captured article in ``ArticleCodec``'s form, stamped with the journal seq it holds
    /// everything up to, handed to `sink` in pieces of `pieceBytes`; returns their total.
    @discardableResult
    static func encode(
        _ article: CapturedArticle, seq: Int64, pieceBytes: Int,
        into sink: (UnsafeRawBufferPointer) throws(StoreError) -> Void
    ) throws(StoreError) -> Int {
        try ArticleCodec.encode(article.index, mark: seq, pieceBytes: pieceBytes, into: sink)
    }
}
