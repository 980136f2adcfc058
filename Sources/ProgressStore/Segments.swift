public import ProgressCore

/// Which reader-days a statistic counts (docs/api.md, "Segments"): every one, or those of one
/// device class, one source, or both. A reader belongs to a segment on the days its segment is
/// that one; under a filter, each reader's figures are folded over those days only.
public struct SegmentFilter: Sendable, Hashable {
    public var device: DeviceClass?
    /// A source as the statistics keep it (``ReaderSource/normalised(_:)``), or
    /// ``ReaderSource/direct`` or ``ReaderSource/other``.
    public var source: String?

    public init(device: DeviceClass? = nil, source: String? = nil) {
        self.device = device
        self.source = source
    }

    /// Every reader-day.
    public static let all = SegmentFilter()

    public var isAll: Bool { device == nil && source == nil }

    /// Whether a reader-day of `segment` counts: its source the filter's bytes (docs/api.md, "Fields").
    public func admits(_ segment: ReaderSegment) -> Bool {
        (device.map { $0 == segment.device } ?? true)
            && (source.map { bytesEqual($0, segment.source) } ?? true)
    }
}

/// The segment of one reader-day: its device class and its source, resolved.
public struct ReaderSegment: Sendable, Hashable {
    public var device: DeviceClass
    public var source: String

    public init(device: DeviceClass, source: String) {
        self.device = device
        self.source = source
    }

    /// The name of this reader-day's segment along `dimension`.
    public func name(by dimension: SegmentStatistics.Dimension) -> String {
        dimension == .device ? device.rawValue : source
    }
}

/// What a reader-day's events say of its segment, folded in any order of arrival: the `device`
/// of the earliest event that named one, the class of the earliest vertical event's width, the
/// `source` of the earliest event that named one (docs/api.md, "Segments"). On equal times the
/// earlier arrival stays.
public struct DaySegment: Sendable, Equatable {
    public var device: DeviceClass?
    public var deviceMs: Int64
    public var widthDevice: DeviceClass?
    public var widthMs: Int64
    public var source: String?
    public var sourceMs: Int64

    public init(
        device: DeviceClass? = nil, deviceMs: Int64 = .max, widthDevice: DeviceClass? = nil,
        widthMs: Int64 = .max, source: String? = nil, sourceMs: Int64 = .max
    ) {
        self.device = device
        self.deviceMs = deviceMs
        self.widthDevice = widthDevice
        self.widthMs = widthMs
        self.source = source
        self.sourceMs = sourceMs
    }

    /// The segment of a reader-day of the one event `event`.
    public init(_ event: EventRecord) {
        self.init()
        fold(event)
    }

    /// Folds in `event`, of the same reader-day.
    public mutating func fold(_ event: EventRecord) {
        if let named = event.device, event.timeMs < deviceMs {
            device = named
            deviceMs = event.timeMs
        }
        if let derived = event.widthDevice, event.timeMs < widthMs {
            widthDevice = derived
            widthMs = event.timeMs
        }
        if let named = event.source, event.timeMs < sourceMs {
            source = named
            sourceMs = event.timeMs
        }
    }

    /// The reader-day's segment: the named class, else the width's, else ``DeviceClass/other``;
    /// the named source, else ``ReaderSource/direct``.
    public var resolved: ReaderSegment {
        ReaderSegment(device: device ?? widthDevice ?? .other, source: source ?? ReaderSource.direct)
    }
}

/// One segments question (docs/api.md, "Segments of one article"): the readers of
/// `statistics.article` split `by` device or source, at most `limit` sources by name.
/// `statistics.segment` narrows the readers first (it is ``SegmentFilter/all`` from the route).
public struct SegmentsQuery: Sendable, Hashable {
    public var statistics: StatisticsQuery
    public var by: SegmentStatistics.Dimension
    /// In ``SegmentStatistics/limits``.
    public var limit: Int

    public init(statistics: StatisticsQuery, by: SegmentStatistics.Dimension, limit: Int = 10) {
        self.statistics = statistics
        self.by = by
        self.limit = limit
    }
}
