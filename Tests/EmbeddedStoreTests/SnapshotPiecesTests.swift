import ProgressStore
import Testing

@testable import EmbeddedStore

/// A checkpoint encodes an article a part at a time (`ArticleCodec.encode(_:mark:pieceBytes:into:)`):
/// the pieces must join into exactly the bytes of the article encoded whole, checksum included.
@Suite("Snapshots in pieces")
struct SnapshotPiecesTests {
    @Test("XXH64 over pieces of any sizes is the XXH64 of the pieces joined")
    func hashInPieces() {
        var random = SplitMix(state: 7)
        for length in [0, 1, 3, 4, 7, 8, 31, 32, 33, 63, 64, 65, 100, 1_000, 4_099] {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
            let whole = bytes.withUnsafeBytes { XXH64.hash($0) }
            for _ in 0..<20 {
                var stream = XXH64.Stream()
                var start = 0
                while start < length {
                    let end = min(length, start + Int.random(in: 0...40, using: &random))
                    bytes.withUnsafeBytes { stream.update(UnsafeRawBufferPointer(rebasing: $0[start..<end])) }
                    start = end
                }
                #expect(stream.finish() == whole, "\(length) bytes")
            }
        }
    }

    @Test("an article encoded in pieces of any size is the bytes of it encoded whole, in pieces of that size")
    func articleInPieces() throws {
        let index = RandomIndexLoad(seed: 3).index()
        let articles = index.captureArticles(changedSince: [:])
        #expect(articles.count == RandomIndexLoad.articles.count)
        for article in articles {
            let whole = ArticleCodec.encode(article.index, mark: 42)
            var sizes = [5, 8, 13, 32, 4_096, whole.count - 1, whole.count, whole.count + 1]
            if whole.count < 20_000 { sizes.append(1) }
            for pieceBytes in sizes {
                var pieces: [[UInt8]] = []
                let size = try MemoryIndex.encode(article, seq: 42, pieceBytes: pieceBytes) {
                    pieces.append(Array($0))
                }
                #expect(size == whole.count)
                #expect(pieces.flatMap { $0 } == whole, "\(article.key.string) in pieces of \(pieceBytes)")
                #expect(pieces.dropLast().allSatisfy { $0.count == pieceBytes })
                #expect((1...pieceBytes).contains(pieces.last?.count ?? 0))
            }
        }
    }

    @Test("a sink that fails stops the encoding with its error")
    func sinkFailure() throws {
        let index = RandomIndexLoad(seed: 4).index()
        let article = try #require(index.captureArticles(changedSince: [:]).first { $0.key.string == "/big" })
        var pieces = 0
        let failure = StoreError.posix(28, "no room")
        #expect(throws: failure) {
            try MemoryIndex.encode(article, seq: 1, pieceBytes: 1_000) { _ throws(StoreError) in
                pieces += 1
                if pieces == 3 { throw failure }
            }
        }
        #expect(pieces == 3)
    }
}
