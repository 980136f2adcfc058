import HTTPServer
import ProgressStore

/// What an erase route removes (docs/privacy.md, "Erasure").
enum ErasureKind: Int, CaseIterable, Sendable {
    case reader
    case article

    /// Its name in metrics, messages and the `field` of an error.
    var label: String {
        switch self {
        case .reader: return "reader"
        case .article: return "article"
        }
    }
}

extension ProgressService {
    /// `DELETE /v1/readers/{reader}` and `DELETE /v1/articles/{article}` (docs/privacy.md,
    /// "Erasure"): the store removes the reader from every article and day, or the article with
    /// all its readers, durably, and the answer counts what went: `{"erased":{"articles":A,
    /// "readerDays":D}}`, zeros when there was nothing.
    func erase(_ kind: ErasureKind, rawID: Substring, _ finish: @escaping Completion) {
        guard let id = percentDecode(rawID), !id.isEmpty else {
            finish(
                .failure(
                    APIError(
                        status: 400, code: "invalid_path",
                        message: "the \(kind.label) id is not valid percent-encoded UTF-8", field: kind.label)
                ))
            return
        }
        let erasure: Erasure = kind == .reader ? .reader(id) : .article(id)
        store.erase(erasure) { [self] result in
            finish(
                Result { () throws(APIError) in
                    let count = try result.mapError { APIError.storeUnavailable($0.message) }.get()
                    metrics.recordErasure(kind, readerDays: count.readerDays)
                    statsCache.removeAll()
                    segmentsCache.removeAll()
                    var writer = JSONWriter()
                    writer.beginObject()
                    writer.key("erased")
                    writer.beginObject()
                    writer.key("articles")
                    writer.integer(count.articles)
                    writer.key("readerDays")
                    writer.integer(count.readerDays)
                    writer.endObject()
                    writer.endObject()
                    return .json(200, writer)
                })
        }
    }
}
