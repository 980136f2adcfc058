import ProgressCore
import Testing

/// A row of the percent table: with C = 1800 and V = 800, S = 1000, so progress = offset / 1000.
struct PercentCase: Sendable, CustomTestStringConvertible {
    var offset: Double
    var percent: String

    var testDescription: String { "progress \(offset / 1000) → \(percent)" }
}

// Why each tie lands where it does (Double arithmetic, then `.toNearestOrEven`):
// - 0.005 × 100 = 0.5 exactly → 0; 0.125 × 100 = 12.5 exactly → 12; 0.375 → 37.5 → 38;
//   0.625 → 62.5 → 62.
// - 0.135 is stored as 607985949695017 / 2⁵²; × 100 that is 60798594969501700 / 2⁵², which is
//   4 / 2⁵² = 2⁻⁵⁰ above 13.5 (60798594969501696 / 2⁵²): exactly half an ulp, ulps in [8, 16)
//   being 2⁻⁴⁹. That tie rounds to the even significand, 13.5 itself, and 13.5 rounds to the even 14.
// - 0.145 is stored just below, so 0.145 × 100 = 14.499999999999998 → 14.
// - 0.545 is stored just above: 54.50000000000001 → 55, where a decimal tie would give 54.
// - 0.575 is stored just below: 57.49999999999999 → 57, where a decimal tie would give 58.
// - 0.995 is stored 4.4·10⁻¹⁸ below, but × 100 the gap is under half an ulp of 99.5, so the
//   product is 99.5 exactly and rounds to the even 100: "100%" a little before the end.
let percentCases: [PercentCase] = [
    PercentCase(offset: 0, percent: "0%"),
    PercentCase(offset: 5, percent: "0%"),
    PercentCase(offset: 6, percent: "1%"),
    PercentCase(offset: 125, percent: "12%"),
    PercentCase(offset: 135, percent: "14%"),
    PercentCase(offset: 145, percent: "14%"),
    PercentCase(offset: 150, percent: "15%"),
    PercentCase(offset: 375, percent: "38%"),
    PercentCase(offset: 545, percent: "55%"),
    PercentCase(offset: 575, percent: "57%"),
    PercentCase(offset: 625, percent: "62%"),
    PercentCase(offset: 994, percent: "99%"),
    PercentCase(offset: 995, percent: "100%"),
    PercentCase(offset: 1000, percent: "100%"),
    PercentCase(offset: 2000, percent: "100%"),
    PercentCase(offset: -50, percent: "0%"),
]

@Suite("Percent: the progress bar's accessibility value")
struct PercentTests {
    @Test(
        "rounds to the nearest, ties to even, after Double arithmetic", arguments: ScrollAxis.allCases,
        percentCases
    )
    func percent(axis: ScrollAxis, row: PercentCase) throws {
        let geometry = Along(offset: row.offset, content: 1800, container: 800).geometry(axis)
        #expect(try geometry.figures().percent == row.percent)
    }
}
