import ProgressStore
import Testing

@testable import EmbeddedStore

/// Two readers of "/a" over days 0 and 1, and "/b" read on day 5 only.
private let fixture: [EventRecord] = [
    event("/a", "r1", at: 1_000, progress: 0.2, seen: 0.3, scrollable: false, engagedMs: 100),
    event("/a", "r1", at: 2_000, progress: 0.5, seen: 0.4, scrollable: true, engagedMs: 200),
    event("/a", "r1", at: dayMs + 5, progress: 0.3, seen: 0.9, scrollable: false, engagedMs: 50),
    event("/a", "r2", at: dayMs + 10, progress: 1, seen: 1, scrollable: true, engagedMs: 0),
    event("/b", "r3", at: 5 * dayMs + 7, progress: 0.95, seen: 1, scrollable: true, engagedMs: 10),
]

@Suite("EmbeddedStore folds events into reader days")
struct EmbeddedStoreFoldingTests {
    @Test("a reader's days fold by max, any, sum, min and max", arguments: StoreKind.allCases)
    func foldsAcrossDays(kind: StoreKind) async throws {
        let folder = try TemporaryFolder()
        let store = try EmbeddedStore.open(kind, in: folder)
        defer { store.close() }
        let result = try await store.append(fixture)
        #expect(result == AppendResult(counted: 5, duplicates: 0))

        let all = try #require(try store.readers(of: "/a", in: .allTime))
        #expect(
            all == [
                ReaderSummary(
                    reader: "r1",
                    figures: ReaderFigures(
                        maxProgress: 0.5, maxSeenDepth: 0.9, scrollable: true, events: 3,
                        engagedMs: 350, firstMs: 1_000, lastMs: dayMs + 5)),
                ReaderSummary(
                    reader: "r2",
                    figures: ReaderFigures(
                        maxProgress: 1, maxSeenDepth: 1, scrollable: true, events: 1,
                        engagedMs: 0, firstMs: dayMs + 10, lastMs: dayMs + 10)),
            ])
    }

    @Test("a day range keeps only the days inside it", arguments: StoreKind.allCases)
    func rangeSelectsDays(kind: StoreKind) async throws {
        let folder = try TemporaryFolder()
        let store = try EmbeddedStore.open(kind, in: folder)
        defer { store.close() }
        _ = try await store.append(fixture)

        let dayOne = try #require(try store.readers(of: "/a", in: DayRange(from: 1, to: 1)))
        #expect(
            dayOne.first
                == ReaderSummary(
                    reader: "r1",
                    figures: ReaderFigures(
                        maxProgress: 0.3, maxSeenDepth: 0.9, scrollable: false, events: 1,
                        engagedMs: 50, firstMs: dayMs + 5, lastMs: dayMs + 5)))
        #expect(dayOne.count == 2)
        #expect(try store.reader("r1", of: "/a", in: DayRange(to: 0))?.events == 2)
        #expect(try store.readers(of: "/a", in: DayRange(from: 2)) == [])
        #expect(try store.readers(of: "/never", in: .allTime) == nil)
    }

    @Test("the listing has every article, zeros when nothing is in range", arguments: StoreKind.allCases)
    func listing(kind: StoreKind) async throws {
        let folder = try TemporaryFolder()
        let store = try EmbeddedStore.open(kind, in: folder)
        defer { store.close() }
        _ = try await store.append(fixture)

        // Days 0–1: r1 depth 0.5 and r2 depth 1, both scrollable; only r2 reaches 0.9.
        #expect(
            try store.listing(in: DayRange(from: 0, to: 1), threshold: 0.9) == [
                ArticleListing(
                    article: "/a", readers: 2, events: 4, completionRate: 0.5, meanDepth: 0.75,
                    lastEventMs: dayMs + 10),
                ArticleListing(
                    article: "/b", readers: 0, events: 0, completionRate: 0, meanDepth: 0, lastEventMs: nil),
            ])
        // Day 1: r1 was not scrollable that day, so only r2 counts.
        #expect(
            try store.listing(in: DayRange(from: 1, to: 1), threshold: 0.9).first
                == ArticleListing(
                    article: "/a", readers: 2, events: 2, completionRate: 1, meanDepth: 1,
                    lastEventMs: dayMs + 10))
        #expect(
            try store.listing(in: .allTime, threshold: 0.96).last
                == ArticleListing(
                    article: "/b", readers: 1, events: 1, completionRate: 0, meanDepth: 0.95,
                    lastEventMs: 5 * dayMs + 7))
    }

    @Test("an event before 1970 lands on day -1")
    func negativeDay() async throws {
        let store = try EmbeddedStore.open(path: ":memory:")
        defer { store.close() }
        _ = try await store.append([event(at: -1), event(at: 0)])
        #expect(try store.reader("r1", of: "/a", in: DayRange(from: -1, to: -1))?.events == 1)
        #expect(try store.reader("r1", of: "/a", in: DayRange(from: 0, to: 0))?.events == 1)
    }

    @Test("closing and reopening the file gives the same figures")
    func restart() async throws {
        let folder = try TemporaryFolder()
        let first = try EmbeddedStore.open(path: folder.databasePath)
        _ = try await first.append(fixture)
        let readers = try first.readers(of: "/a", in: .allTime)
        let listing = try first.listing(in: .allTime, threshold: 0.9)
        first.close()

        let second = try EmbeddedStore.open(path: folder.databasePath)
        defer { second.close() }
        #expect(try second.readers(of: "/a", in: .allTime) == readers)
        #expect(try second.listing(in: .allTime, threshold: 0.9) == listing)
        _ = try await second.append([event("/a", "r2", at: 3_000, engagedMs: 5)])
        #expect(try second.reader("r2", of: "/a")?.events == 2)
    }

    @Test("two memory stores are separate databases")
    func memoryStoresAreSeparate() async throws {
        let one = try EmbeddedStore.open(path: ":memory:")
        let two = try EmbeddedStore.open(path: ":memory:")
        defer {
            one.close()
            two.close()
        }
        _ = try await one.append([event()])
        #expect(try one.readers(of: "/a", in: .allTime)?.count == 1)
        #expect(try two.readers(of: "/a", in: .allTime) == nil)
        // Memory stores occupy no disk.
        #expect(one.sizeBytes == 0)
    }
}
