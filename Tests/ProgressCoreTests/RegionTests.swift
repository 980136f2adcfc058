import ProgressCore
import Testing

/// A row of the region table: `seenDepth = clamp((p + H − s) / (e − s), 0, 1)`.
struct RegionCase: Sendable, CustomTestStringConvertible {
    var name: String
    var along: Along
    var region: Region
    var progress: Double
    var seenDepth: Double

    var testDescription: String { name }
}

// Unless said otherwise C = 3000, V = 1000, no insets: S = 2000, H = 1000, p = o.
let regionCases: [RegionCase] = [
    // (0 + 1000 − 500) / 2000.
    RegionCase(
        name: "at rest, the header still covers part of the view",
        along: Along(offset: 0, content: 3000, container: 1000), region: Region(start: 500, end: 2500),
        progress: 0, seenDepth: 0.25),
    // (1000 + 1000 − 500) / 2000.
    RegionCase(
        name: "halfway", along: Along(offset: 1000, content: 3000, container: 1000),
        region: Region(start: 500, end: 2500), progress: 0.5, seenDepth: 0.75),
    // (1500 + 1000 − 500) / 2000 = 1 while the footer is still below.
    RegionCase(
        name: "the body's end in view before the content's end",
        along: Along(offset: 1500, content: 3000, container: 1000), region: Region(start: 500, end: 2500),
        progress: 0.75, seenDepth: 1),
    // (1000 − 1200) / 1300 < 0.
    RegionCase(
        name: "body starting below the fold",
        along: Along(offset: 0, content: 3000, container: 1000), region: Region(start: 1200, end: 2500),
        progress: 0, seenDepth: 0),
    // (−200 + 1000) / 3000 = 4/15.
    RegionCase(
        name: "the whole content, pulled past the start",
        along: Along(offset: -200, content: 3000, container: 1000), region: Region(start: 0, end: 3000),
        progress: 0, seenDepth: 0.266_666_666_666_666_66),
    // (2000 + 1000 − 2000) / 1000.
    RegionCase(
        name: "a body ending exactly at the content's end",
        along: Along(offset: 2000, content: 3000, container: 1000), region: Region(start: 2000, end: 3000),
        progress: 1, seenDepth: 1),
    // a = 100, b = 50: p = 0, H = 850, S = 2150; (850 − 100) / 2000.
    RegionCase(
        name: "with insets",
        along: Along(offset: -100, content: 3000, container: 1000, leading: 100, trailing: 50),
        region: Region(start: 100, end: 2100), progress: 0, seenDepth: 0.375),
    // S < 0: everything is in view whatever the region.
    RegionCase(
        name: "content that fits", along: Along(offset: 0, content: 500, container: 800),
        region: Region(start: 100, end: 400), progress: 0, seenDepth: 1),
]

@Suite("Regions: seen depth of the article body only")
struct RegionTests {
    @Test("seen depth within the region", arguments: ScrollAxis.allCases, regionCases)
    func seenDepth(axis: ScrollAxis, row: RegionCase) throws {
        let figures = try row.along.geometry(axis, region: row.region).figures()
        #expect(isClose(figures.progress, row.progress))
        #expect(isClose(figures.seenDepth, row.seenDepth))
    }

    @Test("a region of the whole content changes nothing", arguments: ScrollAxis.allCases)
    func wholeContent(axis: ScrollAxis) throws {
        let along = Along(offset: 700, content: 3000, container: 1000)
        let whole = try along.geometry(axis, region: Region(start: 0, end: 3000)).figures()
        // (700 + 1000) / 3000 either way.
        #expect(whole == (try along.geometry(axis).figures()))
        #expect(isClose(whole.seenDepth, 0.566_666_666_666_666_7))
    }
}
