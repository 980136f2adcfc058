#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A string as a dictionary key by its exact UTF-8 bytes.
///
/// Swift's `String` compares and hashes by canonical equivalence, so `"café"` written with a
/// precomposed `é` and with `e` + combining accent are one key. Article, reader and event ids
/// are opaque bytes to this service (SQLite compares them byte for byte too): two ids that
/// differ in bytes are two ids.
public struct ExactKey: Hashable, Sendable {
    public let string: String

    @inlinable
    public init(_ string: String) {
        self.string = string
    }

    @inlinable
    public static func == (lhs: ExactKey, rhs: ExactKey) -> Bool {
        bytesEqual(lhs.string, rhs.string)
    }

    @inlinable
    public func hash(into hasher: inout Hasher) {
        withUTF8(of: string) { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}

extension Hasher {
    /// Feeds `string`'s UTF-8 bytes and their count, so that a key of several ids hashes each
    /// as ``ExactKey`` compares it, by its bytes, and no id's bytes run into the next one's.
    @inlinable
    package mutating func combine(bytesOf string: String) {
        withUTF8(of: string) { bytes in
            combine(bytes.count)
            combine(bytes: UnsafeRawBufferPointer(bytes))
        }
    }
}

/// Whether `a` and `b` hold the same UTF-8 bytes, compared with `memcmp`: walking
/// `String.UTF8View`s element by element costs several times more.
@usableFromInline
package func bytesEqual(_ a: String, _ b: String) -> Bool {
    a.utf8.count == b.utf8.count
        && withUTF8(of: a) { a in
            withUTF8(of: b) { b in a.isEmpty || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0 }
        }
}

/// Calls `body` with `string`'s UTF-8 bytes. Borrows them where `String.withUTF8` would copy
/// the string into a `var` first (a retain and a release per call). Inlinable, so that other
/// modules get it specialised: called generically, each call looks up `Optional<Result>`'s type
/// metadata at run time, which cost more than the call's own work.
@inlinable
package func withUTF8<Result>(of string: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
    if let result = string.utf8.withContiguousStorageIfAvailable(body) { return result }
    var copy = string
    return copy.withUTF8(body)
}
