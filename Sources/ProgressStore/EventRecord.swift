public import ProgressCore

/// One validated event, reduced to what the statistics keep (docs/api.md).
///
/// The service computes the figures (with ProgressCore) before it hands an event to a store,
/// so a store never sees geometry, only the numbers it aggregates.
public struct EventRecord: Sendable, Equatable {
    /// Article id, arbitrary UTF-8 (1–256 bytes).
    public var article: String
    /// Opaque reader id (1–128 bytes).
    public var reader: String
    /// Event time in milliseconds since the Unix epoch (UTC); its UTC day is the day it counts on.
    public var timeMs: Int64
    /// `progress` (docs/api.md, "The figures"), 0…1.
    public var progress: Double
    /// `seenDepth` (docs/api.md, "The figures"), 0…1.
    public var seenDepth: Double
    /// Whether the scroll view could scroll at all (`S > 0`).
    public var scrollable: Bool
    /// Engaged time since this reader's previous event on this article, 0…86 400 000.
    public var engagedMs: Int64
    /// Client event id (1–64 bytes): a repeat within 24 hours is acknowledged and not counted.
    public var eventID: String?
    /// The article's headings, when the event carried them (docs/api.md, "Sections and attention").
    public var sections: [Section]? {
        get { parts?.sections }
        set { updateParts { $0.sections = newValue } }
    }
    /// ``AttentionBands/count`` engaged milliseconds, one a band of the body, when sent.
    public var attention: [UInt32]? {
        get { parts?.attention }
        set { updateParts { $0.attention = newValue } }
    }
    /// The device class the client named (docs/api.md, "Segments").
    public var device: DeviceClass?
    /// The class a vertical event's container width gives; `nil` for a horizontal event.
    public var widthDevice: DeviceClass?
    /// Where the reader came from, normalised (``ReaderSource/normalised(_:)``), when sent.
    public var source: String? {
        get { parts?.source }
        set { updateParts { $0.source = newValue } }
    }
    /// Sections, attention and source, which few events carry: out of line, so that the common
    /// event is small and its copies cheap. `nil` when the event has none of them.
    package private(set) var parts: Parts?

    public init(
        article: String, reader: String, timeMs: Int64, progress: Double, seenDepth: Double,
        scrollable: Bool, engagedMs: Int64, eventID: String? = nil, sections: [Section]? = nil,
        attention: [UInt32]? = nil, device: DeviceClass? = nil, widthDevice: DeviceClass? = nil,
        source: String? = nil
    ) {
        self.article = article
        self.reader = reader
        self.timeMs = timeMs
        self.progress = progress
        self.seenDepth = seenDepth
        self.scrollable = scrollable
        self.engagedMs = engagedMs
        self.eventID = eventID
        self.device = device
        self.widthDevice = widthDevice
        if sections != nil || attention != nil || source != nil {
            parts = Parts(sections: sections, attention: attention, source: source)
        }
    }

    /// An event's sections, attention and source, shared between copies until one changes.
    package final class Parts: Sendable, Equatable {
        package let sections: [Section]?
        package let attention: [UInt32]?
        package let source: String?

        package init(sections: [Section]?, attention: [UInt32]?, source: String?) {
            self.sections = sections
            self.attention = attention
            self.source = source
        }

        package static func == (a: Parts, b: Parts) -> Bool {
            a.sections == b.sections && a.attention == b.attention && a.source == b.source
        }
    }

    /// Values of the parts, to change one and store them back (none left: no box).
    private struct PartValues {
        var sections: [Section]?
        var attention: [UInt32]?
        var source: String?
    }

    private mutating func updateParts(_ change: (inout PartValues) -> Void) {
        var values = PartValues(sections: parts?.sections, attention: parts?.attention, source: parts?.source)
        change(&values)
        parts =
            values.sections == nil && values.attention == nil && values.source == nil
            ? nil : Parts(sections: values.sections, attention: values.attention, source: values.source)
    }

    /// Days since 1970-01-01 (UTC) of `timeMs`.
    public var day: Int32 { UTCDay.of(ms: timeMs) }
}
