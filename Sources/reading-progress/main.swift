import Foundation

// Only argument handling here: top-level code runs on the main actor, so everything that
// libmicrohttpd or a signal calls back into lives in Serve.swift.
let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "--help", "-h", "help":
    print(Options.help, terminator: "")
case "--version", "-V", "version":
    print("reading-progress \(version)")
case "serve":
    do {
        let options = try Options(
            arguments: Array(arguments.dropFirst()), environment: ProcessInfo.processInfo.environment)
        exit(serve(options))
    } catch {
        FileHandle.standardError.write(Data("reading-progress: \(error.message)\n".utf8))
        exit(2)
    }
default:
    FileHandle.standardError.write(
        Data("reading-progress: expected 'serve', '--help' or '--version'\n\n\(Options.help)".utf8))
    exit(2)
}
