/// Percent-decodes `text` into UTF-8; `nil` for a broken escape or bytes that are not UTF-8.
/// With `plusIsSpace` (query strings, as HTML forms encode them) `+` means a space.
func percentDecode(_ text: Substring, plusIsSpace: Bool = false) -> String? {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(text.utf8.count)
    var iterator = text.utf8.makeIterator()
    while let byte = iterator.next() {
        switch byte {
        case UInt8(ascii: "%"):
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue)
            else {
                return nil
            }
            bytes.append(high << 4 | low)
        case UInt8(ascii: "+") where plusIsSpace:
            bytes.append(UInt8(ascii: " "))
        default:
            bytes.append(byte)
        }
    }
    return String(validating: bytes, as: UTF8.self)
}

private func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
    default: return nil
    }
}

/// A request's query parameters, decoded. A name given twice is an error, not a guess.
struct QueryParameters: Sendable {
    private var values: [String: String] = [:]

    init(_ raw: String?) throws(APIError) {
        guard let raw, !raw.isEmpty else { return }
        for pair in raw.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = percentDecode(parts[0], plusIsSpace: true),
                let value = percentDecode(parts.count > 1 ? parts[1] : "", plusIsSpace: true)
            else {
                throw .invalidQuery(
                    "the query string is not valid percent-encoded UTF-8", field: String(parts[0]))
            }
            guard values[name] == nil else {
                throw .invalidQuery("\(name) is given more than once", field: name)
            }
            values[name] = value
        }
    }

    subscript(name: String) -> String? { values[name] }

    func number(_ name: String, in range: ClosedRange<Double>) throws(APIError) -> Double? {
        guard let text = values[name] else { return nil }
        guard let value = Double(text), value.isFinite, range.contains(value), text.utf8.count <= 64,
            text.utf8.allSatisfy({ Array("0123456789.-+eE".utf8).contains($0) })
        else {
            throw .invalidQuery(
                "\(name) must be a number from \(format(range.lowerBound)) to \(format(range.upperBound))",
                field: name)
        }
        return value
    }

    /// A text of `bytes` UTF-8 bytes without control characters, or `nil` when absent.
    func text(_ name: String, bytes: ClosedRange<Int>) throws(APIError) -> String? {
        guard let text = values[name] else { return nil }
        guard bytes.contains(text.utf8.count), !text.unicodeScalars.contains(where: isControl)
        else {
            throw .invalidQuery(
                "\(name) must be \(bytes.lowerBound)–\(bytes.upperBound) bytes without control characters",
                field: name)
        }
        return text
    }

    func integer(_ name: String, in range: ClosedRange<Int>) throws(APIError) -> Int? {
        guard let text = values[name] else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw .invalidQuery(
                "\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound)", field: name)
        }
        return value
    }

    func choice<T: RawRepresentable>(_ name: String, default fallback: T) throws(APIError) -> T
    where T.RawValue == String, T: CaseIterable {
        try choice(name) ?? fallback
    }

    /// One of `T`'s names, or `nil` when absent.
    func choice<T: RawRepresentable>(_ name: String) throws(APIError) -> T?
    where T.RawValue == String, T: CaseIterable {
        guard let text = values[name] else { return nil }
        guard let value = T(rawValue: text) else {
            let names = T.allCases.map(\.rawValue).joined(separator: ", ")
            throw .invalidQuery("\(name) must be one of \(names)", field: name)
        }
        return value
    }

    /// `from` and `to` as an inclusive range of UTC days.
    func dayRange() throws(APIError) -> (from: Int32?, to: Int32?) {
        var days: [Int32?] = []
        for name in ["from", "to"] {
            guard let text = values[name] else {
                days.append(nil)
                continue
            }
            guard let day = EventTime.parseDay(Substring(text)) else {
                throw .invalidQuery("\(name) must be a UTC date YYYY-MM-DD", field: name)
            }
            days.append(day)
        }
        if let from = days[0], let to = days[1], from > to {
            throw .invalidQuery("from must not be after to", field: "from")
        }
        return (days[0], days[1])
    }
}

private func format(_ value: Double) -> String {
    value == value.rounded() && value.magnitude < 1e15 ? String(Int64(value)) : String(value)
}
