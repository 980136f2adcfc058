import ProgressCore
import ProgressStore

/// What one reader-day's events say of its segment (docs/api.md, "Segments"), in 10 bytes beside
/// its ``DayRecord``: ``DaySegment`` with its times as milliseconds within the day, and its
/// source as an id of the store's ``SourceTable``.
///
/// A device named on any event beats every width, so a record keeps one device time: the named
/// class's when one was named, else the width's. `device` holds, in bits 0–26, that time
/// (``noTime`` while no event said anything of the device), in bit 27 whether the class was
/// named, in bits 28–29 the class (``DeviceClass/allCases`` order), and in bits 30–56 the time of
/// the source. `source` is the source's id; with ``noTime`` it is ``SourceTable/direct``. Folding
/// keeps the earliest time of each field, the earlier arrival on a tie: exactly the segment
/// ``DaySegment/resolved`` gives. Five 16-bit words, so that a column of them has a stride of 10.
struct SegmentRecord: Equatable, BitwiseCopyable {
    private var w0: UInt16
    private var w1: UInt16
    private var w2: UInt16
    private var w3: UInt16
    /// The source's id in the store's ``SourceTable``.
    private(set) var source: UInt16

    /// A time within the day that no event has (a day has fewer than 2²⁷ − 1 ms).
    static let noTime: UInt64 = (1 << 27) - 1
    private static let namedBit: UInt64 = 1 << 27
    private static let classShift: UInt64 = 28
    private static let sourceShift: UInt64 = 30

    /// A day of which nothing is known: device ``DeviceClass/other``, source `(direct)` — the
    /// segment of a reader-day of an older snapshot, which kept none.
    static let unknown = SegmentRecord(bits: noTime | noTime << sourceShift, source: SourceTable.direct)

    private init(bits: UInt64, source: UInt16) {
        w0 = UInt16(truncatingIfNeeded: bits)
        w1 = UInt16(truncatingIfNeeded: bits >> 16)
        w2 = UInt16(truncatingIfNeeded: bits >> 32)
        w3 = UInt16(truncatingIfNeeded: bits >> 48)
        self.source = source
    }

    /// The record of one event at `offset` ms within its day, which named `device` or, on a
    /// vertical axis, had a container of class `widthDevice`, and named the source of id
    /// `source` (`nil`: it named none).
    init(offset: Int64, device: DeviceClass?, widthDevice: DeviceClass?, source: UInt16?) {
        let time = UInt64(offset)
        var bits = Self.unknown.bits
        if let device {
            bits = time | Self.namedBit | UInt64(device.number) << Self.classShift
        } else if let widthDevice {
            bits = time | UInt64(widthDevice.number) << Self.classShift
        }
        bits =
            bits & ~(Self.noTime << Self.sourceShift)
            | (source == nil ? Self.noTime : time) << Self.sourceShift
        self.init(bits: bits, source: source ?? SourceTable.direct)
    }

    /// The record as it is written in a snapshot, and back: the 64 bits, then the source id.
    var bits: UInt64 { UInt64(w0) | UInt64(w1) << 16 | UInt64(w2) << 32 | UInt64(w3) << 48 }

    /// A record from ``bits`` and ``source``, or `nil` when they cannot be a record's.
    init?(validating bits: UInt64, source: UInt16) {
        let deviceTime = bits & Self.noTime
        let sourceTime = bits >> Self.sourceShift & Self.noTime
        guard bits >> 57 == 0, deviceTime == Self.noTime || deviceTime < UTCDay.milliseconds,
            sourceTime == Self.noTime || sourceTime < UTCDay.milliseconds,
            sourceTime != Self.noTime || source == SourceTable.direct,
            deviceTime != Self.noTime || bits & (Self.namedBit | 3 << Self.classShift) == 0
        else { return nil }
        self.init(bits: bits, source: source)
    }

    private var deviceTime: UInt64 { bits & Self.noTime }
    private var isNamed: Bool { bits & Self.namedBit != 0 }
    private var sourceTime: UInt64 { bits >> Self.sourceShift & Self.noTime }

    /// The day's device class: named, else its width's, else ``DeviceClass/other``.
    var device: DeviceClass {
        deviceTime == Self.noTime ? .other : DeviceClass.numbered(Int(bits >> Self.classShift & 3))
    }

    /// Folds in `other`, of the same reader-day: a named class beats a width's, then the earlier
    /// time; the earlier source time; on a tie what was there stays.
    mutating func fold(_ other: SegmentRecord) {
        var bits = self.bits
        let deviceWins =
            other.deviceTime != Self.noTime
            && (deviceTime == Self.noTime || other.isNamed && !isNamed
                || other.isNamed == isNamed && other.deviceTime < deviceTime)
        if deviceWins {
            bits = bits & ~(Self.sourceShift.mask) | other.bits & Self.sourceShift.mask
        }
        var source = self.source
        if other.sourceTime < sourceTime {
            bits = bits & Self.sourceShift.mask | other.bits & ~Self.sourceShift.mask
            source = other.source
        }
        self = SegmentRecord(bits: bits, source: source)
    }
}

extension UInt64 {
    /// The `self` low bits set.
    fileprivate var mask: UInt64 { (1 << self) - 1 }
}

extension DeviceClass {
    /// 0…3, in ``allCases`` order: how a ``SegmentRecord`` keeps the class.
    var number: Int {
        switch self {
        case .phone: 0
        case .tablet: 1
        case .desktop: 2
        case .other: 3
        }
    }

    /// The class of ``number`` `number` (0…3).
    static func numbered(_ number: Int) -> DeviceClass {
        switch number {
        case 0: .phone
        case 1: .tablet
        case 2: .desktop
        default: .other
        }
    }
}
