import ProgressStore
import Testing

@testable import EmbeddedStore

@Suite("MemoryIndex: rows, the listing and the footprint")
struct MemoryIndexRowsTests {
    @Test("restored rows and applied events fold per day")
    func restoreAndApply() throws {
        let index = MemoryIndex()
        let day3 = 3 * dayMs
        let day5 = 5 * dayMs
        index.restore([
            (
                "/a", "r1", 3,
                ReaderFigures(
                    maxProgress: 0.4, maxSeenDepth: 0.5, scrollable: false,
                    events: 2,
                    engagedMs: 1_000, firstMs: day3 + 100, lastMs: day3 + 900)
            )
        ])
        // The same key again folds into it.
        index.restore([
            (
                "/a", "r1", 3,
                ReaderFigures(
                    maxProgress: 0.6, maxSeenDepth: 0.2, scrollable: true,
                    events: 1,
                    engagedMs: 500, firstMs: day3 + 50, lastMs: day3 + 400)
            )
        ])
        index.restore([
            (
                "/a", "r1", 5,
                ReaderFigures(
                    maxProgress: 0.3, maxSeenDepth: 0.9, scrollable: false,
                    events: 1,
                    engagedMs: 0, firstMs: day5 + 10, lastMs: day5 + 10)
            )
        ])
        index.apply([
            event("/a", "r1", at: day5 + 20, progress: 0.35, seen: 0.1, scrollable: false, engagedMs: 200)
        ])

        #expect(
            index.readers(of: "/a", in: .allTime) == [
                ReaderSummary(
                    reader: "r1",
                    figures: ReaderFigures(
                        maxProgress: 0.6, maxSeenDepth: 0.9, scrollable: true, events: 5,
                        engagedMs: 1_700,
                        firstMs: day3 + 50, lastMs: day5 + 20))
            ])
        #expect(
            index.readers(of: "/a", in: DayRange(from: 4)) == [
                ReaderSummary(
                    reader: "r1",
                    figures: ReaderFigures(
                        maxProgress: 0.35, maxSeenDepth: 0.9, scrollable: false, events: 2,
                        engagedMs: 200,
                        firstMs: day5 + 10, lastMs: day5 + 20))
            ])
        #expect(index.readers(of: "/a", in: DayRange(from: 6)) == [])
        #expect(index.readers(of: "/b", in: .allTime) == nil)
        let unknown = try index.statistics(
            of: "/b", in: .allTime, metric: .progress, threshold: 0.9, minEngagedSeconds: 0)
        #expect(unknown == nil)
        #expect(index.pairCount == 1)
        index.apply([event("/b", "r1"), event("/a", "r2"), event("/a", "r2")])
        #expect(index.pairCount == 3)
    }

    @Test("counts beyond 32 bits stay exact")
    func wideCounts() {
        let index = MemoryIndex()
        index.restore([
            (
                "/w", "r1", 0,
                ReaderFigures(
                    maxProgress: 0.5, maxSeenDepth: 0.5, scrollable: true,
                    events: 4_294_967_295, engagedMs: 10_000_000_000, firstMs: 5, lastMs: 9)
            )
        ])
        index.restore([
            (
                "/w", "r2", 0,
                ReaderFigures(
                    maxProgress: 0.5, maxSeenDepth: 0.5, scrollable: true,
                    events: 4_294_967_294, engagedMs: 0, firstMs: 5, lastMs: 9)
            )
        ])
        index.apply([event("/w", "r1", at: 7, engagedMs: 1), event("/w", "r2", at: 7, engagedMs: 2)])
        let readers = index.readers(of: "/w", in: .allTime) ?? []
        #expect(readers.map(\.events) == [4_294_967_296, 4_294_967_295])
        #expect(readers.map(\.engagedMs) == [10_000_000_001, 2])
    }

    @Test("listing: every article by name in byte order, all time and over a range")
    func listing() {
        let index = MemoryIndex()
        index.apply(fiveReaders(copies: 150))  // "/five"
        index.apply([
            event("/Zed", "a", at: 10, progress: 0.95), event("/Zed", "b", at: dayMs + 20, progress: 0.4),
            event("/Zed", "c", at: 30, progress: 0.1, scrollable: false),
        ])
        #expect(
            index.listing(in: .allTime, threshold: 0.9) == [
                ArticleListing(
                    article: "/Zed", readers: 3, events: 3, completionRate: 0.5, meanDepth: 0.675,
                    lastEventMs: dayMs + 20),
                ArticleListing(
                    article: "/five", readers: 750, events: 1_650, completionRate: 0.5, meanDepth: 0.65,
                    lastEventMs: 600),
            ])
        #expect(
            index.listing(in: DayRange(from: 1), threshold: 0.3) == [
                ArticleListing(
                    article: "/Zed", readers: 1, events: 1, completionRate: 1, meanDepth: 0.4,
                    lastEventMs: dayMs + 20),
                ArticleListing(
                    article: "/five", readers: 0, events: 0, completionRate: 0, meanDepth: 0, lastEventMs: nil
                ),
            ])
    }

    @Test("article ids that differ only in Unicode normalization are two articles")
    func exactBytes() {
        let index = MemoryIndex()
        let composed = "/caf\u{E9}"
        let decomposed = "/cafe\u{301}"
        #expect(composed == decomposed)  // Swift calls them equal; the store must not.
        index.apply([event(composed, "r1"), event(decomposed, "r2")])
        #expect(index.readers(of: composed, in: .allTime)?.map(\.reader) == ["r1"])
        #expect(index.readers(of: decomposed, in: .allTime)?.map(\.reader) == ["r2"])
        #expect(index.listing(in: .allTime, threshold: 0.9).count == 2)
    }

    @Test("footprint: about 60 bytes a pair once an article is past its first chunks")
    func footprint() {
        let index = MemoryIndex()
        #expect(index.footprint == 0)
        index.apply((0..<20_000).map { event("/f", "reader-\(1_000_000 + $0)", at: Int64($0)) })
        let perPair = Double(index.footprint) / Double(index.pairCount)
        #expect(perPair > 45 && perPair < 75, "\(perPair) bytes a pair")
    }
}
