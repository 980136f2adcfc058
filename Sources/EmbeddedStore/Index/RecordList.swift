/// A day's records, as references (``DayCounters/Day/records``), in about a byte each.
///
/// An article's first-day records and its other-day records are each appended in increasing
/// order, and a day's list takes them in that order (from a recount in record order, then as
/// they are made), so each kind is held as its distance from the previous one of its kind in
/// LEB128, 7 bits a byte: a byte while a day's records lie within 128 of each other, which
/// they do in a day's traffic (and on a load of 60 days in random order), against 4 bytes for
/// an `Int32` each.
struct RecordList: Sendable, Equatable {
    private var firstDays: [UInt8] = []
    private var otherDays: [UInt8] = []
    private var lastFirst: Int32 = -1
    private var lastOther: Int32 = -1
    /// References held.
    private(set) var count = 0

    init() {}

    /// Appends `reference`: `r >= 0` is first-day record `r`, `r < 0` other-day record `~r`, each
    /// past every one of its kind held.
    mutating func append(_ reference: Int32) {
        if reference >= 0 {
            precondition(reference > lastFirst, "a day's first-day records are listed in increasing order")
            Self.append(UInt32(reference - lastFirst), to: &firstDays)
            lastFirst = reference
        } else {
            let index = ~reference
            precondition(index > lastOther, "a day's other-day records are listed in increasing order")
            Self.append(UInt32(index - lastOther), to: &otherDays)
            lastOther = index
        }
        count += 1
    }

    private static func append(_ distance: UInt32, to bytes: inout [UInt8]) {
        var value = distance
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    /// Calls `body` with every reference: the first-day records', then the others', each in
    /// increasing order.
    func forEachReference(_ body: (Int32) -> Void) {
        Self.decode(firstDays) { body($0) }
        Self.decode(otherDays) { body(~$0) }
    }

    private static func decode(_ bytes: [UInt8], _ body: (Int32) -> Void) {
        var last: Int32 = -1
        var value: UInt32 = 0
        var shift: UInt32 = 0
        for byte in bytes {
            value |= UInt32(byte & 0x7F) << shift
            if byte & 0x80 != 0 {
                shift += 7
            } else {
                last += Int32(bitPattern: value)
                body(last)
                (value, shift) = (0, 0)
            }
        }
    }

    /// Bytes held, counting capacity.
    var footprint: Int { firstDays.capacity + otherDays.capacity }
}
