/// What `POST /v1/events` does with a body before the store sees it — decoding, validating,
/// figures and records — for `store-bench` to time; the service itself never calls this.
package enum IngestDecoding {
    /// How many events of `body` are valid, decoded as the ingest route decodes
    /// `application/json` or, with `ndjson`, `application/x-ndjson`; events without a time
    /// count at `nowMs`. 0 when the body as a whole is refused.
    package static func validEvents(in body: [UInt8], ndjson: Bool, nowMs: Int64) -> Int {
        var batch = ProgressService.PreparedBatch(
            window: TimeWindow(nowMs: nowMs, retentionDays: 0), bodyBytes: body.count)
        do {
            let single = try EventBatch.decode(
                body, format: ndjson ? .ndjson : .json, using: EventDecoder(), into: &batch)
            guard let single else { return batch.records.count }
            // As the route does for a lone event; used, so that the work is not optimised away.
            return single.geometry.figuresOfValidGeometry().progress.isNaN ? 0 : 1
        } catch {
            return 0
        }
    }
}
