import ProgressService

/// libFuzzer's entry point: one input, fed through the ingest path by ``EventIngestProbe``,
/// which traps when an invariant breaks. libFuzzer counts the trap as a crash and saves the input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    EventIngestProbe.check(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
