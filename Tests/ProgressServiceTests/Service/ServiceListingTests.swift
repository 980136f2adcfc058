import Foundation
import ProgressService
import ProgressStore
import Testing

/// Articles with ties in every order: readers, completion (1/2 = 2/4) and latest event, ids that
/// sort by bytes (`/Z` before `/b`; `/cafe`, then "/café" decomposed, then composed, which Swift
/// calls equal), and prefixes inside one another.
private typealias Row = (article: String, readers: Int, completed: Int, lastAgoMinutes: Int64)
private let articles: [Row] = [
    ("/blog/a", 3, 1, 10), ("/blog/b", 3, 3, 5), ("/blog/c", 1, 0, 60), ("/blog/d", 5, 2, 10),
    ("/news/a", 3, 0, 120), ("/news/b", 2, 1, 30), ("/news/c", 4, 2, 30), ("/news/d", 5, 5, 240),
    ("/b", 1, 1, 3 * 1440), ("/blog", 2, 0, 1440), ("/caf\u{e9}", 1, 0, 360), ("/cafe", 2, 2, 360),
    ("/cafe\u{301}", 2, 1, 360),
    ("/Z", 1, 0, 20), ("/zz", 3, 1, 20 * 1440),
]

@Suite("The service in process: the listing's pages, cursors and prefix")
struct ServiceListingTests {
    typealias Service = ServiceUnderTest

    static func seeded() throws -> Service {
        let service = try Service()
        var events: [String] = []
        for row in articles {
            for reader in 0..<row.readers {
                // The first reader's event is the article's latest.
                events.append(
                    Service.event(
                        row.article, "r\(reader)", y: reader < row.completed ? 1000 : 500,
                        at: row.lastAgoMinutes * 60_000 + Int64(reader) * 1000))
            }
        }
        try service.ingest(events)
        return service
    }

    /// The order the API documents, worked out here from the table: ties by id, in bytes.
    static func expected(_ order: ListingOrder, prefix: String = "") -> [String] {
        let rows = articles.filter { $0.article.utf8.starts(with: prefix.utf8) }
        func before(_ a: Row, _ b: Row) -> Bool {
            let (rateA, rateB) = (
                Double(a.completed) / Double(a.readers), Double(b.completed) / Double(b.readers)
            )
            switch order {
            case .readers where a.readers != b.readers: return a.readers > b.readers
            case .completion where rateA != rateB: return rateA > rateB
            case .recent where a.lastAgoMinutes != b.lastAgoMinutes:
                return a.lastAgoMinutes < b.lastAgoMinutes
            default: return Array(a.article.utf8).lexicographicallyPrecedes(Array(b.article.utf8))
            }
        }
        return rows.sorted(by: before).map(\.article)
    }

    /// Article ids as bytes: Swift's `==` would take two spellings of "é" for one.
    static func bytes(_ articles: [String]) -> [[UInt8]] { articles.map { Array($0.utf8) } }

    /// Every page from the first, `limits` giving each page's size in turn; the articles in the
    /// order the pages listed them.
    static func pages(
        _ service: Service, query: String, limits: [Int], sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> [String] {
        var listed: [String] = []
        var cursor: String?
        var page = 0
        repeat {
            let limit = limits[page % limits.count]
            let target =
                "/v1/articles?\(query)&limit=\(limit)" + (cursor.map { "&cursor=\(Self.encoded($0))" } ?? "")
            let answer = try service.get(target)
            try #require(answer.status == 200, "\(target): \(answer.text)", sourceLocation: sourceLocation)
            let json = try answer.json()
            let rows = try #require(json["articles"] as? [[String: Any]], sourceLocation: sourceLocation)
            #expect(rows.count <= limit, sourceLocation: sourceLocation)
            listed += rows.compactMap { $0["article"] as? String }
            cursor = json["next"] as? String
            #expect(cursor != nil || json["next"] is NSNull, sourceLocation: sourceLocation)
            page += 1
        } while cursor != nil && page < 100
        return listed
    }

    static func encoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
    }

    /// The `next` of the first page of `query`.
    static func firstCursor(_ service: Service, _ query: String) throws -> String {
        try #require(try service.get("/v1/articles?\(query)").json()["next"] as? String, "\(query)")
    }

    @Test(
        "paging through every sort lists each article once, in the documented order",
        arguments: ListingOrder.allCases)
    func everySort(order: ListingOrder) throws {
        let service = try Self.seeded()
        let expected = Self.bytes(Self.expected(order))
        let query = "sort=\(order.rawValue)"
        #expect(try Self.bytes(Self.pages(service, query: query, limits: [4])) == expected)
        // The limit may change from page to page; one page of them all is the same list.
        #expect(try Self.bytes(Self.pages(service, query: query, limits: [1, 5, 2])) == expected)
        #expect(try Self.bytes(Self.pages(service, query: query, limits: [1000])) == expected)
    }

    @Test("readers is the default sort; without a limit a page holds 50")
    func defaults() throws {
        let service = try Self.seeded()
        let json = try service.get("/v1/articles").json()
        let rows = try #require(json["articles"] as? [[String: Any]])
        #expect(
            Self.bytes(rows.compactMap { $0["article"] as? String }) == Self.bytes(Self.expected(.readers)))
        #expect(json["next"] is NSNull)
    }

    @Test(
        "a prefix lists the articles whose id starts with its bytes, and pages through them",
        arguments: ListingOrder.allCases)
    func prefix(order: ListingOrder) throws {
        let service = try Self.seeded()
        for prefix in ["/blog/", "/blog", "/b", "/news/", "/caf", "/nothing"] {
            let query = "sort=\(order.rawValue)&prefix=\(Self.encoded(prefix))"
            let expected = Self.bytes(Self.expected(order, prefix: prefix))
            #expect(try Self.bytes(Self.pages(service, query: query, limits: [2])) == expected, "\(prefix)")
        }
        #expect(Self.expected(order, prefix: "/blog/").count == 4)
    }

    @Test("a range lists every article, those without events in it last by latest event and with null times")
    func range() throws {
        let service = try Self.seeded()
        let json = try service.get("/v1/articles?sort=recent&from=2026-11-29&limit=1000").json()
        let rows = try #require(json["articles"] as? [[String: Any]])
        #expect(rows.count == articles.count)
        let outside = rows.suffix(2)
        #expect(outside.map { $0["article"] as? String } == ["/b", "/zz"])
        #expect(outside.allSatisfy { $0["lastEventAt"] is NSNull && $0["readers"] as? Int == 0 })
    }

    @Test(
        "a cursor is refused, as 400 invalid_query on cursor, when edited or made for another query",
        arguments: [
            "sort=readers", "sort=article&prefix=%2Fblog%2F", "sort=recent&from=2026-11-01&to=2026-11-30",
        ])
    func foreignCursors(query: String) throws {
        let service = try Self.seeded()
        let cursor = try Self.firstCursor(service, query + "&limit=2")
        // The cursor as handed out works.
        #expect(try service.get("/v1/articles?\(query)&limit=2&cursor=\(Self.encoded(cursor))").status == 200)

        let (offset, checksum) = try #require(cursor.split(separator: ".").map(String.init).pairIfTwo)
        var forged = [
            "\(Int(offset)! + 1).\(checksum)", "\(offset).\(String(checksum.reversed()))", "\(offset).",
            ".\(checksum)",
            "\(offset)", "-1.\(checksum)", "\(offset).\(checksum).0", "0000000002.\(checksum)", "abc", "",
        ]
        if checksum.first != "0" { forged.append("\(offset).0\(checksum.dropFirst())") }
        for edited in forged {
            let answer = try service.get("/v1/articles?\(query)&limit=2&cursor=\(Self.encoded(edited))")
            #expect(answer.status == 400, "cursor '\(edited)'")
            #expect(answer.error.code == "invalid_query", "cursor '\(edited)'")
            #expect(answer.error.field == "cursor", "cursor '\(edited)'")
        }
        let others = [
            "sort=completion", "sort=readers&prefix=%2Fblog%2F", "sort=article",
            "sort=article&prefix=%2Fblog",
            "sort=article&prefix=%2Fnews%2F", "sort=recent&from=2026-11-01", "sort=recent&to=2026-11-30",
            "sort=recent&from=2026-11-02&to=2026-11-30",
        ].filter { $0 != query }
        for other in others {
            let answer = try service.get("/v1/articles?\(other)&limit=2&cursor=\(Self.encoded(cursor))")
            #expect(answer.status == 400, "a cursor of '\(query)' under '\(other)'")
            #expect(answer.error.field == "cursor", "a cursor of '\(query)' under '\(other)'")
        }
    }

    @Test("a cursor holds across services over the same data, as across restarts")
    func cursorOfAnotherInstance() throws {
        let (first, second) = (try Self.seeded(), try Self.seeded())
        let cursor = try Self.firstCursor(first, "sort=completion&limit=3")
        let page = try second.get("/v1/articles?sort=completion&limit=3&cursor=\(Self.encoded(cursor))")
            .json()
        let rows = try #require(page["articles"] as? [[String: Any]])
        #expect(
            Self.bytes(rows.compactMap { $0["article"] as? String })
                == Self.bytes(Array(Self.expected(.completion)[3..<6])))
    }

    @Test("a prefix must be 1 to 256 bytes without control characters")
    func badPrefix() throws {
        let service = try Self.seeded()
        for prefix in ["", String(repeating: "a", count: 257), "%0A", "a%00"] {
            let answer = try service.get("/v1/articles?prefix=\(prefix)")
            #expect(answer.status == 400, "prefix '\(prefix)'")
            #expect(answer.error.field == "prefix", "prefix '\(prefix)'")
        }
        #expect(try service.get("/v1/articles?prefix=\(String(repeating: "a", count: 256))").status == 200)
    }
}

extension Array {
    /// The two elements, when there are exactly two.
    fileprivate var pairIfTwo: (Element, Element)? { count == 2 ? (self[0], self[1]) : nil }
}
