import Foundation
import ProgressStore
import Testing

@Suite("Store conformance: daily salts")
struct SaltConformanceTests {
    static var today: Int32 { Int32(Int64(Date().timeIntervalSince1970 * 1000).floorDivided(by: 86_400_000)) }

    @Test("a day's salt is the same at every ask, another day's is another", arguments: StoreFactory.all)
    func sameSalt(factory: StoreFactory) throws {
        let place = try factory.makePlace()
        let store = try place.open()
        defer { store.close() }
        let first = try waitFor { store.salt(forDay: Self.today, completion: $0) }
        let again = try waitFor { store.salt(forDay: Self.today, completion: $0) }
        let yesterday = try waitFor { store.salt(forDay: Self.today - 1, completion: $0) }
        #expect(first == again)
        #expect(first.day == Self.today)
        #expect(first != yesterday)
        #expect(first.bytes.count == 16)
    }

    @Test("a salt past keeping (48 hours after its day) is never handed out", arguments: StoreFactory.all)
    func expired(factory: StoreFactory) throws {
        let place = try factory.makePlace()
        let store = try place.open()
        defer { store.close() }
        _ = try waitFor { store.salt(forDay: Self.today - 2, completion: $0) }
        #expect(throws: StoreError.self) {
            try waitFor { store.salt(forDay: Self.today - 3, completion: $0) }
        }
    }

    @Test("a store opened again hands out the salts it kept", arguments: StoreFactory.lasting)
    func kept(factory: StoreFactory) throws {
        let place = try factory.makePlace()
        let first = try place.open()
        let salt = try waitFor { first.salt(forDay: Self.today, completion: $0) }
        first.close()
        let second = try place.open()
        defer { second.close() }
        #expect(try waitFor { second.salt(forDay: Self.today, completion: $0) } == salt)
    }
}
