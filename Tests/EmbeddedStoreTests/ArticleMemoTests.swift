import ProgressStore
import Testing

@testable import EmbeddedStore

@Suite("ArticleMemo: the slots of a batch's articles, by their bytes")
struct ArticleMemoTests {
    static func position(_ id: String) -> Int {
        withUTF8(of: id) { ArticleMemo.position(of: $0) }
    }

    @Test(
        "equal bytes have one position; ids of one site that differ at either end, or in length, spread",
        arguments: [
            ["/s1", "/s2", "/s3"], ["", "a", "ab", "abc"],
            ["/blog/a-long-article-id-0", "/blog/a-long-article-id-1"],
            ["a-long-article-id-0/blog", "b-long-article-id-0/blog"], ["/p/12345678", "/p/123456789"],
        ])
    func positions(ids: [String]) {
        for id in ids {
            // The same bytes in storage of their own.
            #expect(Self.position(id) == Self.position(String(decoding: Array(id.utf8), as: UTF8.self)))
            #expect((0..<256).contains(Self.position(id)))
        }
        #expect(Set(ids.map(Self.position)).count > 1, "\(ids)")
    }

    @Test("an entry holds one slot at a time; an empty entry holds none")
    func entries() {
        var memo = ArticleMemo()
        #expect(memo[7] == nil)
        memo[7] = 0
        #expect(memo[7] == 0)
        memo[7] = 9
        #expect(memo[7] == 9)
        #expect(memo[8] == nil)
    }

    @Test("ids sharing a position fold into their own articles")
    func clash() throws {
        // Two short ids that land on one entry, found by trying.
        var first: [Int: String] = [:]
        var pair: (String, String)?
        for n in 0..<10_000 {
            let id = "/s\(n)"
            let position = Self.position(id)
            if let earlier = first[position] {
                pair = (earlier, id)
                break
            }
            first[position] = id
        }
        let (a, b) = try #require(pair)
        let events = (0..<16).map { (n: Int) -> EventRecord in
            event(n % 2 == 0 ? a : b, "r\(n)", at: Int64(n), progress: n % 2 == 0 ? 1 : 0)
        }
        let index = MemoryIndex()
        index.apply(events)
        #expect(index.readers(of: a, in: .allTime)?.map(\.maxProgress) == Array(repeating: 1, count: 8))
        #expect(index.readers(of: b, in: .allTime)?.map(\.maxProgress) == Array(repeating: 0, count: 8))
    }

    // A batch looks each article up in the memo; whatever strings name the articles — one shared string, equal bytes in strings of their own, ids short
    // enough to live inside the string, non-ASCII ones, more articles than the batch remembers —
    // it must fold exactly as its events do one at a time.
    @Test("a batch folds as its events one at a time, whichever strings name its articles")
    func batchFoldsAsSingles() throws {
        var random = SplitMix(state: 77)
        let shared = "/shared/article-with-a-long-id"
        // Strings made at run time, each one reused by many events, as a batch's decoder hands
        // them out: the memo's hits in production.
        let pool = (0..<400).map { "/blog/pooled-article-with-a-long-id-\($0)" }
        var events: [EventRecord] = []
        for n in 0..<3_000 {
            let article: String
            switch Int.random(in: 0..<6, using: &random) {
            case 0: article = shared
            case 5: article = pool[Int.random(in: 0..<pool.count, using: &random)]
            // The same bytes as `shared`, in storage of its own.
            case 1: article = String(decoding: Array(shared.utf8), as: UTF8.self)
            case 2: article = "/s\(Int.random(in: 0..<20, using: &random))"  // short: held inline
            case 3: article = "/blog/ünïcode-\(Int.random(in: 0..<50, using: &random))"
            default: article = "/blog/many-articles-\(Int.random(in: 0..<600, using: &random))"
            }
            events.append(
                event(
                    article, "r\(Int.random(in: 0..<40, using: &random))", at: Int64(n) * 1_000,
                    progress: .random(in: 0...1, using: &random), seen: .random(in: 0...1, using: &random),
                    engagedMs: .random(in: 0...2_000, using: &random)))
        }
        let batched = MemoryIndex()
        batched.apply(events)
        let single = MemoryIndex()
        for event in events { single.apply([event]) }
        #expect(batched.pairCount == single.pairCount)
        let articles = Set(events.map(\.article))
        #expect(articles.count > 256)
        for article in articles {
            #expect(
                batched.readers(of: article, in: .allTime) == single.readers(of: article, in: .allTime),
                "\(article)")
        }
    }
}
