#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Milliseconds since the Unix epoch, by the system's wall clock: the one clock every store and
/// the service age days, ids and salts by unless a test gives them another.
@Sendable public func wallClockMs() -> Int64 {
    wallClockNanoseconds() / 1_000_000
}

/// Nanoseconds since the Unix epoch, by the system's wall clock.
public func wallClockNanoseconds() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
}
