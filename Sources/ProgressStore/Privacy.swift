/// The store's part in privacy (docs/privacy.md): the daily salts derived reader ids are made
/// with, and erasure on request. Retention is a store's setting, given when it is opened.

/// The secret of one UTC day of the server's clock: 16 random bytes, the key of the hash that
/// derives a reader id for an event that names none. Kept by the store, so that a restart — and
/// every node sharing a store — derives the same ids that day; deleted 48 hours after its day
/// ends, after which nobody can link an id to a person again.
public struct DailySalt: Sendable, Hashable {
    /// Days since 1970-01-01 (UTC).
    public let day: Int32
    /// The two little-endian halves of the 16 bytes.
    public let k0: UInt64
    public let k1: UInt64

    public init(day: Int32, k0: UInt64, k1: UInt64) {
        self.day = day
        self.k0 = k0
        self.k1 = k1
    }

    /// The salt of `day` from 16 bytes (little-endian halves).
    public init(day: Int32, bytes: [UInt8]) {
        precondition(bytes.count == 16, "a salt is 16 bytes")
        var k0: UInt64 = 0
        var k1: UInt64 = 0
        for index in (0..<8).reversed() {
            k0 = k0 << 8 | UInt64(bytes[index])
            k1 = k1 << 8 | UInt64(bytes[8 + index])
        }
        self.init(day: day, k0: k0, k1: k1)
    }

    /// The 16 bytes, as ``init(day:bytes:)`` takes them.
    public var bytes: [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: k0 >> (8 * $0)) }
            + (0..<8).map { UInt8(truncatingIfNeeded: k1 >> (8 * $0)) }
    }

    /// A new salt of 16 random bytes from the system's generator.
    public static func random(day: Int32) -> DailySalt {
        var generator = SystemRandomNumberGenerator()
        return DailySalt(day: day, k0: generator.next(), k1: generator.next())
    }

    /// How long a salt is kept: until 48 hours after its day ends. Salts of days before this,
    /// seen on `today`, are deleted.
    public static func oldestKept(today: Int32) -> Int32 { today - 2 }
}

/// What an erasure removes.
public enum Erasure: Sendable, Hashable {
    /// One reader from every article and day.
    case reader(String)
    /// One article with all of its readers.
    case article(String)
}

/// What an erasure removed: the articles it touched and the (article, reader, day) records.
public struct ErasureCount: Sendable, Hashable {
    public var articles: Int
    public var readerDays: Int

    public init(articles: Int, readerDays: Int) {
        self.articles = articles
        self.readerDays = readerDays
    }

    public static let nothing = ErasureCount(articles: 0, readerDays: 0)
}
