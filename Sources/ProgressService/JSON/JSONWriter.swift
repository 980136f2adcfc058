/// Writes a JSON document straight into bytes, without an intermediate tree.
///
/// Callers write members in order; the writer places the commas. Numbers print in the shortest
/// form that reads back to the same Double, whole numbers without a fraction.
struct JSONWriter {
    private(set) var bytes: [UInt8] = []
    private var needsComma = false

    init(capacity: Int = 256) {
        bytes.reserveCapacity(capacity)
    }

    mutating func beginObject() {
        separate()
        bytes.append(UInt8(ascii: "{"))
        needsComma = false
    }

    mutating func endObject() {
        bytes.append(UInt8(ascii: "}"))
        needsComma = true
    }

    mutating func beginArray() {
        separate()
        bytes.append(UInt8(ascii: "["))
        needsComma = false
    }

    mutating func endArray() {
        bytes.append(UInt8(ascii: "]"))
        needsComma = true
    }

    /// Writes `"name":`; the value written next belongs to it.
    mutating func key(_ name: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    mutating func string(_ value: String) {
        separate()
        appendQuoted(value)
        needsComma = true
    }

    mutating func number(_ value: Double) {
        separate()
        appendNumber(value)
        needsComma = true
    }

    mutating func integer<T: BinaryInteger>(_ value: T) {
        separate()
        if let small = Int64(exactly: value) {
            appendDigits(small)
        } else {
            bytes.append(contentsOf: String(value).utf8)
        }
        needsComma = true
    }

    /// Writes `"15%"` for 15, as ``string(_:)`` would write the text, without making it.
    mutating func percent(_ whole: Int) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        appendDigits(Int64(whole))
        bytes.append(UInt8(ascii: "%"))
        bytes.append(UInt8(ascii: "\""))
        needsComma = true
    }

    mutating func bool(_ value: Bool) {
        separate()
        appendStatic(value ? "true" : "false")
        needsComma = true
    }

    mutating func null() {
        separate()
        appendStatic("null")
        needsComma = true
    }

    /// Splices an already encoded JSON value.
    mutating func raw(_ json: [UInt8]) {
        separate()
        bytes.append(contentsOf: json)
        needsComma = true
    }

    private mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
    }

    private mutating func appendNumber(_ value: Double) {
        guard value.isFinite else {
            // Never produced by this service; keep the document valid if it ever is.
            bytes.append(contentsOf: "null".utf8)
            return
        }
        if value == value.rounded(), abs(value) < 1e15 {
            appendDigits(Int64(value))
        } else {
            // `description`'s digits, written straight into the bytes: no String is made.
            value.write(to: &self)
        }
    }

    private mutating func appendStatic(_ text: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// `value` in decimal, without going through a String.
    private mutating func appendDigits(_ value: Int64) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: room for 20 digits
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[23 - count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[(24 - count)...]))
        }
    }

    private mutating func appendQuoted(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x00..<0x20, 0x7F:
                let hex = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: Array("\\u00".utf8))
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 0xF)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}

/// Lets `Double.write(to:)` print into the document. The standard library hands the digits of a
/// number to `_writeASCII` (a requirement of `TextOutputStream` with a default that makes a
/// String first); taking them here saves that String — an allocation for most fractions.
extension JSONWriter: TextOutputStream {
    mutating func write(_ string: String) {
        bytes.append(contentsOf: string.utf8)
    }

    mutating func _writeASCII(_ buffer: UnsafeBufferPointer<UInt8>) {
        bytes.append(contentsOf: buffer)
    }
}
