import ProgressCore
import ProgressStore

/// An event as a client sent it, checked field by field (docs/api.md, "Events") but not yet placed in time.
/// Its geometry has passed `validate()`: both decoders refuse an event whose geometry does not.
struct DecodedEvent: Sendable {
    let article: String
    /// `nil` when the client named none: the service derives one (docs/privacy.md).
    let reader: String?
    let geometry: ScrollSnapshot
    let engagedMs: Int64
    /// Client time in ms since the epoch, when the client sent one.
    let timeMs: Int64?
    let id: String?
    /// The device class the client named, when it named one.
    let device: DeviceClass?
    /// Sections, attention and source, out of line (`nil` when none was sent): the common
    /// event is small, and goes through the batch's sink without copies of them.
    let parts: EventRecord.Parts?

    init(
        article: String, reader: String?, geometry: ScrollSnapshot, engagedMs: Int64, timeMs: Int64?,
        id: String?, sections: [Section]? = nil, attention: [UInt32]? = nil, device: DeviceClass? = nil,
        source: String? = nil
    ) {
        self.article = article
        self.reader = reader
        self.geometry = geometry
        self.engagedMs = engagedMs
        self.timeMs = timeMs
        self.id = id
        self.device = device
        parts =
            sections == nil && attention == nil && source == nil
            ? nil : EventRecord.Parts(sections: sections, attention: attention, source: source)
    }

    /// The article's headings (docs/api.md, "Sections and attention"), when sent.
    var sections: [Section]? { parts?.sections }
    /// ``AttentionBands/count`` engaged milliseconds, one a band of the body, when sent.
    var attention: [UInt32]? { parts?.attention }
    /// Where the reader came from, normalised (``ReaderSource/normalised(_:)``), when sent.
    var source: String? { parts?.source }
}

/// Turns a parsed JSON object into a `DecodedEvent`, naming the field at fault when it can't.
///
/// Optional fields given as `null` count as absent. Unknown fields are ignored.
struct EventDecoder {
    static let articleMaxBytes = 256
    static let readerMaxBytes = 128
    static let idMaxBytes = 64
    static let engagedMsMax: Int64 = 86_400_000

    /// `requireIdentity` is false for `/v1/progress`, which ignores article and reader.
    var requireIdentity = true

    func decode(_ value: JSONValue) throws(APIError) -> DecodedEvent {
        guard case .object = value else {
            throw .invalidEvent("an event must be a JSON object, not \(value.typeName)", field: nil)
        }
        let article = try identity(value, "article", maxBytes: Self.articleMaxBytes)
        // Optional: without it the service derives one; `/v1/progress` ignores it.
        let reader =
            requireIdentity
            ? try optionalString(value["reader"], "reader", maxBytes: Self.readerMaxBytes) : nil
        let axis = try decodeAxis(value["axis"])
        let geometry = ScrollSnapshot(
            axis: axis,
            contentOffset: try point(value, "contentOffset"),
            contentSize: try size(value, "contentSize"),
            containerSize: try size(value, "containerSize"),
            contentInsets: try insets(value["contentInsets"]),
            region: try region(value["region"]),
            step: try step(value["step"]),
            indicator: try indicator(value["indicator"]))
        do {
            try geometry.validate()
        } catch {
            throw .invalidEvent(error.message, field: error.field)
        }
        let engagedMs = try integer(present(value["engagedMs"]), "engagedMs", in: 0...Self.engagedMsMax) ?? 0
        let timeMs = try EventTime.parse(present(value["time"]))
        let id = try optionalString(value["id"], "id", maxBytes: Self.idMaxBytes)
        return DecodedEvent(
            article: article ?? "", reader: reader, geometry: geometry, engagedMs: engagedMs,
            timeMs: timeMs, id: id, sections: try sections(value["sections"]),
            attention: try attention(value["attention"], engagedMs: engagedMs),
            device: try device(value["device"]),
            source: try optionalString(value["source"], "source", maxBytes: ReaderSource.maximumBytes)
                .map(ReaderSource.normalised))
    }

    private func identity(_ object: JSONValue, _ field: String, maxBytes: Int) throws(APIError) -> String? {
        // `/v1/progress` ignores who is reading (docs/api.md, "Events"): nothing to check.
        guard requireIdentity else { return nil }
        guard let value = present(object[field]) else {
            throw .invalidEvent("\(field) is required", field: field)
        }
        return try checkedString(value, field, maxBytes: maxBytes)
    }

    private func optionalString(_ value: JSONValue?, _ field: String, maxBytes: Int) throws(APIError)
        -> String?
    {
        guard let value = present(value) else { return nil }
        return try checkedString(value, field, maxBytes: maxBytes)
    }

    func checkedString(_ value: JSONValue, _ field: String, maxBytes: Int) throws(APIError) -> String {
        guard case .string(let string) = value else {
            throw .invalidEvent("\(field) must be a string, not \(value.typeName)", field: field)
        }
        let length = string.utf8.count
        guard length >= 1 else { throw .invalidEvent("\(field) must not be empty", field: field) }
        guard length <= maxBytes else {
            throw .invalidEvent("\(field) is \(length) bytes; at most \(maxBytes) are allowed", field: field)
        }
        guard !string.unicodeScalars.contains(where: isControl) else {
            throw .invalidEvent("\(field) must not contain control characters", field: field)
        }
        return string
    }

    private func decodeAxis(_ value: JSONValue?) throws(APIError) -> ScrollAxis {
        guard let value = present(value) else { return .vertical }
        guard case .string(let name) = value, let axis = ScrollAxis(rawValue: name) else {
            throw .invalidEvent("axis must be \"vertical\" or \"horizontal\"", field: "axis")
        }
        return axis
    }

    private func point(_ object: JSONValue, _ field: String) throws(APIError) -> Point {
        let value = try requiredObject(object, field)
        return Point(x: try number(value, field, "x"), y: try number(value, field, "y"))
    }

    private func size(_ object: JSONValue, _ field: String) throws(APIError) -> Size {
        let value = try requiredObject(object, field)
        return Size(width: try number(value, field, "width"), height: try number(value, field, "height"))
    }

    private func insets(_ value: JSONValue?) throws(APIError) -> Insets {
        guard let value = present(value) else { return .zero }
        try requireObject(value, "contentInsets")
        return Insets(
            top: try optionalNumber(value, "contentInsets", "top") ?? 0,
            leading: try optionalNumber(value, "contentInsets", "leading") ?? 0,
            bottom: try optionalNumber(value, "contentInsets", "bottom") ?? 0,
            trailing: try optionalNumber(value, "contentInsets", "trailing") ?? 0)
    }

    private func region(_ value: JSONValue?) throws(APIError) -> Region? {
        guard let value = present(value) else { return nil }
        try requireObject(value, "region")
        return Region(start: try number(value, "region", "start"), end: try number(value, "region", "end"))
    }

    private func step(_ value: JSONValue?) throws(APIError) -> Step? {
        guard let value = present(value) else { return nil }
        try requireObject(value, "step")
        let index = try integer(value["index"], "step.index", in: Int64(Int32.min)...Int64(Int32.max))
        let total = try integer(value["total"], "step.total", in: Int64(Int32.min)...Int64(Int32.max))
        guard let index else { throw .invalidEvent("step.index is required", field: "step.index") }
        guard let total else { throw .invalidEvent("step.total is required", field: "step.total") }
        return Step(index: Int(index), total: Int(total))
    }

    private func indicator(_ value: JSONValue?) throws(APIError) -> Indicator? {
        guard let value = present(value) else { return nil }
        try requireObject(value, "indicator")
        return Indicator(
            trackLength: try number(value, "indicator", "trackLength"),
            thumbLength: try number(value, "indicator", "thumbLength"))
    }

    private func requiredObject(_ object: JSONValue, _ field: String) throws(APIError) -> JSONValue {
        guard let value = present(object[field]) else {
            throw .invalidEvent("\(field) is required", field: field)
        }
        try requireObject(value, field)
        return value
    }

    func requireObject(_ value: JSONValue, _ field: String) throws(APIError) {
        guard case .object = value else {
            throw .invalidEvent("\(field) must be an object, not \(value.typeName)", field: field)
        }
    }

    func number(_ object: JSONValue, _ parent: String, _ member: String) throws(APIError) -> Double {
        guard let number = try optionalNumber(object, parent, member) else {
            throw .invalidEvent("\(parent).\(member) is required", field: "\(parent).\(member)")
        }
        return number
    }

    private func optionalNumber(_ object: JSONValue, _ parent: String, _ member: String) throws(APIError)
        -> Double?
    {
        guard let value = present(object[member]) else { return nil }
        guard case .number(let number, _) = value else {
            throw .invalidEvent(
                "\(parent).\(member) must be a number, not \(value.typeName)", field: "\(parent).\(member)")
        }
        return number
    }

    func integer(_ value: JSONValue?, _ field: String, in range: ClosedRange<Int64>) throws(APIError)
        -> Int64?
    {
        guard let value = present(value) else { return nil }
        guard case .number(let number, _) = value else {
            throw .invalidEvent("\(field) must be an integer, not \(value.typeName)", field: field)
        }
        guard let integer = Self.wholeNumber(number) else {
            throw .invalidEvent("\(field) must be a whole number", field: field)
        }
        guard range.contains(integer) else {
            throw .invalidEvent(
                "\(field) must be between \(range.lowerBound) and \(range.upperBound)", field: field)
        }
        return integer
    }

    /// The integer a JSON number stands for when it is one (`5`, `5.0`, `5e0`), below 9·10¹⁵
    /// so that every such Double converts exactly. Shared with `EventScanner`.
    static func wholeNumber(_ number: Double) -> Int64? {
        guard number == number.rounded(), number.magnitude < 9.0e15 else { return nil }
        return Int64(number)
    }
}

/// `nil` for a missing member and for an explicit `null`.
func present(_ value: JSONValue?) -> JSONValue? {
    if case .null = value { return nil }
    return value
}

/// C0 and C1 control characters and DEL.
func isControl(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
}
