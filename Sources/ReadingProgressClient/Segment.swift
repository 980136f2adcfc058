import ProgressCore

extension Reporter.Configuration {
    /// The longest source, in UTF-8 bytes.
    public static let maximumSourceBytes = EventPartLimits.sourceBytes

    /// ``source`` as events carry it: control characters and white space collapsed to single
    /// spaces, trimmed, cut to 100 bytes on a character boundary; nil when nothing is left.
    var sentSource: String? {
        guard let source else { return nil }
        let cleaned = ArticleSection.cleaned(source, toBytes: Self.maximumSourceBytes)
        return cleaned.isEmpty ? nil : cleaned
    }
}
