import ProgressStore

/// CRC-32 (IEEE 802.3, as zlib), table-driven, eight bytes at a time.
enum CRC32 {
    private static let tables: [[UInt32]] = {
        var tables = [[UInt32]](repeating: [UInt32](repeating: 0, count: 256), count: 8)
        for index in 0..<256 {
            var crc = UInt32(index)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
            tables[0][index] = crc
        }
        for index in 0..<256 {
            for table in 1..<8 {
                let previous = tables[table - 1][index]
                tables[table][index] = (previous >> 8) ^ tables[0][Int(previous & 0xFF)]
            }
        }
        return tables
    }()
    private static let flat: [UInt32] = tables.flatMap { $0 }

    static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        flat.withUnsafeBufferPointer { table in
            var crc: UInt32 = 0xFFFF_FFFF
            var index = 0
            let count = bytes.count
            while index + 8 <= count {
                let word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                let low = UInt32(truncatingIfNeeded: word) ^ crc
                let high = UInt32(truncatingIfNeeded: word >> 32)
                crc =
                    table[7 * 256 + Int(low & 0xFF)] ^ table[6 * 256 + Int((low >> 8) & 0xFF)]
                    ^ table[5 * 256 + Int((low >> 16) & 0xFF)] ^ table[4 * 256 + Int(low >> 24)]
                    ^ table[3 * 256 + Int(high & 0xFF)] ^ table[2 * 256 + Int((high >> 8) & 0xFF)]
                    ^ table[1 * 256 + Int((high >> 16) & 0xFF)] ^ table[Int(high >> 24)]
                index += 8
            }
            while index < count {
                crc = (crc >> 8) ^ table[Int((crc ^ UInt32(bytes[index])) & 0xFF)]
                index += 1
            }
            return ~crc
        }
    }
}
