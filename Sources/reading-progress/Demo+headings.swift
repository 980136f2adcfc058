import ProgressStore

extension DemoData {
    /// One heading of a sample article's map, with how slowly its section is read.
    struct Heading {
        var title: String
        /// Where it starts, as a share of the body (the coordinate of `seenDepth`).
        var start: Double
        var words: Int32
        /// Engaged time while it is in view, against the article's usual pace: an introduction
        /// read with care above 1, a passage skimmed well below.
        var pace: Double
    }

    /// The maps of the sample articles that have one: an introduction read slowly, a middle
    /// skimmed, and a long section where many readers stop. The others send none, as a page
    /// without headings does.
    static let headings: [String: [Heading]] = [
        "/blog/how-to-read-a-long-article": [
            Heading(title: "Why long articles lose readers", start: 0, words: 100, pace: 4),
            Heading(title: "What the research says", start: 0.08, words: 350, pace: 0.35),
            Heading(title: "How editors read the curve", start: 0.33, words: 350, pace: 1.1),
            Heading(title: "A worked example, paragraph by paragraph", start: 0.58, words: 480, pace: 1.3),
            Heading(title: "What to change first", start: 0.92, words: 70, pace: 1),
        ],
        "/guides/getting-started": [
            Heading(title: "Before you start", start: 0, words: 110, pace: 3),
            Heading(title: "Installing", start: 0.12, words: 300, pace: 1.2),
            Heading(title: "Your first article", start: 0.45, words: 200, pace: 0.9),
            Heading(title: "Configuration options", start: 0.68, words: 200, pace: 0.3),
            Heading(title: "Where to go next", start: 0.9, words: 90, pace: 1),
        ],
        "/recipes/sourdough-bread": [
            Heading(title: "Why bake sourdough at home", start: 0, words: 110, pace: 4),
            Heading(title: "A short history of wild yeast", start: 0.1, words: 300, pace: 0.35),
            Heading(title: "Making a starter", start: 0.3, words: 165, pace: 1.3),
            Heading(title: "Ingredients", start: 0.45, words: 100, pace: 1.5),
            Heading(title: "Mixing, folding and the long rise", start: 0.52, words: 600, pace: 1.8),
            Heading(title: "Baking", start: 0.88, words: 77, pace: 1.2),
            Heading(title: "Troubleshooting", start: 0.95, words: 55, pace: 0.4),
        ],
    ]

    /// A step of a reader's scroll from `from` to `to` (progress), with the viewport showing
    /// `visible` of the body: its engaged time, `engaged` at the article's usual pace, spread
    /// along the way and stretched or shrunk by the pace of the section in the middle of the
    /// screen, and each band's share of it while in view (as the tracker counts attention).
    static func read(
        _ article: Article, from: Double, to: Double, visible: Double, _ engaged: Int64
    ) -> (engagedMs: Int64, attention: [UInt32]) {
        let parts = 8
        let map = headings[article.id] ?? []
        var bands = [UInt32](repeating: 0, count: 20)
        var total: Int64 = 0
        for part in 0..<parts {
            let progress = from + (to - from) * (Double(part) + 0.5) / Double(parts)
            let top = progress * (1 - visible)
            let pace = map.last { $0.start <= top + visible / 2 }?.pace ?? 1
            let ms = Int64(Double(engaged) / Double(parts) * pace)
            total += ms
            let first = min(19, Int(top * 20))
            let last = min(19, Int((min(1, top + visible) * 20).rounded(.up)) - 1)
            for band in first...max(first, last) { bands[band] += UInt32(ms) }
        }
        return (total, bands)
    }
}

extension DemoData.Article {
    /// The map sent with a view's first event, or nil for an article without one.
    var sections: [Section]? {
        guard let map = DemoData.headings[id] else { return nil }
        return map.map { Section(title: $0.title, start: $0.start, words: $0.words) }
    }
}
