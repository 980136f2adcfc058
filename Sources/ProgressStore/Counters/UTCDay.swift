/// UTC days, the unit every statistic is kept in: days since 1970-01-01, negative before it.
package enum UTCDay {
    /// Milliseconds a day (Unix time has no leap seconds).
    package static let milliseconds: Int64 = 86_400_000

    /// The day of `ms`, milliseconds since the epoch. Clamped to the days an `Int32` holds
    /// (some 5.8 million years either side of 1970), so that no clock value traps.
    @inlinable
    package static func of(ms: Int64) -> Int32 {
        Int32(clamping: ms.floorDivided(by: milliseconds))
    }

    /// The first millisecond of `day`.
    @inlinable
    package static func start(of day: Int32) -> Int64 {
        Int64(day) * milliseconds
    }
}

extension Int64 {
    /// Division rounding toward negative infinity, so that times before 1970 land on the right day.
    @inlinable
    package func floorDivided(by divisor: Int64) -> Int64 {
        let (q, r) = quotientAndRemainder(dividingBy: divisor)
        return r < 0 ? q - 1 : q
    }
}
