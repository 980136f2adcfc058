/// The geometry of a custom horizontal scroll indicator: a thumb sliding along a track.
///
/// From seed 003, which draws a 90-point grey track with a 40-point blue thumb under a carousel.
/// Requires `trackLength > 0` and `0 ≤ thumbLength ≤ trackLength`.
public struct Indicator: Sendable, Hashable, Codable {
    /// Length of the track the thumb slides along (seed 003's `indicatorBgWidth`).
    public var trackLength: Double
    /// Length of the thumb (seed 003's `indicatorFrontWidth`).
    public var thumbLength: Double

    /// Creates an indicator from its track and thumb lengths.
    public init(trackLength: Double, thumbLength: Double) {
        self.trackLength = trackLength
        self.thumbLength = thumbLength
    }

    /// Seed 003's own indicator, used when a request names none: a 90-point track, a 40-point thumb.
    public static let standard = Indicator(trackLength: 90, thumbLength: 40)
}
