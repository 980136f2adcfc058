import Foundation
import ProgressService

/// The target as the normal build makes it: a replayer. `event-fuzzer FILE|DIR…` runs each file
/// (each file of a directory) through the same check as the fuzzer, so a crash input that a
/// fuzzing run saved can be replayed without the sanitizers, under a debugger if need be.
enum FileRunner {
    static func run(_ paths: [String]) -> Int32 {
        guard !paths.isEmpty else {
            FileHandle.standardError.write(Data("usage: event-fuzzer FILE|DIR…\n".utf8))
            return 2
        }
        var count = 0
        for file in paths.flatMap(files(at:)) {
            guard let data = FileManager.default.contents(atPath: file) else {
                FileHandle.standardError.write(Data("event-fuzzer: cannot read \(file)\n".utf8))
                return 1
            }
            EventIngestProbe.check(Array(data))
            count += 1
        }
        print("event-fuzzer: \(count) inputs, every invariant held")
        return 0
    }

    private static func files(at path: String) -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue
        else { return [path] }
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else {
            // An unreadable folder is a mistake in the command line: say so rather than run nothing.
            fatalError("event-fuzzer: cannot list \(path)")
        }
        return names.sorted().map { "\(path)/\($0)" }
    }
}
