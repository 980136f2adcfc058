import Foundation
import ProgressCore

/// One event as `POST /v1/events` takes it (docs/api.md), and as a queue file holds it.
struct WireEvent: Codable, Hashable, Sendable {
    /// Fresh for every event: the service counts a repeat of it within 24 hours once.
    var id: String
    /// Milliseconds since 1970, UTC.
    var time: Int64
    var article: String
    /// Left out of the JSON when nil; the service then derives a reader of its own.
    var reader: String?
    var axis: ScrollAxis
    var contentOffset: Point
    var contentSize: Size
    var containerSize: Size
    var contentInsets: Insets
    var region: Region?
    var step: Step?
    var indicator: Indicator?
    var engagedMs: Int
    /// The article's headings: with the first event of a view and when the map changed.
    var sections: [ArticleSection]?
    /// Twenty bands' engaged ms; with every event that carries engaged time.
    var attention: [Int]?
    var device: DeviceClass?
    var source: String?

    init(id: String, time: Date, article: String, reader: String?, snapshot: ScrollSnapshot, engagedMs: Int) {
        self.id = id
        self.time = Int64((time.timeIntervalSince1970 * 1000).rounded(.down))
        self.article = article
        self.reader = reader
        axis = snapshot.axis
        contentOffset = snapshot.contentOffset
        contentSize = snapshot.contentSize
        containerSize = snapshot.containerSize
        contentInsets = snapshot.contentInsets
        region = snapshot.region
        step = snapshot.step
        indicator = snapshot.indicator
        self.engagedMs = engagedMs
    }

    /// The event of `draft`, with the configuration's device class and source.
    init(
        id: String, article: String, reader: String?, draft: EventDraft, configuration: Reporter.Configuration
    ) {
        self.init(
            id: id, time: draft.time, article: article, reader: reader, snapshot: draft.snapshot,
            engagedMs: draft.engagedMs)
        sections = draft.sections
        attention = draft.attention
        device = configuration.device
        source = configuration.sentSource
    }

    /// When the event happened.
    var date: Date { Date(timeIntervalSince1970: TimeInterval(time) / 1000) }

    /// The JSON object, with `/` as it is (article ids are paths).
    func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    /// An event read back from `data`.
    static func decoded(from data: Data) throws -> WireEvent {
        try JSONDecoder().decode(WireEvent.self, from: data)
    }

    /// The body of one request: the events' JSON objects as a JSON array.
    static func batchBody(_ objects: [Data]) -> Data {
        var body = Data("[".utf8)
        for (index, object) in objects.enumerated() {
            if index > 0 { body.append(UInt8(ascii: ",")) }
            body.append(object)
        }
        body.append(UInt8(ascii: "]"))
        return body
    }
}
