import Foundation

/// The PostgreSQL the tests were given (`READING_PROGRESS_TEST_POSTGRES`, set by scripts/test),
/// and throwaway servers of the tests' own, for tests that stop and start one.
enum Postgres {
    /// A URI of the test server's `postgres` database, when the tests have one.
    static var adminURI: String? { ProcessInfo.processInfo.environment["READING_PROGRESS_TEST_POSTGRES"] }

    /// A new, empty database on the test server; its URI.
    static func database(on admin: String) throws -> String {
        let name = "rp_e2e_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        try run("psql", [admin, "-q", "-v", "ON_ERROR_STOP=1", "-c", "CREATE DATABASE \(name)"])
        return replacingDatabase(of: admin, with: name)
    }

    /// `uri` naming `database` instead.
    static func replacingDatabase(of uri: String, with database: String) -> String {
        var parts = uri.components(separatedBy: "?")
        var path = parts[0].components(separatedBy: "/")
        path[path.count - 1] = database
        parts[0] = path.joined(separator: "/")
        return parts.joined(separator: "?")
    }

    /// The folder of the server's programs (`initdb`, `pg_ctl`): the newest Debian installs.
    static var binaries: String? {
        let root = "/usr/lib/postgresql"
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        return versions.compactMap(Int.init).max().map { "\(root)/\($0)/bin" }
    }

    /// Runs `program` (from PATH, or a full path), as the `postgres` user when this process is
    /// root; throws with its output when it fails. Spawned and waited for directly: a server
    /// that `pg_ctl` starts outlives it, and `Process` can miss the exit of its parent then.
    @discardableResult
    static func run(_ program: String, _ arguments: [String], asPostgres: Bool = false) throws -> String {
        let command =
            (asPostgres && getuid() == 0 ? ["/usr/sbin/runuser", "-u", "postgres", "--"] : []) + [program]
            + arguments
        let log = FileManager.default.temporaryDirectory.appendingPathComponent(
            "rp-run-\(UUID().uuidString).log")
        defer { try? FileManager.default.removeItem(at: log) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var pid: pid_t = 0
        var argv = command.map { strdup($0) }
        argv.append(nil)
        defer { for pointer in argv { free(pointer) } }
        let spawned = posix_spawnp(&pid, command[0], &actions, nil, argv, environ)
        guard spawned == 0 else { throw TestFailure("cannot run \(program): \(spawned)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        guard status == 0 else {
            throw TestFailure("\(program) \(arguments.joined(separator: " ")) failed (\(status)): \(text)")
        }
        return text
    }
}

/// A PostgreSQL server of one test's own, in a temporary folder on a free port, that the test
/// can stop and start again; stopped and removed when dropped.
final class ThrowawayPostgres: @unchecked Sendable {
    let folder: URL
    let port: UInt16
    private let binaries: String

    init() throws {
        guard let binaries = Postgres.binaries else { throw TestFailure("no PostgreSQL server installed") }
        self.binaries = binaries
        folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "rp-postgres-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        if getuid() == 0 { try Postgres.run("chown", ["postgres", folder.path]) }
        port = try freePort()
        try Postgres.run(
            binaries + "/initdb",
            ["-D", folder.path + "/data", "-A", "trust", "-U", "postgres", "--no-sync"],
            asPostgres: true)
        try start()
    }

    var uri: String { "postgresql://postgres@127.0.0.1:\(port)/postgres" }

    func start() throws {
        try Postgres.run(
            binaries + "/pg_ctl",
            [
                "-D", folder.path + "/data", "-l", folder.path + "/server.log", "-w", "-t", "60", "-o",
                "-p \(port) -k \(folder.path) -c listen_addresses=127.0.0.1", "start",
            ], asPostgres: true)
    }

    /// Stops the server at once (`-m immediate`: as a crash would, without a shutdown checkpoint).
    func stop(mode: String = "immediate") throws {
        try Postgres.run(
            binaries + "/pg_ctl", ["-D", folder.path + "/data", "-m", mode, "-w", "stop"], asPostgres: true)
    }

    deinit {
        try? stop()
        try? FileManager.default.removeItem(at: folder)
    }
}

/// A TCP port nothing listens on now.
func freePort() throws -> UInt16 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
            bind(fd, raw, length) == 0 && getsockname(fd, raw, &length) == 0
        }
    }
    guard bound else { throw TestFailure("no free port") }
    return UInt16(bigEndian: address.sin_port)
}
