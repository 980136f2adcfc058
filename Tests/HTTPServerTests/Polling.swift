#if canImport(Glibc)
    import Glibc
#endif

/// Whether `condition` holds within `seconds`, asked every few milliseconds: a test waits for
/// what it needs, never for a fixed time to be long enough.
func eventually(within seconds: Int = 10, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = ContinuousClock.now + .seconds(seconds)
    while try !condition() {
        if ContinuousClock.now > deadline { return false }
        usleep(5_000)
    }
    return true
}
