import Foundation
import ProgressStore
import Testing

@testable import EmbeddedStore

/// Whether decoding `bytes` throws a StoreError (and so neither traps nor succeeds).
private func refused(_ bytes: [UInt8]) -> Bool {
    do {
        _ = try bytes.withUnsafeBytes { try MemoryIndex.decodeArticle($0) }
        return false
    } catch {
        return true
    }
}

/// A snapshot's parts by offset, as format 2 lays them out, for changing one and resealing.
private struct Layout {
    var bytes: [UInt8]
    let readers: Int
    let others: Int
    let wides: Int
    let countsAt: Int
    let namesAt: Int
    let firstRecordsAt: Int
    var otherRecordsAt: Int { firstRecordsAt + readers * 32 }
    var widesAt: Int { otherRecordsAt + others * 36 }
    var segmentsAt: Int { widesAt + wides * 13 }

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        let nameLength = Int(bytes.load(UInt32.self, at: 4))
        countsAt = 8 + nameLength + 16
        readers = Int(bytes.load(UInt32.self, at: countsAt))
        others = Int(bytes.load(UInt32.self, at: countsAt + 4))
        wides = Int(bytes.load(UInt32.self, at: countsAt + 8))
        namesAt = countsAt + 12
        var offset = namesAt
        for _ in 0..<readers {
            var length = 0
            var shift = 0
            while true {
                let byte = bytes[offset]
                offset += 1
                length |= Int(byte & 0x7F) << shift
                shift += 7
                if byte < 0x80 { break }
            }
            offset += length
        }
        firstRecordsAt = offset
    }

    mutating func store<T: FixedWidthInteger>(_ value: T, at offset: Int) {
        withUnsafeBytes(of: value.littleEndian) {
            bytes.replaceSubrange(offset..<offset + $0.count, with: $0)
        }
    }

    /// The bytes with a checksum that matches them again.
    var resealed: [UInt8] {
        var body = Array(bytes.dropLast(8))
        let checksum = body.withUnsafeBytes { XXH64.hash($0) }
        withUnsafeBytes(of: checksum.littleEndian) { body.append(contentsOf: $0) }
        return body
    }
}

extension [UInt8] {
    fileprivate func load<T: FixedWidthInteger>(_: T.Type, at offset: Int) -> T {
        withUnsafeBytes { T(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: T.self)) }
    }
}

@Suite("MemoryIndex article snapshots refuse damaged bytes")
struct MemoryIndexSnapshotDamageTests {
    /// A small article with other days, and one past the histogram threshold with wide values.
    static let index = RandomIndexLoad(seed: 3).index()
    static let small = index.encodeArticle("/small")!.bytes
    static let big = index.encodeArticle("/big")!.bytes

    @Test("the blobs under test decode whole, with other days and wide values")
    func intact() throws {
        #expect(!refused(Self.small) && !refused(Self.big))
        #expect(Layout(Self.small).others > 0)
        #expect(Layout(Self.big).wides > 0)
    }

    @Test("every truncation throws")
    func truncations() {
        for length in 0..<Self.small.count {
            #expect(refused(Array(Self.small[..<length])), "length \(length)")
        }
        for length in stride(from: 0, to: Self.big.count, by: 97) {
            #expect(refused(Array(Self.big[..<length])), "length \(length)")
        }
    }

    @Test("every changed byte throws")
    func flips() {
        for offset in Self.small.indices {
            for mask: UInt8 in [0x01, 0x80, 0xFF] {
                var bytes = Self.small
                bytes[offset] ^= mask
                #expect(refused(bytes), "byte \(offset) ^ \(mask)")
            }
        }
    }

    @Test("bytes appended or removed before the checksum throw")
    func lengths() {
        var longer = Layout(Self.small)
        longer.bytes.insert(0, at: longer.bytes.count - 8)
        #expect(refused(longer.resealed))
        var shorter = Layout(Self.small)
        shorter.bytes.remove(at: shorter.bytes.count - 9)
        #expect(refused(shorter.resealed))
    }

    /// Damage a checksum cannot see, because it was computed after: each must still throw.
    @Test(
        "inconsistent contents under a valid checksum throw",
        arguments: [
            "format", "flags", "reader count", "other count", "wide count", "name", "day out of range",
            "time off its day",
            "last before first", "owner out of range", "marker without value", "value without marker",
            "counts overflow", "length too long", "histograms too few readers", "histograms missing",
            "segment time off its day", "segment bits beyond", "source without time",
        ])
    func inconsistent(_ damage: String) throws {
        var small = Layout(Self.small)
        var big = Layout(Self.big)
        let target: [UInt8]
        switch damage {
        case "format":
            small.bytes[0] = 3
            target = small.resealed
        case "flags":
            small.bytes[1] = 2
            target = small.resealed
        case "reader count":
            small.store(UInt32(small.readers + 1), at: small.countsAt)
            target = small.resealed
        case "other count":
            small.store(UInt32(small.others - 1), at: small.countsAt + 4)
            target = small.resealed
        case "wide count":
            big.store(UInt32(big.wides + 1), at: big.countsAt + 8)
            target = big.resealed
        case "name":
            small.bytes[8] = 0xFF
            target = small.resealed
        case "day out of range":
            // A record keeps 24 bits of its day.
            small.store(Int32(1 << 23), at: small.firstRecordsAt)
            target = small.resealed
        case "time off its day":
            let bits = small.bytes.load(UInt64.self, at: small.firstRecordsAt + 8)
            small.store(bits & ~((1 << 54) - 1) | 86_400_000 << 27 | 86_400_000, at: small.firstRecordsAt + 8)
            target = small.resealed
        case "last before first":
            let bits = small.bytes.load(UInt64.self, at: small.firstRecordsAt + 8)
            small.store(bits & ~((1 << 54) - 1) | 5 << 27 | 6, at: small.firstRecordsAt + 8)
            target = small.resealed
        case "owner out of range":
            small.store(UInt32(small.readers), at: small.otherRecordsAt + 32)
            target = small.resealed
        case "marker without value":
            let narrow = try #require(
                (0..<small.readers).first { small.bytes[small.firstRecordsAt + 32 * $0 + 15] != 0xFF })
            small.bytes[small.firstRecordsAt + 32 * narrow + 15] = 0xFF
            target = small.resealed
        case "value without marker":
            // Point the first wide value at a record whose field is not the marker.
            let record = Int(big.bytes.load(UInt32.self, at: big.widesAt + 1))
            big.store(UInt32(record == 0 ? 1 : 0), at: big.widesAt + 1)
            target = big.resealed
        case "counts overflow":
            for wide in 0..<big.wides {
                big.store(Int64.max, at: big.widesAt + wide * 13 + 5)
            }
            target = big.resealed
        case "length too long":
            for offset in 0..<5 { small.bytes[small.namesAt + offset] = 0xFF }
            target = small.resealed
        case "histograms too few readers":
            // Claim least values for a small article (and supply them).
            small.bytes[1] = 1
            small.bytes.insert(
                contentsOf: [UInt8](repeating: 0, count: 2 * 1001 * 8), at: small.bytes.count - 8)
            target = small.resealed
        case "histograms missing":
            big.bytes[1] = 0
            big.bytes.removeSubrange(big.bytes.count - 8 - 2 * 1001 * 8..<big.bytes.count - 8)
            target = big.resealed
        case "segment time off its day":
            small.store(UInt64(86_400_000) | 1 << 27, at: small.segmentsAt)
            target = small.resealed
        case "segment bits beyond":
            small.store(UInt64(1) << 60, at: small.segmentsAt)
            target = small.resealed
        case "source without time":
            small.store(UInt64((1 << 27) - 1) | UInt64((1 << 27) - 1) << 30, at: small.segmentsAt)
            small.store(UInt16(5), at: small.segmentsAt + 8)
            target = small.resealed
        default:
            Issue.record("unknown damage \(damage)")
            return
        }
        #expect(refused(target))
    }

    @Test("checksums and hashes match published values")
    func vectors() {
        let xxh64 = { (text: String) in Array(text.utf8).withUnsafeBytes { XXH64.hash($0) } }
        #expect(xxh64("") == 0xEF46_DB37_51D8_E999)
        #expect(xxh64("a") == 0xD24E_C4F1_A98C_6E5B)
        #expect(xxh64("abc") == 0x44BC_2CF5_AD77_0999)
        #expect(xxh64("Nobody inspects the spammish repetition") == 0xFBCE_A83C_8A37_8BF1)
    }
}
