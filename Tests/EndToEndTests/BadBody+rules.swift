import Foundation

extension BadBody {
    /// Wrong types, missing fields, limits and every range rule of docs/api.md's event fields.
    static func fields(nowMs: Int64) -> [BadBody] {
        let valid = EventJSON()
        var table: [BadBody] = []
        let dayMs: Int64 = 86_400_000
        table += [
            invalid("article is a number", valid.with("article", "1"), field: "article", routes: eventsOnly),
            invalid(
                "article is an array", valid.with("article", #"["/a"]"#), field: "article", routes: eventsOnly
            ),
            invalid("reader is a boolean", valid.with("reader", "true"), field: "reader", routes: eventsOnly),
            invalid("axis is a number", valid.with("axis", "1"), field: "axis"),
            invalid("axis is unknown", valid.with("axis", #""diagonal""#), field: "axis"),
            invalid(
                "contentOffset is a string", valid.with("contentOffset", #""0,0""#), field: "contentOffset"),
            invalid(
                "contentOffset.y is a string", valid.with("contentOffset", #"{"x":0,"y":"100"}"#),
                field: "contentOffset.y"),
            invalid(
                "contentOffset.x is a boolean", valid.with("contentOffset", #"{"x":false,"y":1}"#),
                field: "contentOffset.x"),
            invalid("contentSize is an array", valid.with("contentSize", "[400,2000]"), field: "contentSize"),
            invalid(
                "contentSize.width is a string", valid.with("contentSize", #"{"width":"400","height":2000}"#),
                field: "contentSize.width"),
            invalid(
                "containerSize.height is an object",
                valid.with("containerSize", #"{"width":400,"height":{}}"#), field: "containerSize.height"),
            invalid("contentInsets is a number", valid.with("contentInsets", "0"), field: "contentInsets"),
            invalid(
                "contentInsets.top is a string", valid.with("contentInsets", #"{"top":"0"}"#),
                field: "contentInsets.top"),
            invalid("region is an array", valid.with("region", "[0,100]"), field: "region"),
            invalid("step is a string", valid.with("step", #""1/3""#), field: "step"),
            invalid(
                "step.index is a fraction", valid.with("step", #"{"index":0.5,"total":3}"#),
                field: "step.index"),
            invalid(
                "step.total is a string", valid.with("step", #"{"index":0,"total":"3"}"#), field: "step.total"
            ),
            invalid(
                "indicator.trackLength is a string",
                valid.with("indicator", #"{"trackLength":"90","thumbLength":40}"#),
                field: "indicator.trackLength"),
            invalid("engagedMs is a string", valid.with("engagedMs", #""5""#), field: "engagedMs"),
            invalid("engagedMs is a fraction", valid.with("engagedMs", "1.5"), field: "engagedMs"),
            invalid("time is a boolean", valid.with("time", "true"), field: "time"),
            invalid("time is a fraction", valid.with("time", "\(nowMs).5"), field: "time"),
            invalid("time is not a date", valid.with("time", #""yesterday""#), field: "time"),
            invalid("time is February 30", valid.with("time", #""2026-02-30T00:00:00Z""#), field: "time"),
            invalid("time has no zone", valid.with("time", #""2026-02-01T00:00:00""#), field: "time"),
            invalid("id is a number", valid.with("id", "7"), field: "id"),

            invalid("article is missing", valid.without("article"), field: "article", routes: eventsOnly),
            invalid("article is null", valid.with("article", "null"), field: "article", routes: eventsOnly),
            invalid("contentOffset is missing", valid.without("contentOffset"), field: "contentOffset"),
            invalid("contentSize is missing", valid.without("contentSize"), field: "contentSize"),
            invalid("containerSize is missing", valid.without("containerSize"), field: "containerSize"),
            invalid(
                "contentOffset.x is missing", valid.with("contentOffset", #"{"y":100}"#),
                field: "contentOffset.x"),
            invalid(
                "contentSize.height is missing", valid.with("contentSize", #"{"width":400}"#),
                field: "contentSize.height"),
            invalid("region.end is missing", valid.with("region", #"{"start":0}"#), field: "region.end"),
            invalid("step.total is missing", valid.with("step", #"{"index":0}"#), field: "step.total"),
            invalid(
                "indicator.thumbLength is missing", valid.with("indicator", #"{"trackLength":90}"#),
                field: "indicator.thumbLength"),

            invalid("article is empty", valid.with("article", #""""#), field: "article", routes: eventsOnly),
            invalid(
                "article is 257 bytes", valid.with("article", "\"/\(String(repeating: "a", count: 256))\""),
                field: "article", routes: eventsOnly),
            invalid(
                "article is 258 bytes in 129 characters",
                valid.with("article", "\"\(String(repeating: "é", count: 129))\""), field: "article",
                routes: eventsOnly),
            invalid("reader is empty", valid.with("reader", #""""#), field: "reader", routes: eventsOnly),
            invalid(
                "reader is 129 bytes", valid.with("reader", "\"\(String(repeating: "r", count: 129))\""),
                field: "reader", routes: eventsOnly),
            invalid("id is empty", valid.with("id", #""""#), field: "id"),
            invalid(
                "id is 65 bytes", valid.with("id", "\"\(String(repeating: "i", count: 65))\""), field: "id"),
            invalid(
                "article holds an escaped NUL", valid.with("article", #""/a\u0000b""#), field: "article",
                routes: eventsOnly),
            invalid(
                "article holds an escaped newline", valid.with("article", #""/a\nb""#), field: "article",
                routes: eventsOnly),
            invalid(
                "reader holds DEL", valid.with("reader", #""r\u007f""#), field: "reader", routes: eventsOnly),
            invalid(
                "reader holds a tab", valid.with("reader", #""r\tr""#), field: "reader", routes: eventsOnly),
            invalid("id holds a C1 control", valid.with("id", #""x\u0085""#), field: "id"),

            invalid(
                "time more than 5 minutes ahead", valid.with("time", "\(nowMs + 5 * 60_000 + 60_000)"),
                field: "time"),
            invalid(
                "time more than 5 minutes ahead, as RFC 3339",
                valid.with("time", Scenario.quote(Scenario.rfc3339(nowMs + 3_600_000))), field: "time"),
            invalid(
                "time more than 30 days old", valid.with("time", "\(nowMs - 30 * dayMs - 60_000)"),
                field: "time"),
            invalid("time in 1970", valid.with("time", "0"), field: "time"),
            invalid("time before 1970", valid.with("time", "-86400000"), field: "time"),
            invalid("time in the year 9999", valid.with("time", #""9999-12-31T23:59:59Z""#), field: "time"),
            invalid("engagedMs is negative", valid.with("engagedMs", "-1"), field: "engagedMs"),
            invalid("engagedMs is over a day", valid.with("engagedMs", "86400001"), field: "engagedMs"),
            invalid("engagedMs is 1e300", valid.with("engagedMs", "1e300"), field: "engagedMs"),
            invalid(
                "region.start is negative", valid.with("region", #"{"start":-1,"end":100}"#),
                field: "region.start"),
            invalid(
                "region.end is past the content", valid.with("region", #"{"start":0,"end":2001}"#),
                field: "region.end"),
            invalid("region is empty", valid.with("region", #"{"start":100,"end":100}"#), field: "region"),
            invalid("region is reversed", valid.with("region", #"{"start":500,"end":100}"#), field: "region"),
            invalid(
                "step.index is negative", valid.with("step", #"{"index":-1,"total":3}"#), field: "step.index"),
            invalid("step.total is zero", valid.with("step", #"{"index":0,"total":0}"#), field: "step.total"),
            invalid(
                "step.index is past Int32", valid.with("step", #"{"index":4294967296,"total":3}"#),
                field: "step.index"),
            invalid(
                "indicator.trackLength is zero",
                valid.with("indicator", #"{"trackLength":0,"thumbLength":0}"#),
                field: "indicator.trackLength"),
            invalid(
                "indicator.trackLength is negative",
                valid.with("indicator", #"{"trackLength":-90,"thumbLength":0}"#),
                field: "indicator.trackLength"),
            invalid(
                "indicator.thumbLength is longer than the track",
                valid.with("indicator", #"{"trackLength":90,"thumbLength":91}"#),
                field: "indicator.thumbLength"),
            invalid(
                "indicator.thumbLength is negative",
                valid.with("indicator", #"{"trackLength":90,"thumbLength":-1}"#),
                field: "indicator.thumbLength"),
        ]
        for (size, other) in [("contentSize", "2000"), ("containerSize", "1000")] {
            table.append(
                invalid(
                    "\(size).width is negative", valid.with(size, "{\"width\":-1,\"height\":\(other)}"),
                    field: "\(size).width"))
            table.append(
                invalid(
                    "\(size).height is negative", valid.with(size, "{\"width\":400,\"height\":-0.5}"),
                    field: "\(size).height"))
        }
        for edge in ["top", "leading", "bottom", "trailing"] {
            table.append(
                invalid(
                    "contentInsets.\(edge) is negative", valid.with("contentInsets", "{\"\(edge)\":-1}"),
                    field: "contentInsets.\(edge)"))
        }
        return table
    }

    /// Other media types, and batches too large or with nothing valid.
    static func mediaTypesAndBatches() -> [BadBody] {
        let valid = EventJSON()
        var table: [BadBody] = []
        for type in [
            "application/xml", "text/html", "multipart/form-data; boundary=x",
            "application/x-www-form-urlencoded",
            "application/json; charset=iso-8859-1", "text/plain; charset=utf-16",
        ] {
            table.append(
                BadBody(
                    name: "Content-Type \(type)", body: Array(valid.text.utf8), contentType: type,
                    status: 415,
                    code: "unsupported_media_type"))
        }
        table.append(
            BadBody(
                name: "no Content-Type", body: Array(valid.text.utf8), contentType: nil, status: 415,
                code: "unsupported_media_type"))
        table.append(
            BadBody(
                name: "NDJSON on /v1/progress", body: Array(valid.text.utf8),
                contentType: "application/x-ndjson",
                status: 415, code: "unsupported_media_type", routes: ["/v1/progress"]))

        // Batches.
        let validEvent = valid.text
        table += [
            BadBody(
                name: "a batch of 1001 valid events",
                body: Array(
                    ("[" + Array(repeating: validEvent, count: 1001).joined(separator: ",") + "]").utf8),
                status: 413, code: "batch_too_large", routes: eventsOnly),
            BadBody(
                name: "1001 valid NDJSON lines",
                body: Array(Array(repeating: validEvent, count: 1001).joined(separator: "\n").utf8),
                contentType: "application/x-ndjson", status: 413, code: "batch_too_large", routes: eventsOnly),
            BadBody(
                name: "a batch in which no event is valid",
                body: Array("[\(valid.without("article").text),\(valid.with("engagedMs", "-1").text)]".utf8),
                code: "invalid_event", routes: eventsOnly),
            BadBody(
                name: "a batch whose one event is invalid",
                body: Array("[\(valid.with("engagedMs", "-1").text)]".utf8), code: "invalid_event",
                field: "[0].engagedMs", routes: eventsOnly),
            BadBody(
                name: "NDJSON whose every line is broken",
                body: Array("{\n\(valid.with("axis", "1").text)\n".utf8), contentType: "application/x-ndjson",
                code: "invalid_event", routes: eventsOnly),
            BadBody(
                name: "an event batch on /v1/progress", body: Array("[\(validEvent)]".utf8),
                code: "invalid_event",
                routes: ["/v1/progress"]),
        ]
        return table
    }
}
