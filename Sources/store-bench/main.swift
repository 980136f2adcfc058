import Foundation

// The store's parts and the ingest path measured on their own, in this process: figures for a
// person to read, not checks (docs/performance.md). Meaningful in a release build:
//
//     swift build -c release --product store-bench
//     .build/release/store-bench all

let usage = """
    usage: store-bench decode | index [PAIRS] | days [PAIRS] | segments [PAIRS] | footprint [PAIRS,…] | all [PAIRS]
      decode      ns an event to decode and validate ingest bodies: one event, 1000 as JSON, 1000 as NDJSON
      index       memory a pair, and stats of one article of PAIRS readers against one of 1000 (default 1000000)
      days        one-day ranges cold (stats, listing) at one article of PAIRS readers over 30 days
                  (default 1000000)
      segments    stats by device against unfiltered, segments by device, and source queries, at one
                  article of PAIRS readers (default 1000000)
      footprint   apply, memory, checkpoint encoding and restore speed on a production-shaped load of
                  PAIRS (article, reader) pairs (comma-separated counts; default 1000000)
      all         all five, index, days, segments and footprint at PAIRS

    """

/// Pair counts from `text` ("1000000,10000000"); the default when absent; `nil` when malformed.
func pairCounts(_ text: String?) -> [Int]? {
    guard let text else { return [1_000_000] }
    let counts = text.split(separator: ",").map { Int($0) }
    guard !counts.isEmpty, counts.allSatisfy({ ($0 ?? 0) > 0 }) else { return nil }
    return counts.compactMap { $0 }
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard let command = arguments.first, arguments.count <= 2,
    let counts = pairCounts(arguments.dropFirst().first)
else {
    FileHandle.standardError.write(Data(usage.utf8))
    exit(2)
}
switch command {
case "decode" where arguments.count == 1:
    DecodeBench.run()
case "index" where counts.count == 1:
    IndexScaleBench.run(pairs: counts[0])
case "days" where counts.count == 1:
    DayRangeBench.run(pairs: counts[0])
case "segments" where counts.count == 1:
    SegmentsBench.run(pairs: counts[0])
case "footprint":
    for pairs in counts { FootprintBench.run(pairs: pairs) }
case "all" where counts.count == 1:
    DecodeBench.run()
    IndexScaleBench.run(pairs: counts[0])
    DayRangeBench.run(pairs: counts[0])
    SegmentsBench.run(pairs: counts[0])
    FootprintBench.run(pairs: counts[0])
default:
    FileHandle.standardError.write(Data(usage.utf8))
    exit(2)
}
