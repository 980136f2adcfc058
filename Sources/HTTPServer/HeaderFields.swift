/// A request's header fields, packed into one byte buffer: per field its name's and its value's
/// length (four bytes each, little-endian), then the name's bytes, then the value's.
///
/// Copying the fields out of libmicrohttpd's connection pool takes one allocation this way,
/// instead of an array plus a `String` per name and value; a lookup compares bytes and makes a
/// `String` only of the value it finds.
struct HeaderFields: Sendable {
    private var storage: [UInt8] = []

    init() {}

    init(_ pairs: [(name: String, value: String)]) {
        let needed = pairs.reduce(0) { $0 + 8 + $1.name.utf8.count + $1.value.utf8.count }
        storage = [UInt8](unsafeUninitializedCapacity: needed) { buffer, count in
            var writer = Writer(buffer: UnsafeMutableRawBufferPointer(buffer))
            for var (name, value) in pairs {
                name.withUTF8 { name in
                    value.withUTF8 { value in
                        writer.append(
                            name: UnsafeRawBufferPointer(name), value: UnsafeRawBufferPointer(value))
                    }
                }
            }
            count = writer.needed
        }
    }

    /// Fields copied by `fill`, which gets a ``Writer`` over `scratch` and returns the bytes it
    /// needed; when they did not fit, `fill` runs again over a buffer of exactly that size.
    init(scratch: UnsafeMutableRawBufferPointer, _ fill: (inout Writer) -> Int) {
        var writer = Writer(buffer: scratch)
        let needed = fill(&writer)
        if needed <= scratch.count {
            storage = Array(UnsafeRawBufferPointer(rebasing: scratch[..<needed]))
            return
        }
        storage = [UInt8](unsafeUninitializedCapacity: needed) { buffer, count in
            var writer = Writer(buffer: UnsafeMutableRawBufferPointer(buffer))
            count = min(fill(&writer), needed)
        }
    }

    /// Appends fields to a fixed buffer, counting the bytes of those that do not fit.
    struct Writer {
        private let buffer: UnsafeMutableRawBufferPointer
        /// Bytes the fields so far take, whether or not they fit.
        private(set) var needed = 0

        init(buffer: UnsafeMutableRawBufferPointer) {
            self.buffer = buffer
        }

        mutating func append(name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer) {
            let start = needed
            needed += 8 + name.count + value.count
            guard needed <= buffer.count, let base = buffer.baseAddress else { return }
            base.storeBytes(
                of: UInt32(truncatingIfNeeded: name.count).littleEndian, toByteOffset: start, as: UInt32.self)
            base.storeBytes(
                of: UInt32(truncatingIfNeeded: value.count).littleEndian, toByteOffset: start + 4,
                as: UInt32.self)
            if let bytes = name.baseAddress {
                (base + start + 8).copyMemory(from: bytes, byteCount: name.count)
            }
            if let bytes = value.baseAddress {
                (base + start + 8 + name.count).copyMemory(from: bytes, byteCount: value.count)
            }
        }
    }

    /// The value of the first field called `name`, compared case-insensitively (names are ASCII
    /// tokens, so folding the case bit of letters is enough).
    func value(named name: String) -> String? {
        withValue(named: name) { String(decoding: $0, as: UTF8.self) }
    }

    /// `body` applied to the bytes of the first field called `name`, without making a string.
    func withValue<Result>(named name: String, _ body: (UnsafeRawBufferPointer) -> Result) -> Result? {
        var name = name
        return name.withUTF8 { wanted in
            storage.withUnsafeBytes { bytes in
                var offset = 0
                while offset + 8 <= bytes.count {
                    let nameLength = Int(
                        UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
                    let valueLength = Int(
                        UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self))
                    )
                    let nameStart = offset + 8
                    let valueStart = nameStart + nameLength
                    offset = valueStart + valueLength
                    if nameLength == wanted.count
                        && equalsIgnoringASCIICase(
                            UnsafeRawBufferPointer(rebasing: bytes[nameStart..<valueStart]), wanted)
                    {
                        return body(UnsafeRawBufferPointer(rebasing: bytes[valueStart..<offset]))
                    }
                }
                return nil
            }
        }
    }

    /// The values of every field called `name`, in the order received (a list-valued field such
    /// as `X-Forwarded-For` may come in several).
    func values(named name: String) -> [String] {
        var values: [String] = []
        let wanted = Array(name.utf8)
        wanted.withUnsafeBufferPointer { wanted in
            forEachField { fieldName, value in
                if fieldName.count == wanted.count && equalsIgnoringASCIICase(fieldName, wanted) {
                    values.append(String(decoding: value, as: UTF8.self))
                }
            }
        }
        return values
    }

    /// The `Content-Length`, when it is a decimal number that fits a `UInt64`.
    ///
    /// libmicrohttpd has already refused one that is not; parsing it as `Int` would miss those
    /// above `Int64.max` and wait for a body never meant to come.
    var contentLength: UInt64? {
        withValue(named: "Content-Length") { digits -> UInt64? in
            guard !digits.isEmpty else { return nil }
            var length: UInt64 = 0
            for digit in digits {
                guard digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9") else { return nil }
                let (times10, overflow) = length.multipliedReportingOverflow(by: 10)
                let (sum, carry) = times10.addingReportingOverflow(UInt64(digit - UInt8(ascii: "0")))
                guard !overflow, !carry else { return nil }
                length = sum
            }
            return length
        } ?? nil
    }

    /// Every field as a pair of strings, in the order received.
    var pairs: [(name: String, value: String)] {
        var pairs: [(name: String, value: String)] = []
        forEachField { name, value in
            pairs.append((String(decoding: name, as: UTF8.self), String(decoding: value, as: UTF8.self)))
        }
        return pairs
    }

    /// `body` applied to each field's name and value bytes, in the order received.
    private func forEachField(_ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) -> Void) {
        storage.withUnsafeBytes { bytes in
            var offset = 0
            while offset + 8 <= bytes.count {
                let nameLength = Int(
                    UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
                let valueLength = Int(
                    UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)))
                let nameStart = offset + 8
                let valueStart = nameStart + nameLength
                offset = valueStart + valueLength
                body(
                    UnsafeRawBufferPointer(rebasing: bytes[nameStart..<valueStart]),
                    UnsafeRawBufferPointer(rebasing: bytes[valueStart..<offset]))
            }
        }
    }
}

private func equalsIgnoringASCIICase(_ lhs: UnsafeRawBufferPointer, _ rhs: UnsafeBufferPointer<UInt8>) -> Bool
{
    for index in 0..<lhs.count {
        let left = lhs[index]
        let right = rhs[index]
        if left == right { continue }
        let folded = left | 0x20
        guard left ^ right == 0x20, folded >= 0x61, folded <= 0x7A else { return false }
    }
    return true
}
