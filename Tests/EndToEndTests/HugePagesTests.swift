import Foundation
import Testing

/// `serve` starts itself again with glibc's allocator asking for transparent huge pages
/// (`GLIBC_TUNABLES=glibc.malloc.hugetlb=1`), in the same process, unless `GLIBC_TUNABLES`
/// already says how.
@Suite(
    "Huge pages for the allocator",
    .enabled(if: FileManager.default.fileExists(atPath: "/proc/self/environ"), "Linux only"))
struct HugePagesTests {
    /// The environment the server's program was last started with. glibc splits a
    /// `GLIBC_TUNABLES` value at its colons in place, so the tunables are searched for apart.
    private static func environment(of server: ServerProcess) throws -> String {
        let url = URL(fileURLWithPath: "/proc/\(server.process.processIdentifier)/environ")
        return String(decoding: try Data(contentsOf: url).map { $0 == 0 ? 0x0A : $0 }, as: UTF8.self)
    }

    @Test("asked for by default, in the process that was started, which then serves")
    func onByDefault() throws {
        let server = try ServerProcess(store: "memory:", environment: ["GLIBC_TUNABLES": ""])
        defer { server.stop() }
        let environment = try Self.environment(of: server)
        #expect(environment.contains("glibc.malloc.hugetlb=1"), "\(environment)")
        #expect(try server.client().get("/healthz").status == 200)
        #expect(server.stop() == 0)
    }

    @Test("added to the tunables already given")
    func addedToOthers() throws {
        let server = try ServerProcess(
            store: "memory:", environment: ["GLIBC_TUNABLES": "glibc.malloc.arena_max=2"])
        defer { server.stop() }
        let environment = try Self.environment(of: server)
        #expect(environment.contains("glibc.malloc.arena_max=2"), "\(environment)")
        #expect(environment.contains("glibc.malloc.hugetlb=1"), "\(environment)")
    }

    @Test("left off when GLIBC_TUNABLES turns it off")
    func offWhenAsked() throws {
        let server = try ServerProcess(
            store: "memory:", environment: ["GLIBC_TUNABLES": "glibc.malloc.hugetlb=0"])
        defer { server.stop() }
        let environment = try Self.environment(of: server)
        #expect(environment.contains("glibc.malloc.hugetlb=0"), "\(environment)")
        #expect(!environment.contains("glibc.malloc.hugetlb=1"), "\(environment)")
        #expect(try server.client().get("/healthz").status == 200)
    }
}
