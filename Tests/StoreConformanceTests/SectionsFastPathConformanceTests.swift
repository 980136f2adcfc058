import ProgressStore
import Testing

/// Sections of an article past the fast-path rule, answered from its seen-depth histogram by
/// every store: exact for starts on the 1/1000 grid, and for a start off it counting from the
/// start's bin, so at most the readers less than 0.001 below it more (docs/api.md, "Sections
/// and attention").
@Suite("Store conformance: sections of a large article")
struct SectionsFastPathConformanceTests {
    static let readers = CounterPolicy.histogramMinimumReaders + 88
    static let starts = [0, 0.25, 1.0 / 3, 0.5005, 0.9]

    /// Reader k's depth is k / readers: a few readers fall in each 1/1000 bin.
    static func events() -> [EventRecord] {
        let time = Int64(firstDay) * dayMs + 3_600_000
        var events = (0..<readers).map { k in
            EventRecord(
                article: "/large", reader: "r\(k)", timeMs: time + Int64(k), progress: 0.5,
                seenDepth: Double(k) / Double(readers), scrollable: true, engagedMs: 1000)
        }
        events[0].sections = starts.enumerated().map { Section(title: "S\($0.offset)", start: $0.element) }
        return events
    }

    static func count(atOrAbove start: Double, _ depths: [Double]) -> Int {
        depths.filter { $0 >= start }.count
    }

    @Test("reached counts readers from the start's bin, exactly on the grid", arguments: StoreFactory.all)
    func largeArticle(factory: StoreFactory) throws {
        let place = try factory.makePlace()
        let store = try place.open()
        defer { store.close() }
        let events = Self.events()
        _ = try store.append(events)
        let depths = events.map(\.seenDepth)
        let answer = try #require(try store.sections(StatisticsQuery(article: "/large", threshold: 0.9)))
        #expect(answer.sections.map(\.start) == Self.starts)
        let total = Double(Self.readers)
        for section in answer.sections {
            let exact = Double(Self.count(atOrAbove: section.start, depths)) / total
            let binFloor = (section.start * 1000).rounded(.down) / 1000
            let loose = Double(Self.count(atOrAbove: binFloor, depths)) / total
            #expect(
                section.reached >= exact - 1e-12 && section.reached <= loose + 1e-12,
                "\(section.title) at \(section.start): \(section.reached), want \(exact)…\(loose)")
            if section.start * 1000 == (section.start * 1000).rounded() {
                #expect(abs(section.reached - exact) <= 1e-12, "\(section.title) on the grid")
            }
        }
        #expect(answer.sections[0].reached == 1)
    }
}
