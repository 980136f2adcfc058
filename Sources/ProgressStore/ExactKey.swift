/// A string as a dictionary key by its exact UTF-8 bytes.
///
/// Swift's `String` compares and hashes by canonical equivalence, so `"café"` written with a
/// precomposed `é` and with `e` + combining accent are one key. Article, reader and event ids
/// are opaque bytes to this service (SQLite compares them byte for byte too): two ids that
/// differ in bytes are two ids.
public struct ExactKey: Hashable, Sendable {
    public let string: String

    public init(_ string: String) {
        self.string = string
    }

    public static func == (lhs: ExactKey, rhs: ExactKey) -> Bool {
        ArticleKey.bytesEqual(lhs.string, rhs.string)
    }

    public func hash(into hasher: inout Hasher) {
        withUTF8(of: string) { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}
