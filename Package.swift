// swift-tools-version: 6.0
import PackageDescription

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "ReadingProgress",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .executable(name: "reading-progress", targets: ["reading-progress"]),
        .library(name: "ProgressCore", targets: ["ProgressCore"]),
        .library(name: "ReadingProgressClient", targets: ["ReadingProgressClient"]),
        .library(name: "ReadingProgressUI", targets: ["ReadingProgressUI"]),
    ],
    targets: [
        .systemLibrary(
            name: "CMicroHTTPD", pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"])]),
        .systemLibrary(
            name: "CSQLite", pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(
            name: "CLibPQ", pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"])]),
        .systemLibrary(name: "CLibFuzzer"),
        // __builtin_prefetch, for the index's hash tables.
        .systemLibrary(name: "CPrefetch"),
        // mallopt and mkostemp, which the Glibc module leaves out.
        .systemLibrary(name: "CSystem"),

        .target(name: "ProgressCore", swiftSettings: strict),
        // The iOS client: delivery in Foundation alone (tested on Linux), SwiftUI views on top.
        .target(name: "ReadingProgressClient", dependencies: ["ProgressCore"], swiftSettings: strict),
        .target(
            name: "ReadingProgressUI", dependencies: ["ReadingProgressClient", "ProgressCore"],
            swiftSettings: strict),
        .target(name: "ProgressStore", dependencies: ["ProgressCore"], swiftSettings: strict),
        .target(
            name: "EmbeddedStore", dependencies: ["ProgressStore", "CSQLite", "CPrefetch", "CSystem"],
            swiftSettings: strict),
        .target(name: "PostgresStore", dependencies: ["ProgressStore", "CLibPQ"], swiftSettings: strict),
        .target(name: "HTTPServer", dependencies: ["CMicroHTTPD"], swiftSettings: strict),
        .target(
            name: "ProgressService",
            dependencies: ["ProgressCore", "ProgressStore", "HTTPServer", "CZlib"],
            // The dashboard's files and the web tracker, compiled into the executable as byte arrays.
            resources: [.embedInCode("Web/dashboard"), .embedInCode("Web/tracker")],
            swiftSettings: strict),
        .executableTarget(
            name: "reading-progress",
            dependencies: [
                "ProgressService", "ProgressStore", "EmbeddedStore", "PostgresStore", "HTTPServer", "CSystem",
            ],
            swiftSettings: strict),
        .executableTarget(
            name: "bench-ceiling", dependencies: ["CMicroHTTPD", "HTTPServer"], swiftSettings: strict),
        // The store's parts and the ingest path measured on their own (scripts/bench runs it).
        .executableTarget(
            name: "store-bench", dependencies: ["EmbeddedStore", "ProgressStore", "ProgressService"],
            swiftSettings: strict),
        // libFuzzer target for the ingest path: built with -sanitize=fuzzer,address by scripts/fuzz,
        // and as a replayer of saved inputs in the normal build.
        .executableTarget(
            name: "event-fuzzer", dependencies: ["ProgressService", "CLibFuzzer"], swiftSettings: strict),

        // What the test targets share: waiting on a condition or a store's completion, seeded randomness,
        // starting the real executable, raw HTTP.
        .target(
            name: "TestSupport", dependencies: ["ProgressStore"], path: "Tests/TestSupport",
            swiftSettings: strict),
        .testTarget(name: "ProgressCoreTests", dependencies: ["ProgressCore"], swiftSettings: strict),
        .testTarget(
            name: "ProgressStoreTests", dependencies: ["ProgressStore", "TestSupport"], swiftSettings: strict),
        .testTarget(
            name: "EmbeddedStoreTests", dependencies: ["EmbeddedStore", "ProgressStore", "TestSupport"],
            swiftSettings: strict),
        .testTarget(
            name: "StoreConformanceTests",
            dependencies: ["EmbeddedStore", "PostgresStore", "ProgressStore", "TestSupport"],
            swiftSettings: strict),
        .testTarget(
            name: "HTTPServerTests", dependencies: ["HTTPServer", "TestSupport"], swiftSettings: strict),
        .testTarget(
            name: "ProgressServiceTests",
            dependencies: [
                "ProgressService", "ProgressStore", "EmbeddedStore", "HTTPServer", "ProgressCore",
                "TestSupport",
            ],
            swiftSettings: strict),
        // Runs reading-progress as built beside the tests (`swift build --build-tests` builds both).
        .testTarget(name: "EndToEndTests", dependencies: ["TestSupport"], swiftSettings: strict),
        .testTarget(
            name: "ReadingProgressClientTests",
            dependencies: ["ReadingProgressClient", "ProgressCore", "TestSupport"],
            swiftSettings: strict),
    ],
    swiftLanguageModes: [.v6]
)
