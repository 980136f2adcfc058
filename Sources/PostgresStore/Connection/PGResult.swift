internal import CLibPQ
import ProgressStore

/// The rows of a statement's result, freed when dropped.
final class PGResult {
    private let handle: OpaquePointer
    private let binary: Bool
    let rowCount: Int

    init(_ handle: OpaquePointer, binary: Bool) {
        self.handle = handle
        self.binary = binary
        rowCount = Int(PQntuples(handle))
    }

    deinit {
        PQclear(handle)
    }

    /// Rows an `INSERT`, `UPDATE` or `DELETE` touched.
    var affectedRows: Int64 { Int64(String(cString: PQcmdTuples(handle))) ?? 0 }

    func isNull(_ row: Int, _ column: Int) -> Bool {
        PQgetisnull(handle, Int32(row), Int32(column)) != 0
    }

    /// The value's bytes as libpq holds them.
    private func raw(_ row: Int, _ column: Int) -> UnsafeRawBufferPointer {
        let length = Int(PQgetlength(handle, Int32(row), Int32(column)))
        guard let value = PQgetvalue(handle, Int32(row), Int32(column)) else {
            return UnsafeRawBufferPointer(start: nil, count: 0)
        }
        return UnsafeRawBufferPointer(start: value, count: length)
    }

    func string(_ row: Int, _ column: Int) -> String {
        String(decoding: raw(row, column), as: UTF8.self)
    }

    func int64(_ row: Int, _ column: Int) -> Int64 {
        if binary {
            let bytes = raw(row, column)
            return bytes.reduce(Int64(0)) { $0 << 8 | Int64($1) }
        }
        return Int64(string(row, column)) ?? 0
    }

    func double(_ row: Int, _ column: Int) -> Double {
        if binary {
            return Double(bitPattern: UInt64(bitPattern: int64(row, column)))
        }
        return Double(string(row, column)) ?? 0
    }

    func bool(_ row: Int, _ column: Int) -> Bool {
        binary ? raw(row, column).first == 1 : string(row, column) == "t"
    }

    /// A `bytea` value: raw in binary results, decoded from hex (`\x…`) in text ones.
    func bytes(_ row: Int, _ column: Int) -> [UInt8] {
        let bytes = raw(row, column)
        if binary { return Array(bytes) }
        guard bytes.count >= 2, bytes[0] == UInt8(ascii: "\\"), bytes[1] == UInt8(ascii: "x") else {
            return Array(bytes)
        }
        func nibble(_ byte: UInt8) -> UInt8 {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
            default: byte &- UInt8(ascii: "A") &+ 10
            }
        }
        var decoded: [UInt8] = []
        decoded.reserveCapacity((bytes.count - 2) / 2)
        var index = 2
        while index + 1 < bytes.count {
            decoded.append(nibble(bytes[index]) << 4 | nibble(bytes[index + 1]))
            index += 2
        }
        return decoded
    }
}
