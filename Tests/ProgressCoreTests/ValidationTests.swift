import ProgressCore
import Testing

/// A row of the validation tables: a change to ``validGeometry`` and the error it must cause, if any.
struct GeometryCase: Sendable, CustomTestStringConvertible {
    var name: String
    var error: GeometryError?
    var change: @Sendable (inout ScrollSnapshot) -> Void

    /// A change that must make `field` fail with `message`.
    init(
        _ name: String, _ field: String, _ message: String,
        change: @escaping @Sendable (inout ScrollSnapshot) -> Void
    ) {
        self.name = name
        self.error = GeometryError(field: field, message: message)
        self.change = change
    }

    /// A change that must leave the geometry valid.
    init(valid name: String, change: @escaping @Sendable (inout ScrollSnapshot) -> Void) {
        self.name = name
        self.error = nil
        self.change = change
    }

    var geometry: ScrollSnapshot {
        var geometry = validGeometry
        change(&geometry)
        return geometry
    }

    var testDescription: String { name }
}

/// A vertical article, 1200 points long in an 800-point container, every optional part given.
let validGeometry = ScrollSnapshot(
    contentOffset: Point(x: 0, y: 100), contentSize: Size(width: 390, height: 1200),
    containerSize: Size(width: 390, height: 800), contentInsets: Insets(top: 10, bottom: 20),
    region: Region(start: 100, end: 1100), step: Step(index: 1, total: 3), indicator: .standard)

let invalidCases: [GeometryCase] = [
    GeometryCase("offset x NaN", "contentOffset.x", "contentOffset.x must be a finite number") {
        $0.contentOffset.x = .nan
    },
    GeometryCase("offset y +inf", "contentOffset.y", "contentOffset.y must be a finite number") {
        $0.contentOffset.y = .infinity
    },
    GeometryCase("offset y −inf", "contentOffset.y", "contentOffset.y must be a finite number") {
        $0.contentOffset.y = -.infinity
    },
    GeometryCase("content width NaN", "contentSize.width", "contentSize.width must be a finite number") {
        $0.contentSize.width = .nan
    },
    GeometryCase("content width −1", "contentSize.width", "contentSize.width must be ≥ 0") {
        $0.contentSize.width = -1
    },
    GeometryCase("content height +inf", "contentSize.height", "contentSize.height must be a finite number") {
        $0.contentSize.height = .infinity
    },
    GeometryCase("content height −0.5", "contentSize.height", "contentSize.height must be ≥ 0") {
        $0.contentSize.height = -0.5
    },
    GeometryCase("container width −inf", "containerSize.width", "containerSize.width must be a finite number")
    {
        $0.containerSize.width = -.infinity
    },
    GeometryCase("container width −1", "containerSize.width", "containerSize.width must be ≥ 0") {
        $0.containerSize.width = -1
    },
    GeometryCase(
        "container height NaN", "containerSize.height", "containerSize.height must be a finite number"
    ) {
        $0.containerSize.height = .nan
    },
    GeometryCase("container height −800", "containerSize.height", "containerSize.height must be ≥ 0") {
        $0.containerSize.height = -800
    },
    GeometryCase("top inset NaN", "contentInsets.top", "contentInsets.top must be a finite number") {
        $0.contentInsets.top = .nan
    },
    GeometryCase("top inset −1", "contentInsets.top", "contentInsets.top must be ≥ 0") {
        $0.contentInsets.top = -1
    },
    GeometryCase(
        "leading inset NaN", "contentInsets.leading", "contentInsets.leading must be a finite number"
    ) {
        $0.contentInsets.leading = .nan
    },
    GeometryCase("leading inset −1", "contentInsets.leading", "contentInsets.leading must be ≥ 0") {
        $0.contentInsets.leading = -1
    },
    GeometryCase("bottom inset +inf", "contentInsets.bottom", "contentInsets.bottom must be a finite number")
    {
        $0.contentInsets.bottom = .infinity
    },
    GeometryCase("bottom inset −3", "contentInsets.bottom", "contentInsets.bottom must be ≥ 0") {
        $0.contentInsets.bottom = -3
    },
    GeometryCase(
        "trailing inset NaN", "contentInsets.trailing", "contentInsets.trailing must be a finite number"
    ) {
        $0.contentInsets.trailing = .nan
    },
    GeometryCase("trailing inset −2", "contentInsets.trailing", "contentInsets.trailing must be ≥ 0") {
        $0.contentInsets.trailing = -2
    },
    GeometryCase("region start NaN", "region.start", "region.start must be a finite number") {
        $0.region = Region(start: .nan, end: 1100)
    },
    GeometryCase("region end +inf", "region.end", "region.end must be a finite number") {
        $0.region = Region(start: 100, end: .infinity)
    },
    GeometryCase(
        "region start before the content", "region.start",
        "region.start must lie within the content (0 ≤ start < end ≤ 1200)"
    ) {
        $0.region = Region(start: -1, end: 1100)
    },
    GeometryCase(
        "region start after the content", "region.start",
        "region.start must lie within the content (0 ≤ start < end ≤ 1200)"
    ) {
        $0.region = Region(start: 1300, end: 1400)
    },
    GeometryCase(
        "region end after the content", "region.end",
        "region.end must lie within the content (0 ≤ start < end ≤ 1200)"
    ) {
        $0.region = Region(start: 100, end: 1200.5)
    },
    GeometryCase(
        "region end before the content", "region.end",
        "region.end must lie within the content (0 ≤ start < end ≤ 1200)"
    ) {
        $0.region = Region(start: 0, end: -1)
    },
    GeometryCase("empty region", "region", "region must not be empty (0 ≤ start < end ≤ 1200)") {
        $0.region = Region(start: 600, end: 600)
    },
    GeometryCase("reversed region", "region", "region must not be empty (0 ≤ start < end ≤ 1200)") {
        $0.region = Region(start: 700, end: 600)
    },
    GeometryCase("region at the very end", "region", "region must not be empty (0 ≤ start < end ≤ 1200)") {
        $0.region = Region(start: 1200, end: 1200)
    },
    // The content length is the one along the axis: the width here, and a fraction of a point.
    GeometryCase(
        "horizontal region beyond the width", "region.end",
        "region.end must lie within the content (0 ≤ start < end ≤ 1000.5)"
    ) {
        $0.axis = .horizontal
        $0.contentSize.width = 1000.5
        $0.region = Region(start: 0, end: 1001)
    },
    GeometryCase(
        "10¹²-point content in the message", "region.end",
        "region.end must lie within the content (0 ≤ start < end ≤ 1000000000000)"
    ) {
        $0.contentSize.height = 1e12
        $0.region = Region(start: 0, end: 2e12)
    },
    GeometryCase("step index −1", "step.index", "step.index must be ≥ 0") {
        $0.step = Step(index: -1, total: 3)
    },
    GeometryCase("step total 0", "step.total", "step.total must be ≥ 1") {
        $0.step = Step(index: 0, total: 0)
    },
    GeometryCase("step total −3", "step.total", "step.total must be ≥ 1") {
        $0.step = Step(index: 1, total: -3)
    },
    GeometryCase("track 0", "indicator.trackLength", "indicator.trackLength must be > 0") {
        $0.indicator = Indicator(trackLength: 0, thumbLength: 0)
    },
    GeometryCase("track −90", "indicator.trackLength", "indicator.trackLength must be > 0") {
        $0.indicator = Indicator(trackLength: -90, thumbLength: 40)
    },
    GeometryCase("track NaN", "indicator.trackLength", "indicator.trackLength must be a finite number") {
        $0.indicator = Indicator(trackLength: .nan, thumbLength: 40)
    },
    GeometryCase("track +inf", "indicator.trackLength", "indicator.trackLength must be a finite number") {
        $0.indicator = Indicator(trackLength: .infinity, thumbLength: 40)
    },
    GeometryCase("thumb NaN", "indicator.thumbLength", "indicator.thumbLength must be a finite number") {
        $0.indicator = Indicator(trackLength: 90, thumbLength: .nan)
    },
    GeometryCase("thumb −1", "indicator.thumbLength", "indicator.thumbLength must be ≥ 0") {
        $0.indicator = Indicator(trackLength: 90, thumbLength: -1)
    },
    GeometryCase(
        "thumb longer than the track", "indicator.thumbLength",
        "indicator.thumbLength must be ≤ indicator.trackLength (90)"
    ) {
        $0.indicator = Indicator(trackLength: 90, thumbLength: 91)
    },
    GeometryCase(
        "thumb longer than a fractional track", "indicator.thumbLength",
        "indicator.thumbLength must be ≤ indicator.trackLength (0.5)"
    ) {
        $0.indicator = Indicator(trackLength: 0.5, thumbLength: 0.75)
    },
]

// Several problems at once: the first in the order of docs/api.md's table of fields wins.
let orderCases: [GeometryCase] = [
    GeometryCase("offset before sizes", "contentOffset.y", "contentOffset.y must be a finite number") {
        $0.contentOffset.y = .nan
        $0.contentSize.width = -1
    },
    GeometryCase(
        "width before height, even on the vertical axis", "contentSize.width", "contentSize.width must be ≥ 0"
    ) {
        $0.contentSize.width = -1
        $0.contentSize.height = .nan
    },
    GeometryCase("content before container", "contentSize.height", "contentSize.height must be ≥ 0") {
        $0.containerSize.width = .nan
        $0.contentSize.height = -1
    },
    GeometryCase("insets before region", "contentInsets.bottom", "contentInsets.bottom must be ≥ 0") {
        $0.contentInsets.bottom = -1
        $0.region = Region(start: -1, end: 0)
    },
    GeometryCase("region before step", "region", "region must not be empty (0 ≤ start < end ≤ 1200)") {
        $0.region = Region(start: 5, end: 5)
        $0.step = Step(index: 0, total: 0)
    },
    GeometryCase("step index before step total", "step.index", "step.index must be ≥ 0") {
        $0.step = Step(index: -1, total: 0)
    },
    GeometryCase("step before indicator", "step.total", "step.total must be ≥ 1") {
        $0.step = Step(index: 0, total: 0)
        $0.indicator = Indicator(trackLength: 0, thumbLength: 1)
    },
    GeometryCase("track before thumb", "indicator.trackLength", "indicator.trackLength must be > 0") {
        $0.indicator = Indicator(trackLength: 0, thumbLength: .nan)
    },
    GeometryCase("everything wrong", "contentOffset.x", "contentOffset.x must be a finite number") {
        $0 = ScrollSnapshot(
            contentOffset: Point(x: .nan, y: .nan), contentSize: Size(width: -1, height: -1),
            containerSize: Size(width: .nan, height: -1), contentInsets: Insets(top: -1, leading: -1),
            region: Region(start: 9, end: 1), step: Step(index: -1, total: 0),
            indicator: Indicator(trackLength: -1, thumbLength: 2))
    },
]

/// Geometries on the edge of every rule, all of them valid.
let edgeCases: [GeometryCase] = [
    GeometryCase(valid: "negative offsets") { $0.contentOffset = Point(x: -1e9, y: -50) },
    GeometryCase(valid: "zero sizes") {
        $0.contentSize = Size(width: 0, height: 0)
        $0.containerSize = Size(width: 0, height: 0)
        $0.region = nil
    },
    GeometryCase(valid: "-0 sizes and insets") {
        $0.containerSize = Size(width: -0.0, height: -0.0)
        $0.contentInsets = Insets(top: -0.0, leading: -0.0, bottom: -0.0, trailing: -0.0)
    },
    GeometryCase(valid: "region of the whole content") { $0.region = Region(start: 0, end: 1200) },
    GeometryCase(valid: "first step of one") { $0.step = Step(index: 0, total: 1) },
    GeometryCase(valid: "step past the total") { $0.step = Step(index: 9, total: 1) },
    GeometryCase(valid: "thumb as long as the track") {
        $0.indicator = Indicator(trackLength: 5, thumbLength: 5)
    },
    GeometryCase(valid: "no thumb") { $0.indicator = Indicator(trackLength: 5, thumbLength: 0) },
    GeometryCase(valid: "the largest finite numbers") {
        let most = Double.greatestFiniteMagnitude
        $0.contentOffset = Point(x: most, y: -most)
        $0.contentSize = Size(width: most, height: most)
        $0.containerSize = Size(width: most, height: most)
        $0.contentInsets = Insets(top: most, leading: most, bottom: most, trailing: most)
    },
]

@Suite("Validation: the rules of an event's fields, one by one")
struct ValidationTests {
    @Test("each rule blames its field", arguments: invalidCases)
    func blamesField(row: GeometryCase) throws {
        let expected = try #require(row.error)
        #expect(throws: expected) { try row.geometry.validate() }
        #expect(throws: expected) { try row.geometry.figures() }
    }

    @Test("the first problem in field order wins", arguments: orderCases)
    func fieldOrder(row: GeometryCase) throws {
        let expected = try #require(row.error)
        #expect(throws: expected) { try row.geometry.validate() }
    }

    @Test("edge values are valid and give figures", arguments: edgeCases)
    func edges(row: GeometryCase) throws {
        #expect(row.error == nil)
        try row.geometry.validate()
        let figures = try row.geometry.figures()
        let step = try #require(figures.step)
        let numbers = [figures.progress, figures.seenDepth, step.progress, step.barOffset, step.barOpacity]
        #expect(numbers.allSatisfy { $0.isFinite })
    }

    @Test("the error describes itself by its message")
    func description() {
        let error = GeometryError(field: "step.total", message: "step.total must be ≥ 1")
        #expect(error.description == "step.total must be ≥ 1")
        #expect("\(error)" == "step.total must be ≥ 1")
    }
}
