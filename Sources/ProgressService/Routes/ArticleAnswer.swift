import HTTPServer
import ProgressStore

extension ProgressService {
    /// How the routes about one article (stats, segments) answer: with the answer kept in
    /// `cache` while the article has not changed, or else by `compute` on the query that
    /// `parse` reads from the decoded article id, keeping that answer when the store can tell
    /// the article's version.
    ///
    /// Kept answers are found by the request as spelled, before any decoding; the article's
    /// version, read before its answer was computed, says whether one still holds.
    func answer<Query>(
        _ request: HTTPRequest, aboutArticle rawArticle: Substring, keptIn cache: AnswerCache,
        _ finish: @escaping Completion,
        parse: (_ article: String) throws(APIError) -> Query,
        compute: (Query, @escaping Completion) -> Void
    ) {
        let cacheKey = rawArticle + "?" + (request.query ?? "")
        if let kept = cache.entry(for: cacheKey), store.version(of: kept.article) == kept.version {
            finish(.success(kept.reply))
            return
        }
        let article: String
        let query: Query
        do throws(APIError) {
            guard let decoded = percentDecode(rawArticle), !decoded.isEmpty else {
                throw APIError(
                    status: 400, code: "invalid_path",
                    message: "the article id is not valid percent-encoded UTF-8",
                    field: "article")
            }
            article = decoded
            query = try parse(article)
        } catch {
            finish(.failure(error))
            return
        }
        let version = store.version(of: article)
        compute(query) { [self] result in
            finish(
                result.map { reply in
                    guard let version else { return reply }
                    var prepared = reply
                    prepared.prepared = prepare(prepared)
                    cache.store(prepared, article: article, version: version, for: cacheKey)
                    return prepared
                })
        }
    }

    /// What the store found about `article`: its failure a 503, no article a 404.
    func found<Value>(_ result: Result<Value?, StoreError>, about article: String) throws(APIError) -> Value {
        guard let value = try result.mapError({ APIError.storeUnavailable($0.message) }).get() else {
            throw .unknownArticle(article)
        }
        return value
    }
}
