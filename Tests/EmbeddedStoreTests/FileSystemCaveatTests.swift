import Foundation
import ProgressStore
import Testing

@testable import EmbeddedStore

/// The start-up warning for file systems where space allocated ahead is not guaranteed (the
/// event journal's promise that a full disk refuses events rather than stops the service).
@Suite("The file-system caveat")
struct FileSystemCaveatTests {
    static let mounts = """
        /dev/vda / ext4 rw,relatime 0 0
        proc /proc proc rw 0 0
        /dev/vdb /data btrfs rw 0 0
        /dev/vdc /data/fast xfs rw 0 0
        server:/export /mnt/my\\040share nfs4 rw 0 0
        tmpfs /data/scratch tmpfs rw 0 0
        """

    @Test("the file system is the one at the longest mount point above the folder")
    func types() {
        #expect(EventJournal.fileSystemType(of: "/srv/progress", mounts: Self.mounts) == "ext4")
        #expect(EventJournal.fileSystemType(of: "/data", mounts: Self.mounts) == "btrfs")
        #expect(EventJournal.fileSystemType(of: "/data/progress", mounts: Self.mounts) == "btrfs")
        #expect(EventJournal.fileSystemType(of: "/data/fast/progress", mounts: Self.mounts) == "xfs")
        #expect(EventJournal.fileSystemType(of: "/data/fastlane", mounts: Self.mounts) == "btrfs")
        #expect(EventJournal.fileSystemType(of: "/mnt/my share/db", mounts: Self.mounts) == "nfs4")
        // This machine's own table.
        #expect(EventJournal.fileSystemType(of: "/proc/self") == "proc")
    }

    @Test("btrfs and NFS get a warning; ext4, XFS and tmpfs do not")
    func caveats() {
        func caveat(_ path: String) -> String? {
            EventJournal.fileSystemCaveat(databasePath: path, mounts: Self.mounts)
        }
        #expect(caveat("/data/progress.sqlite3")?.contains("btrfs") == true)
        #expect(caveat("/mnt/my share/progress.sqlite3")?.contains("nfs4") == true)
        #expect(caveat("/srv/progress.sqlite3") == nil)
        #expect(caveat("/data/fast/progress.sqlite3") == nil)
        #expect(caveat("/data/scratch/progress.sqlite3") == nil)
        #expect(EmbeddedStore.fileSystemCaveat(path: ":memory:") == nil)
    }
}
