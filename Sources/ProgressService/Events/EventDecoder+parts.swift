import ProgressCore
import ProgressStore

/// The members about where in the article (`sections`, `attention`) and for whom (`device`;
/// `source` is a plain string), by the rules of docs/api.md, "Sections and attention" and
/// "Segments".
extension EventDecoder {
    func sections(_ value: JSONValue?) throws(APIError) -> [Section]? {
        guard let value = present(value) else { return nil }
        guard case .array(let elements) = value else {
            throw .invalidEvent("sections must be an array, not \(value.typeName)", field: "sections")
        }
        guard elements.count <= Section.maximumCount else {
            throw .invalidEvent(
                "sections has \(elements.count) elements; at most \(Section.maximumCount) are allowed",
                field: "sections")
        }
        var sections: [Section] = []
        sections.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            let field = "sections[\(index)]"
            try requireObject(element, field)
            guard let title = present(element["title"]) else {
                throw .invalidEvent("\(field).title is required", field: "\(field).title")
            }
            let text = try checkedString(title, "\(field).title", maxBytes: Section.maximumTitleBytes)
            let start = try number(element, field, "start")
            guard start >= 0, start < 1 else {
                throw .invalidEvent("\(field).start must be ≥ 0 and < 1", field: "\(field).start")
            }
            if let previous = sections.last, start <= previous.start {
                throw .invalidEvent(
                    "\(field).start must be greater than sections[\(index - 1)].start",
                    field: "\(field).start")
            }
            let words = try integer(element["words"], "\(field).words", in: 0...Int64(Section.maximumWords))
            sections.append(Section(title: text, start: start, words: words.map { Int32($0) }))
        }
        return sections
    }

    func attention(_ value: JSONValue?, engagedMs: Int64) throws(APIError) -> [UInt32]? {
        guard let value = present(value) else { return nil }
        guard case .array(let elements) = value else {
            throw .invalidEvent("attention must be an array, not \(value.typeName)", field: "attention")
        }
        guard elements.count == AttentionBands.count else {
            throw .invalidEvent(
                "attention has \(elements.count) elements; exactly \(AttentionBands.count) are required",
                field: "attention")
        }
        var bands: [UInt32] = []
        bands.reserveCapacity(AttentionBands.count)
        for (index, element) in elements.enumerated() {
            let field = "attention[\(index)]"
            guard case .number = element else {
                throw .invalidEvent("\(field) must be an integer, not \(element.typeName)", field: field)
            }
            // `engagedMs` is at most 86 400 000, so every band fits 32 bits.
            guard let ms = try integer(element, field, in: 0...engagedMs) else {
                throw .invalidEvent("\(field) must be an integer", field: field)
            }
            bands.append(UInt32(ms))
        }
        return bands
    }

    func device(_ value: JSONValue?) throws(APIError) -> DeviceClass? {
        guard let value = present(value) else { return nil }
        guard case .string(let name) = value, let device = DeviceClass(rawValue: name) else {
            throw .invalidEvent(
                "device must be \"phone\", \"tablet\", \"desktop\" or \"other\"", field: "device")
        }
        return device
    }
}
