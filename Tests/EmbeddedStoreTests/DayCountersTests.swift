import ProgressStore
import Testing

@testable import EmbeddedStore

/// Where one-day ranges of a large article are answered from: the day's counters under the
/// index's lock, its listed records outside it, and every reader only when neither can; and
/// the same counters after a snapshot is restored. (The conformance suite holds the answers
/// to the plain computation.)
@Suite("Day counters answer one-day ranges of a large article")
struct DayCountersTests {
    static let busy: Int32 = 20_000
    static let quiet: Int32 = 20_001

    /// An index keeping counters by day past ``CounterPolicy/segmentCountersFrom`` readers (not
    /// ``CounterPolicy/dayCountersFrom``, to keep the test small), and an article just past it: most on the busy day, 3,000
    /// of them on the quiet day too.
    static func index() -> MemoryIndex {
        let index = MemoryIndex(dayCountersFrom: CounterPolicy.embedded.segmentCountersFrom)
        let readers = CounterPolicy.embedded.segmentCountersFrom + 1
        index.apply(
            (0..<readers).flatMap { reader in
                let day = reader % 5 == 0 && reader < 15_000 ? [busy, quiet] : [busy]
                return day.map { day in
                    EventRecord(
                        article: "/c", reader: "r\(reader)",
                        timeMs: Int64(day) * 86_400_000 + Int64(reader) * 1_000,
                        progress: Double(reader % 1001) / 1000, seenDepth: Double(reader % 997) / 996,
                        scrollable: reader % 9 > 0, engagedMs: Int64(reader % 3_000))
                }
            })
        return index
    }

    static func query(_ day: Int32, minEngagedSeconds: Double = 0) -> StatisticsQuery {
        StatisticsQuery(
            article: "/c", days: DayRange(from: day, to: day), threshold: 0.9,
            minEngagedSeconds: minEngagedSeconds)
    }

    @Test("a day past 4,096 reader-days answers under the lock; a smaller one folds its records only")
    func answers() throws {
        let index = Self.index()
        let article = try #require(index.state.read { $0.article(named: "/c") })
        let days = try #require(article.dayCounters)
        #expect(days.days.count == 2)
        guard case .answered(let busy?) = try index.statistics(Self.query(Self.busy)) else {
            Issue.record("the busy day was not answered from its counters")
            return
        }
        #expect(busy.readers == CounterPolicy.embedded.segmentCountersFrom + 1)
        guard case .fold = try index.statistics(Self.query(Self.quiet)) else {
            Issue.record("the quiet day was answered under the lock")
            return
        }
        // Folding anything but the quiet day's records fails the test.
        let unfolded = { () -> [ReaderFigures] in
            Issue.record("every reader was folded")
            return []
        }
        func dayAnswer(_ query: StatisticsQuery) -> ArticleStatistics? {
            AnswerCascade.statistics(
                query, counters: article.counters, daySpan: { article.daySpan(query.days) }, folded: unfolded)
        }
        guard case .oneDay(_, let records?) = article.daySpan(Self.query(Self.quiet).days) else {
            Issue.record("the quiet day does not list its records")
            return
        }
        #expect(records().count == 3_000)
        #expect(dayAnswer(Self.query(Self.quiet))?.readers == 3_000)
        // An engaged minimum: the busy day's histograms cannot answer it, its records can.
        guard case .oneDay(let busyDay, nil) = article.daySpan(Self.query(Self.busy).days) else {
            Issue.record("the busy day lists its records")
            return
        }
        #expect(busyDay.statistics(answering: Self.query(Self.busy, minEngagedSeconds: 1)) == nil)
        #expect(dayAnswer(Self.query(Self.quiet, minEngagedSeconds: 1))?.readers == 3_000)
        // A range holding no day of the article, and one holding both.
        let none = StatisticsQuery(article: "/c", days: DayRange(from: Self.quiet + 1), threshold: 0.9)
        guard case .answered(let empty?) = try index.statistics(none) else {
            Issue.record("a range without the article's days was not answered under the lock")
            return
        }
        #expect(empty.readers == 0)
        let both = StatisticsQuery(
            article: "/c", days: DayRange(from: Self.busy, to: Self.quiet), threshold: 0.9)
        #expect(article.daySpan(both.days) == nil)
    }

    @Test("a restored article has the same day counters")
    func restored() throws {
        let index = Self.index()
        let encoded = try #require(index.encodeArticle("/c"))
        let restored = MemoryIndex(dayCountersFrom: CounterPolicy.embedded.segmentCountersFrom)
        try encoded.bytes.withUnsafeBytes { try restored.restoreArticle($0) }
        let before = try #require(index.state.read { $0.article(named: "/c") }?.dayCounters)
        let after = try #require(restored.state.read { $0.article(named: "/c") }?.dayCounters)
        #expect(after.dayNumbers.sorted() == before.dayNumbers.sorted())
        for day in [Self.busy, Self.quiet] {
            let (was, now) = (
                before.positions(in: DayRange(from: day, to: day)),
                after.positions(in: DayRange(from: day, to: day))
            )
            let (a, b) = (before.days[was.first!], after.days[now.first!])
            #expect(a.counters == b.counters)
            #expect(a.records == b.records)
        }
    }

    @Test("a record list gives back its references, whatever their distances")
    func recordList() {
        var list = RecordList()
        var expected: (first: [Int32], other: [Int32]) = ([], [])
        var (first, other): (Int32, Int32) = (-1, -1)
        for step in [1, 1, 2, 127, 128, 129, 16_383, 16_384, 2_097_152, 1, 300_000_000] {
            first += Int32(step)
            other += Int32(step / 2 + 1)
            list.append(first)
            list.append(~other)
            expected.first.append(first)
            expected.other.append(other)
        }
        list.append(Int32.max)
        expected.first.append(Int32.max)
        var got: [Int32] = []
        list.forEachReference { got.append($0) }
        #expect(got == expected.first + expected.other.map { ~$0 })
        #expect(list.count == got.count)
    }
}
