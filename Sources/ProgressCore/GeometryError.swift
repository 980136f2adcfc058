/// Why a ``ScrollSnapshot`` cannot be turned into figures: the field to blame and a sentence saying
/// what is wrong with it.
///
/// The HTTP service returns both to the client unchanged (`{"error":{"field":…,"message":…}}`,
/// docs/api.md), so `field` is the JSON path exactly as the wire spells it and `message` is written for
/// the developer who sent the event.
public struct GeometryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// JSON path of the culprit as the wire names it: `"contentSize.height"`, `"region.start"`,
    /// `"region"` (an empty region), `"step.total"`, `"indicator.thumbLength"` and so on.
    public let field: String
    /// A complete English sentence naming the field and the rule it breaks, such as
    /// `"contentSize.height must be a finite number"`.
    public let message: String

    /// Creates an error blaming `field`. Mostly for tests of modules that pass these errors on.
    public init(field: String, message: String) {
        self.field = field
        self.message = message
    }

    /// The message, which already names the field.
    public var description: String { message }
}

// The closed set of rules, spelled once so every message reads the same way.
extension GeometryError {
    static func notFinite(_ field: String) -> GeometryError {
        GeometryError(field: field, message: "\(field) must be a finite number")
    }

    static func negative(_ field: String) -> GeometryError {
        GeometryError(field: field, message: "\(field) must be ≥ 0")
    }

    static func outsideContent(_ field: String, contentLength: Double) -> GeometryError {
        GeometryError(
            field: field,
            message: "\(field) must lie within the content (0 ≤ start < end ≤ \(contentLength.plainText))")
    }

    static func emptyRegion(contentLength: Double) -> GeometryError {
        GeometryError(
            field: "region",
            message: "region must not be empty (0 ≤ start < end ≤ \(contentLength.plainText))")
    }

    static let negativeStepIndex = GeometryError(field: "step.index", message: "step.index must be ≥ 0")

    static let noSteps = GeometryError(field: "step.total", message: "step.total must be ≥ 1")

    static let emptyTrack = GeometryError(
        field: "indicator.trackLength", message: "indicator.trackLength must be > 0")

    static func thumbLongerThanTrack(trackLength: Double) -> GeometryError {
        GeometryError(
            field: "indicator.thumbLength",
            message: "indicator.thumbLength must be ≤ indicator.trackLength (\(trackLength.plainText))")
    }
}
