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
                let key = ExactKey(article.name)
                return known[key] == article.version
                    ? nil : CapturedArticle(key: key, version: article.version, index: article)
            }
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

/// Reads the little-endian varints and length-prefixed strings of the id blobs in `meta` that
/// releases before `recent_ids` rows wrote.
struct CheckpointReader {
    let bytes: [UInt8]
    var offset = 0

    static let damaged = StoreError(code: 0, message: "a checkpoint blob is damaged")

    var isAtEnd: Bool { offset == bytes.count }

    mutating func byte() throws(StoreError) -> UInt8 {
        guard offset < bytes.count else { throw Self.damaged }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func integer() throws(StoreError) -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let byte = try byte()
            guard shift < 64 else { throw Self.damaged }
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
    }

    /// A count that the remaining bytes could hold (each item takes at least one byte).
    mutating func count() throws(StoreError) -> Int {
        let value = try integer()
        guard value <= UInt64(bytes.count - offset) else { throw Self.damaged }
        return Int(value)
    }

    mutating func string() throws(StoreError) -> String {
        let count = try count()
        defer { offset += count }
        return String(decoding: bytes[offset..<offset + count], as: UTF8.self)
    }
}
