/// The class of device a reader reads on, for comparing segments of readers (docs/api.md,
/// "Segments").
public enum DeviceClass: String, Codable, Sendable, Hashable, CaseIterable {
    case phone, tablet, desktop, other

    /// The class of a vertical scroll view `width` CSS pixels (or points) wide: phones below
    /// 600, tablets below 1024, desktops from 1024.
    public init(containerWidth width: Double) {
        self = width < 600 ? .phone : width < 1024 ? .tablet : .desktop
    }
}

/// The bounds of what an event may say of its article and its reader beyond the geometry
/// (docs/api.md, "Sections and attention" and "Segments"), one set for the service and clients.
public enum EventPartLimits {
    /// At most this many sections in one map.
    public static let sections = 64
    /// A section's title, in UTF-8 bytes.
    public static let titleBytes = 200
    /// The words one section may count.
    public static let words = 1_000_000
    /// A source, in UTF-8 bytes.
    public static let sourceBytes = 100
}
