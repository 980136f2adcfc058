import Foundation

// SwiftPM links every executable's entry point as `main`, so this target keeps its own in both
// builds rather than leaving it to libFuzzer: `scripts/fuzz` defines LIBFUZZER and links with
// `-sanitize=fuzzer`, and then main hands over to libFuzzer's driver.
#if LIBFUZZER
    import CLibFuzzer

    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzTestOneInput(data, size) })
#else
    exit(FileRunner.run(Array(CommandLine.arguments.dropFirst())))
#endif
