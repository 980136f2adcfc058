extension ProgressService {
    /// `GET /healthz` (docs/operations.md): 200 while the store accepts writes, else 503.
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
    func metricsText(_ finish: @escaping Completion) {
        store.report { [self] report in
            let text = metrics.render(
                storeSizeBytes: report.sizeBytes, storeWritable: store.isWritable, storeGauges: report.gauges)
            finish(
                .success(
                    Reply(
                        status: 200, body: Array(text.utf8),
                        contentType: "text/plain; version=0.0.4; charset=utf-8")))
        }
    }
}
