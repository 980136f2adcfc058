/// A column of `Int64` stored in 32 bits: events and engaged milliseconds of one reader on
/// one day almost always fit, and the rare value that does not is kept aside, exactly.
struct NarrowColumn {
    private var narrow: [UInt32] = []
    /// Values that do not fit, by index; their narrow slot holds the marker.
    private var wide: [Int32: Int64] = [:]

    private static let marker = UInt32.max

    subscript(index: Int) -> Int64 {
        get {
            let value = narrow[index]
            return value == Self.marker ? wide[Int32(index)]! : Int64(value)
        }
        set {
            if newValue >= 0 && newValue < Int64(Self.marker) {
                if narrow[index] == Self.marker { wide[Int32(index)] = nil }
                narrow[index] = UInt32(newValue)
            } else {
                narrow[index] = Self.marker
                wide[Int32(index)] = newValue
            }
        }
    }

    mutating func append(_ value: Int64) {
        narrow.append(0)
        self[narrow.count - 1] = value
    }
}
