import Testing

@testable import ProgressStore

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
}
