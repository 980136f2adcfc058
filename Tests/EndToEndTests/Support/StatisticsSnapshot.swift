/// Everything a client can read back about the statistics, byte for byte: the stats of some
/// articles under both metrics and the whole listing. A rejected request must leave it as it was.
struct StatisticsSnapshot: Equatable, CustomStringConvertible {
    var pages: [String: String]

    static func take(
        _ client: HTTPClient, articles: [String], headers: [(String, String)] = []
    ) throws -> StatisticsSnapshot {
        var targets = ["/v1/articles?sort=article&limit=1000"]
        for article in articles {
            let stats = "/v1/articles/\(Scenario.segment(article))/stats"
            targets += [stats, stats + "?metric=seenDepth"]
        }
        var pages: [String: String] = [:]
        for target in targets {
            let response = try client.get(target, headers: headers)
            pages[target] = "\(response.status) \(response.text)"
        }
        return StatisticsSnapshot(pages: pages)
    }

    var description: String {
        pages.sorted { $0.key < $1.key }.map { "\($0.key) → \($0.value)" }.joined(separator: "\n")
    }
}
