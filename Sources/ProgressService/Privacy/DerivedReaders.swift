import HTTPServer
import ProgressStore
import Synchronization

/// The reader ids the service makes for events that name none (docs/privacy.md, "Derived
/// readers"): SipHash-2-4-128, keyed by the day's salt, of the client's address, its
/// `User-Agent` and the host of its `Origin`, each preceded by its length.
///
/// Today's salt is kept here, so that only the first request of a day asks the store for it.
final class DerivedReaders: Sendable {
    private let store: any ProgressStore
    private let current = Mutex<DailySalt?>(nil)

    /// Bytes of a derived id: U+007F, then 22 characters of base64url for 16 bytes.
    static let idBytes = 23
    /// The first byte of every derived id: a control character, which no id a client sends may
    /// hold, so that a derived id never equals a client's.
    static let marker = UInt8(0x7F)

    init(store: any ProgressStore) {
        self.store = store
    }

    /// The salt of `day` when it is the one kept here, without waiting.
    func cachedSalt(forDay day: Int32) -> DailySalt? {
        current.withLock { salt in salt?.day == day ? salt : nil }
    }

    /// The salt of `day`, from the store; kept here as the current one unless a later day's is.
    func salt(forDay day: Int32, completion: @escaping @Sendable (Result<DailySalt, StoreError>) -> Void) {
        if let salt = cachedSalt(forDay: day) { return completion(.success(salt)) }
        store.salt(forDay: day) { [self] result in
            if case .success(let salt) = result {
                current.withLock { kept in
                    if (kept?.day ?? .min) <= salt.day { kept = salt }
                }
            }
            completion(result)
        }
    }

    /// The reader id of `request` from `address` under `salt`.
    static func readerID(salt: DailySalt, address: IPAddress?, request: HTTPRequest) -> String {
        var hash = SipHash(k0: salt.k0, k1: salt.k1, rounds: .sip24, wide: true)
        if let address {
            address.withBytes { bytes in
                hash.append(UInt32(bytes.count))
                hash.append(bytes)
            }
        } else {
            hash.append(UInt32(0))
        }
        let agent = request.withHeader("User-Agent") { bytes in
            hash.append(UInt32(truncatingIfNeeded: bytes.count))
            hash.append(bytes)
            return 1
        }
        if agent == nil { hash.append(UInt32(0)) }
        let origin = request.withHeader("Origin") { bytes in
            let host = originHost(in: bytes)
            hash.append(UInt32(host.count))
            for byte in bytes[host] { hash.append(lowercased(byte)) }
            return 1
        }
        if origin == nil { hash.append(UInt32(0)) }
        let (first, second) = hash.finalize128()
        return encode(first, second)
    }

    /// Where the host of an `Origin` value lies: after `scheme://`, up to a port, path or the
    /// end; an IPv6 literal with its brackets. Empty for `null` and anything without `://`.
    static func originHost(in origin: UnsafeRawBufferPointer) -> Range<Int> {
        var start = 0
        while start + 2 < origin.count {
            if origin[start] == UInt8(ascii: ":"), origin[start + 1] == UInt8(ascii: "/"),
                origin[start + 2] == UInt8(ascii: "/")
            {
                break
            }
            start += 1
        }
        guard start + 2 < origin.count else { return 0..<0 }
        start += 3
        var end = start
        if end < origin.count, origin[end] == UInt8(ascii: "[") {
            while end < origin.count, origin[end] != UInt8(ascii: "]") { end += 1 }
            return start..<min(end + 1, origin.count)
        }
        while end < origin.count, !":/?#".utf8.contains(origin[end]) { end += 1 }
        return start..<end
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }

    private static let alphabet: StaticString =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"

    /// U+007F and the 16 bytes (`first`, then `second`, each little-endian) in base64url
    /// without padding.
    static func encode(_ first: UInt64, _ second: UInt64) -> String {
        var words = (first.littleEndian, second.littleEndian)
        let alphabet = Self.alphabet.utf8Start
        return withUnsafeBytes(of: &words) { bytes in
            String(unsafeUninitializedCapacity: idBytes) { text in
                text[0] = marker
                var out = 1
                var index = 0
                while index < 16 {
                    let count = min(3, 16 - index)
                    var group = UInt32(bytes[index]) << 16
                    if count > 1 { group |= UInt32(bytes[index + 1]) << 8 }
                    if count > 2 { group |= UInt32(bytes[index + 2]) }
                    for position in 0...count {
                        text[out] = alphabet[Int(group >> (18 - 6 * UInt32(position)) & 0x3F)]
                        out += 1
                    }
                    index += 3
                }
                return out
            }
        }
    }
}
