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

    /// What PostgreSQL reported, unless the statement succeeded.
    var failure: StoreError? {
        switch PQresultStatus(handle) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK: return nil
        default: return StoreError(postgresResult: handle)
        }
    }

    /// Rows an `INSERT`, `UPDATE` or `DELETE` touched (0 for other statements, whose count
    /// libpq gives as an empty string).
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

    /// An `int8` (or narrower) value; throws on NULL, and on anything that is not a whole
    /// number in range, rather than reading it as 0.
    func int64(_ row: Int, _ column: Int) throws(StoreError) -> Int64 {
        try notNull(row, column, "a number")
        if binary {
            let bytes = raw(row, column)
            guard [2, 4, 8].contains(bytes.count) else { throw unreadable(row, column, "a number") }
            // Big-endian two's complement of the column's width.
            let unsigned = bytes.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            let shift = UInt64(64 - 8 * bytes.count)
            return Int64(bitPattern: unsigned << shift) >> shift
        }
        guard let value = Int64(string(row, column)) else { throw unreadable(row, column, "a number") }
        return value
    }

    func double(_ row: Int, _ column: Int) throws(StoreError) -> Double {
        try notNull(row, column, "a number")
        if binary {
            let bytes = raw(row, column)
            guard bytes.count == 8 else { throw unreadable(row, column, "a number") }
            return Double(bitPattern: bytes.reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
        }
        guard let value = Double(string(row, column)) else { throw unreadable(row, column, "a number") }
        return value
    }

    func bool(_ row: Int, _ column: Int) throws(StoreError) -> Bool {
        try notNull(row, column, "a boolean")
        let bytes = raw(row, column)
        guard bytes.count == 1 else { throw unreadable(row, column, "a boolean") }
        switch (binary, bytes[0]) {
        case (true, 0), (false, UInt8(ascii: "f")): return false
        case (true, 1), (false, UInt8(ascii: "t")): return true
        default: throw unreadable(row, column, "a boolean")
        }
    }

    private func notNull(_ row: Int, _ column: Int, _ kind: String) throws(StoreError) {
        guard isNull(row, column) else { return }
        throw StoreError.corrupt("PostgreSQL returned NULL where \(kind) was expected (column \(column + 1))")
    }

    private func unreadable(_ row: Int, _ column: Int, _ kind: String) -> StoreError {
        StoreError.corrupt(
            "PostgreSQL returned \"\(string(row, column).prefix(40))\" where \(kind) was expected "
                + "(column \(column + 1))")
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
