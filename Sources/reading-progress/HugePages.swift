#if canImport(Glibc)
    import Glibc
#endif

/// Starts this program again, in the same process, with glibc's allocator told to ask for
/// transparent huge pages (`GLIBC_TUNABLES=glibc.malloc.hugetlb=1`), unless `GLIBC_TUNABLES`
/// already says something about it — which is also how to turn this off
/// (`GLIBC_TUNABLES=glibc.malloc.hugetlb=0`).
///
/// The index's columns run to hundreds of megabytes at millions of readers. On 4 KiB pages a
/// restart that rebuilds them takes a page fault for every 4 KiB it touches: a third of its
/// time at 10M readers. With huge pages (where the kernel's `transparent_hugepage` setting
/// is `madvise` or `always`) one fault maps 2 MiB. glibc reads its tunables only when a
/// program starts, hence the `execv`; the process id, its descriptors and its arguments stay.
/// When anything fails the service carries on as it is. Under valgrind, whose `/proc/self/exe`
/// is its own tool, it does nothing (valgrind preloads its `vgpreload` libraries).
func restartWithHugePages() {
    #if os(Linux)
        if let preload = getenv("LD_PRELOAD"), String(cString: preload).contains("vgpreload") { return }
        let name = "GLIBC_TUNABLES"
        let original = getenv(name).map { String(cString: $0) }
        let current = original.flatMap { $0.isEmpty ? nil : $0 }
        guard current?.contains("glibc.malloc.hugetlb") != true else { return }
        let tunable = "glibc.malloc.hugetlb=1"
        guard setenv(name, current.map { $0 + ":" + tunable } ?? tunable, 1) == 0 else { return }
        let arguments = CommandLine.arguments.map { strdup($0) } + [nil]
        execv("/proc/self/exe", arguments)
        // Still here: the exec failed. Leave the environment as it was.
        for argument in arguments { free(argument) }
        if let original { setenv(name, original, 1) } else { unsetenv(name) }
    #endif
}
