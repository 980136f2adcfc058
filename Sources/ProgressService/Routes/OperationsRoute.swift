extension ProgressService {
    /// `GET /healthz` (docs/operations.md): 200 `{"status":"ok"}` while the store accepts writes
    /// and has nothing to report; 200 `{"status":"degraded","reason":…}` while it accepts writes
    /// but names a problem (a checkpoint that keeps failing) — the node still answers correctly,
    /// so a load balancer keeps it, and monitoring sees why; else 503 `{"status":"unavailable",…}`.
    func health(writable: Bool, problem: String? = nil) -> Reply {
        var w = JSONWriter()
        w.beginObject()
        w.key("status")
        guard writable else {
            w.string("unavailable")
            let reason = "the last write failed" + (problem.map { "; " + $0 } ?? "")
            w.key("reason")
            w.string(reason)
            w.key("error")
            APIError.storeUnavailable(reason).writeDetail(into: &w)
            w.endObject()
            return .json(503, w)
        }
        w.string(problem == nil ? "ok" : "degraded")
        if let problem {
            w.key("reason")
            w.string(problem)
        }
        w.endObject()
        return .json(200, w)
    }

    /// `GET /metrics` in the Prometheus text format: the service's own series, the room under the
    /// store, the process's and the build's.
    func metricsText(_ finish: @escaping Completion) {
        store.report { [self] report in
            var text = metrics.render(
                storeSizeBytes: report.sizeBytes, storeWritable: store.isWritable, storeGauges: report.gauges)
            text += StoreFileSystem.render(path: configuration.storePath)
            text += ProcessCollector.render()
            text += "# HELP reading_progress_build_info The running release, as a label; always 1.\n"
            text += "# TYPE reading_progress_build_info gauge\n"
            text += "reading_progress_build_info{version=\"\(labelValue(configuration.version))\"} 1\n"
            finish(
                .success(
                    Reply(
                        status: 200, body: Array(text.utf8),
                        contentType: "text/plain; version=0.0.4; charset=utf-8")))
        }
    }
}

/// `text` as a label value of the Prometheus text format: backslash, quote and line feed escaped.
private func labelValue(_ text: String) -> String {
    var out = ""
    for character in text {
        switch character {
        case "\\": out += "\\\\"
        case "\"": out += "\\\""
        case "\n": out += "\\n"
        default: out.append(character)
        }
    }
    return out
}
