import Foundation
import ProgressCore
import Testing

/// The vectors of `Tests/Vectors/progress.json`, which the Android client's tests read as well:
/// both implementations of the figures are held to the same hand-worked answers.
enum SharedVectors {
    /// A geometry and the figures expected of it; figures the file leaves out are not checked.
    struct FigureCase: Decodable, Sendable, CustomTestStringConvertible {
        var name: String
        var geometry: ScrollSnapshot
        var expected: Expected

        var testDescription: String { name }
    }

    /// A geometry the figures refuse, and the error they must give.
    struct ErrorCase: Decodable, Sendable, CustomTestStringConvertible {
        struct Failure: Decodable, Sendable {
            var field: String
            var message: String
        }
        var name: String
        var geometry: ScrollSnapshot
        var error: Failure

        var testDescription: String { name }
    }

    /// Expected figures. An absent key is not checked; `null` for `indicatorOffset` or `step`
    /// means the figure must be absent.
    struct Expected: Decodable, Sendable {
        struct StepExpected: Decodable, Sendable {
            var progress: Double?
            var visible: Bool?
            var barOffset: Double?
            var barOpacity: Double?
        }
        var scrollable: Bool?
        var progress: Double?
        var percent: String?
        var seenDepth: Double?
        /// nil: not checked; `.some(nil)`: must be absent.
        var indicatorOffset: Double??
        var step: StepExpected??

        enum CodingKeys: String, CodingKey {
            case scrollable, progress, percent, seenDepth, indicatorOffset, step
        }

        init(from decoder: any Decoder) throws {
            let keys = try decoder.container(keyedBy: CodingKeys.self)
            scrollable = try keys.decodeIfPresent(Bool.self, forKey: .scrollable)
            progress = try keys.decodeIfPresent(Double.self, forKey: .progress)
            percent = try keys.decodeIfPresent(String.self, forKey: .percent)
            seenDepth = try keys.decodeIfPresent(Double.self, forKey: .seenDepth)
            if keys.contains(.indicatorOffset) {
                indicatorOffset = .some(try keys.decodeIfPresent(Double.self, forKey: .indicatorOffset))
            }
            if keys.contains(.step) {
                step = .some(try keys.decodeIfPresent(StepExpected.self, forKey: .step))
            }
        }
    }

    struct File: Decodable, Sendable {
        var figures: [FigureCase]
        var errors: [ErrorCase]
    }

    static let file: File = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Vectors/progress.json")
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(
            positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        do {
            return try decoder.decode(File.self, from: Data(contentsOf: url))
        } catch {
            fatalError("\(url.path) cannot be read: \(error)")
        }
    }()
}

@Suite("The shared vectors (Tests/Vectors/progress.json)")
struct SharedVectorTests {
    @Test("the file holds both tables")
    func sizes() {
        #expect(SharedVectors.file.figures.count >= 100)
        #expect(SharedVectors.file.errors.count >= 20)
    }

    @Test("figures", arguments: SharedVectors.file.figures)
    func figures(row: SharedVectors.FigureCase) throws {
        let figures = try row.geometry.figures()
        let expected = row.expected
        if let scrollable = expected.scrollable { #expect(figures.scrollable == scrollable) }
        if let progress = expected.progress { #expect(isClose(figures.progress, progress)) }
        if let percent = expected.percent { #expect(figures.percent == percent) }
        if let seenDepth = expected.seenDepth { #expect(isClose(figures.seenDepth, seenDepth)) }
        if let indicatorOffset = expected.indicatorOffset {
            switch (figures.indicatorOffset, indicatorOffset) {
            case (let actual?, let wanted?): #expect(isClose(actual, wanted))
            case (nil, nil): break
            default: Issue.record("indicatorOffset \(String(describing: figures.indicatorOffset))")
            }
        }
        if let step = expected.step {
            switch (figures.step, step) {
            case (let actual?, let wanted?):
                if let progress = wanted.progress { #expect(isClose(actual.progress, progress)) }
                if let visible = wanted.visible { #expect(actual.visible == visible) }
                if let barOffset = wanted.barOffset { #expect(isClose(actual.barOffset, barOffset)) }
                if let barOpacity = wanted.barOpacity { #expect(isClose(actual.barOpacity, barOpacity)) }
            case (nil, nil): break
            default: Issue.record("step \(String(describing: figures.step))")
            }
        }
        let numbers =
            [figures.progress, figures.seenDepth, figures.indicatorOffset ?? 0]
            + [figures.step?.progress, figures.step?.barOffset, figures.step?.barOpacity].compactMap { $0 }
        #expect(numbers.allSatisfy { $0.isFinite && !($0 == 0 && $0.sign == .minus) }, "\(numbers)")
    }

    @Test("errors", arguments: SharedVectors.file.errors)
    func errors(row: SharedVectors.ErrorCase) {
        #expect(throws: GeometryError(field: row.error.field, message: row.error.message)) {
            try row.geometry.figures()
        }
    }
}
