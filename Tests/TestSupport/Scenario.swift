import Foundation

/// Builds event JSON for the end-to-end tests, with times on whole UTC days before today.
public enum Scenario {
    public static let dayMs: Int64 = 86_400_000

    /// Midnight (UTC) of the day `daysAgo` days before today, in ms since the epoch.
    public static func midnight(daysAgo: Int) -> Int64 {
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        return (now / dayMs - Int64(daysAgo)) * dayMs
    }

    public static func date(daysAgo: Int) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter.string(from: Date(timeIntervalSince1970: Double(midnight(daysAgo: daysAgo)) / 1000))
    }

    public static func rfc3339(_ ms: Int64) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss'Z'"
        let seconds = formatter.string(from: Date(timeIntervalSince1970: Double(ms / 1000)))
        // Milliseconds appear only when there are some, as the API writes them.
        let millis = ms % 1000
        guard millis != 0 else { return seconds }
        return seconds.dropLast() + "." + String(String(millis + 1000).dropFirst()) + "Z"
    }

    /// A vertical event: content 2000 tall in a 1000 tall container unless told otherwise, so
    /// progress is y / 1000 and seenDepth (y + 1000) / 2000.
    public static func event(
        article: String, reader: String, y: Double, contentHeight: Double = 2000, timeMs: Int64,
        engagedMs: Int = 0, id: String? = nil
    ) -> String {
        var json = """
            {"article":\(quote(article)),"reader":\(quote(reader)),"contentOffset":{"x":0,"y":\(y)},\
            "contentSize":{"width":400,"height":\(contentHeight)},"containerSize":{"width":400,"height":1000},\
            "engagedMs":\(engagedMs),"time":\(timeMs)
            """
        if let id { json += ",\"id\":\(quote(id))" }
        return json + "}"
    }

    public static func quote(_ text: String) -> String {
        String(
            decoding: try! JSONSerialization.data(withJSONObject: text, options: .fragmentsAllowed),
            as: UTF8.self)
    }

    /// Percent-encodes an article id as one path segment.
    public static func segment(_ article: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return article.addingPercentEncoding(withAllowedCharacters: allowed)!
    }
}
