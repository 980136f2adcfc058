internal import CLibPQ
import ProgressStore

/// A parameter of a statement.
enum PGValue {
    case text(String)
    case int(Int64)
    case double(Double)
    case bool(Bool)
    case bytes([UInt8])
    case null

    /// `strings` as a PostgreSQL array literal of text (`{"a","b\"c"}`), for `$n::text[]`.
    static func textArray(_ strings: some Sequence<String>) -> PGValue {
        var literal = "{"
        var first = true
        for string in strings {
            if !first { literal += "," }
            first = false
            literal += "\""
            for scalar in string.unicodeScalars {
                if scalar == "\"" || scalar == "\\" { literal += "\\" }
                literal.unicodeScalars.append(scalar)
            }
            literal += "\""
        }
        return .text(literal + "}")
    }

    /// `values` as an array literal of numbers, for `$n::int8[]` and the like.
    static func numberArray<Number: CustomStringConvertible>(_ values: some Sequence<Number>) -> PGValue {
        .text("{" + values.map(\.description).joined(separator: ",") + "}")
    }

    /// `values` as an array literal of doubles, each as the shortest text that reads back as it.
    static func doubleArray(_ values: some Sequence<Double>) -> PGValue {
        .text("{" + values.map { "\($0)" }.joined(separator: ",") + "}")
    }

    static func boolArray(_ values: some Sequence<Bool>) -> PGValue {
        .text("{" + values.map { $0 ? "t" : "f" }.joined(separator: ",") + "}")
    }

    /// `values` as an array literal of `bytea`s in hex form, for `$n::bytea[]`.
    static func bytesArray(_ values: some Sequence<[UInt8]>) -> PGValue {
        let hex = Array("0123456789abcdef".utf8)
        var literal = [UInt8]("{".utf8)
        var first = true
        for value in values {
            if !first { literal.append(UInt8(ascii: ",")) }
            first = false
            literal += Array("\"\\\\x".utf8)
            for byte in value {
                literal.append(hex[Int(byte >> 4)])
                literal.append(hex[Int(byte & 15)])
            }
            literal.append(UInt8(ascii: "\""))
        }
        literal.append(UInt8(ascii: "}"))
        return .text(String(decoding: literal, as: UTF8.self))
    }

    /// Calls `body` with libpq's parameter arrays: values, lengths, formats.
    static func withCParameters<Result>(
        _ parameters: [PGValue],
        _ body: (UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int32>?, UnsafePointer<Int32>?) ->
            Result
    ) -> Result {
        var storage: [[CChar]?] = []
        var lengths: [Int32] = []
        var formats: [Int32] = []
        for parameter in parameters {
            switch parameter {
            case .null:
                storage.append(nil)
                lengths.append(0)
                formats.append(0)
            case .bytes(let bytes):
                storage.append(bytes.map { CChar(bitPattern: $0) })
                lengths.append(Int32(bytes.count))
                formats.append(1)
            case .text(let text): appendText(text)
            case .int(let value): appendText(String(value))
            case .double(let value): appendText("\(value)")
            case .bool(let value): appendText(value ? "t" : "f")
            }
        }
        func appendText(_ text: String) {
            storage.append(Array(text.utf8CString))
            lengths.append(0)
            formats.append(0)
        }
        return withPointers(storage, 0, []) { pointers in
            lengths.withUnsafeBufferPointer { lengths in
                formats.withUnsafeBufferPointer { formats in
                    pointers.withUnsafeBufferPointer { pointers in
                        body(pointers.baseAddress, lengths.baseAddress, formats.baseAddress)
                    }
                }
            }
        }
    }

    /// Pointers to each element of `storage` (kept alive for the call), from `index` on.
    private static func withPointers<Result>(
        _ storage: [[CChar]?], _ index: Int, _ collected: [UnsafePointer<CChar>?],
        _ body: ([UnsafePointer<CChar>?]) -> Result
    ) -> Result {
        guard index < storage.count else { return body(collected) }
        guard let element = storage[index] else {
            return withPointers(storage, index + 1, collected + [nil], body)
        }
        return element.withUnsafeBufferPointer { buffer in
            withPointers(storage, index + 1, collected + [buffer.baseAddress], body)
        }
    }
}
