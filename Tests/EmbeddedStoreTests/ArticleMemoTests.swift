import ProgressStore
import Testing

@testable import EmbeddedStore

@Suite("ArticleMemo: slots by the bytes of a String value")
struct ArticleMemoTests {
    @Test("a string and its copies share their bits; different texts, short or long, do not")
    func bits() {
        let long = (0..<3).map { "/blog/a-long-article-id-\($0)" }
        let copy = long[1]
        #expect(ArticleMemo.Bits(copy) == ArticleMemo.Bits(long[1]))
        #expect(ArticleMemo.Bits(long[0]) != ArticleMemo.Bits(long[1]))
        // Short ids live inside the string: their bytes are the text, wherever they differ.
        #expect(ArticleMemo.Bits("/s1") == ArticleMemo.Bits("/s" + "1"))
        #expect(ArticleMemo.Bits("/s1") != ArticleMemo.Bits("/s2"))
        #expect(ArticleMemo.Bits("abcdefghijklmn1") != ArticleMemo.Bits("abcdefghijklmn2"))
    }

    @Test("an entry answers for its own key only, and a clash replaces the older one")
    func clash() throws {
        // Two short ids that land on one entry, found by trying.
        var first: [Int: String] = [:]
        var pair: (String, String)?
        for n in 0..<10_000 {
            let id = "/s\(n)"
            let position = ArticleMemo.position(ArticleMemo.Bits(id))
            if let earlier = first[position] {
                pair = (earlier, id)
                break
            }
            first[position] = id
        }
        let (a, b) = try #require(pair)
        var memo = ArticleMemo()
        #expect(memo[ArticleMemo.Bits(a)] == nil)
        memo[ArticleMemo.Bits(a)] = 7
        #expect(memo[ArticleMemo.Bits(a)] == 7)
        #expect(memo[ArticleMemo.Bits(b)] == nil)
        memo[ArticleMemo.Bits(b)] = 9
        #expect(memo[ArticleMemo.Bits(b)] == 9)
        #expect(memo[ArticleMemo.Bits(a)] == nil)
        // The empty string is a key like any other, not an empty entry.
        #expect(memo[ArticleMemo.Bits("")] == nil)
        memo[ArticleMemo.Bits("")] = 0
        #expect(memo[ArticleMemo.Bits("")] == 0)
    }

    // A batch looks each article up once per distinct `String` value naming it; whatever strings
    // name the articles — one shared string, equal bytes in strings of their own, ids short
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
