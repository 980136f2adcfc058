#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension ReaderNames {
    /// Every slot, ordered by its id byte by byte (SQLite's BINARY order).
    func slotsInByteOrder() -> [Int32] {
        // Where each id is, found once: comparisons then cost a memcmp, not a walk of lengths.
        let arenas = arenaBytes
        var locations: [(arena: Int32, start: UInt32, length: UInt32)] = []
        locations.reserveCapacity(count)
        for (number, arena) in arenas.enumerated() {
            arena.withUnsafeBufferPointer { arena in
                var offset = 0
                while offset < arena.count {
                    let (length, size) = Self.length(in: arena, at: offset)
                    locations.append((Int32(number), UInt32(offset + size), UInt32(length)))
                    offset += size + length
                }
            }
        }
        return (0..<Int32(count)).sorted { a, b in
            let (left, right) = (locations[Int(a)], locations[Int(b)])
            let common = Int(min(left.length, right.length))
            let order = arenas[Int(left.arena)].withUnsafeBytes { leftArena in
                arenas[Int(right.arena)].withUnsafeBytes { rightArena in
                    common == 0
                        ? 0
                        : memcmp(
                            leftArena.baseAddress! + Int(left.start),
                            rightArena.baseAddress! + Int(right.start), common)
                }
            }
            return order != 0 ? order < 0 : left.length < right.length
        }
    }
}
