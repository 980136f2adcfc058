extension ProgressService {
    /// `GET /healthz` (SPEC §7): 200 while the store accepts writes, else 503.
    func health(writable: Bool) -> Reply {
        var w = JSONWriter()
        w.beginObject()
        if writable {
            w.key("status")
            w.string("ok")
            w.endObject()
            return .json(200, w)
        }
        w.key("status")
        w.string("unavailable")
        w.key("error")
        APIError.storeUnavailable("the last write failed").writeDetail(into: &w)
        w.endObject()
        return .json(503, w)
    }

    /// `GET /metrics` in the Prometheus text format.
    func metricsText() -> Reply {
        let text = metrics.render(
            storeSizeBytes: store.sizeBytes, storeWritable: store.isWritable, storeGauges: store.gauges)
        return Reply(
            status: 200, body: Array(text.utf8), contentType: "text/plain; version=0.0.4; charset=utf-8")
    }
}
