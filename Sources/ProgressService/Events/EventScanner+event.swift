import ProgressCore
import ProgressStore

extension EventScanner {
    /// An event object, by `EventDecoder`'s rules, member by member.
    mutating func event() throws(Unusual) -> DecodedEvent {
        try expect(UInt8(ascii: "{"))
        // `JSONParser` refuses an object with a key given twice, so the scanner must notice one.
        var seen: UInt32 = 0
        var article: String?
        var reader: String?
        var axis = ScrollAxis.vertical
        var contentOffset: Point?
        var contentSize: Size?
        var containerSize: Size?
        var contentInsets = Insets.zero
        var region: Region?
        var step: Step?
        var indicator: Indicator?
        var engagedMs: Int64 = 0
        var timeMs: Int64?
        var id: String?
        var attention: [UInt32]?
        var device: DeviceClass?
        var source: String?
        var unknown = UnknownNames()
        repeat {
            try startKey()
            guard let member = try member() else {
                try skipUnknownMember(seen: &unknown)
                continue
            }
            guard seen & member.bit == 0 else { throw Unusual() }
            seen |= member.bit
            try endKey()
            // `null` is absence for the optional members, and an error for the required ones.
            switch member {
            case .article: article = try articleID()
            case .reader:
                // Optional, `null` for absent; `/v1/progress` ignores it.
                if requireIdentity {
                    if !skipNull() { reader = try string(maxBytes: EventDecoder.readerMaxBytes) }
                } else {
                    _ = try identity(maxBytes: EventDecoder.readerMaxBytes)
                }
            case .axis:
                if !skipNull() { axis = try self.axis() }
            case .contentOffset:
                let (x, y) = try pair(.x, .y)
                contentOffset = Point(x: x, y: y)
            case .contentSize:
                let (width, height) = try pair(.width, .height)
                contentSize = Size(width: width, height: height)
            case .containerSize:
                let (width, height) = try pair(.width, .height)
                containerSize = Size(width: width, height: height)
            case .contentInsets:
                if !skipNull() { contentInsets = try insets() }
            case .region:
                if !skipNull() {
                    let (start, end) = try pair(.start, .end)
                    region = Region(start: start, end: end)
                }
            case .step:
                if !skipNull() { step = try self.step() }
            case .indicator:
                if !skipNull() {
                    let (track, thumb) = try pair(.trackLength, .thumbLength)
                    indicator = Indicator(trackLength: track, thumbLength: thumb)
                }
            case .engagedMs:
                if !skipNull() { engagedMs = try integer(in: 0...EventDecoder.engagedMsMax) }
            case .time:
                if !skipNull() { timeMs = try time() }
            case .id:
                if !skipNull() { id = try string(maxBytes: EventDecoder.idMaxBytes) }
            case .sections:
                // Sent with the first event of a view only: the tree path reads and words them.
                guard skipNull() else { throw Unusual() }
            case .attention:
                if !skipNull() { attention = try bands() }
            case .device:
                if !skipNull() { device = try self.device() }
            case .source:
                if !skipNull() {
                    source = ReaderSource.normalised(try string(maxBytes: ReaderSource.maximumBytes))
                }
            default:
                throw Unusual()  // `member()` returns none of the others
            }
        } while try nextElement(closing: UInt8(ascii: "}"))

        guard let contentOffset, let contentSize, let containerSize else { throw Unusual() }
        if requireIdentity, article == nil { throw Unusual() }
        let geometry = ScrollSnapshot(
            axis: axis, contentOffset: contentOffset, contentSize: contentSize,
            containerSize: containerSize, contentInsets: contentInsets, region: region, step: step,
            indicator: indicator)
        do {
            try geometry.validate()
        } catch {
            throw Unusual()
        }
        // Each band within the event's engaged time, which may have come after them.
        if let attention, attention.contains(where: { Int64($0) > engagedMs }) { throw Unusual() }
        return DecodedEvent(
            article: article ?? "", reader: reader, geometry: geometry, engagedMs: engagedMs,
            timeMs: timeMs, id: id, attention: attention, device: device, source: source)
    }

    /// The member whose name starts at `index`, told apart by its first byte; `nil` for a name
    /// an event does not have (docs/api.md), whose member `skipUnknownMember(seen:)` steps over.
    private mutating func member() throws(Unusual) -> Key? {
        switch current {
        case UInt8(ascii: "a"):
            if matchKey(.article) { return .article }
            if matchKey(.axis) { return .axis }
            if matchKey(.attention) { return .attention }
        case UInt8(ascii: "r"):
            if matchKey(.reader) { return .reader }
            if matchKey(.region) { return .region }
        case UInt8(ascii: "c"):
            if matchKey(.contentOffset) { return .contentOffset }
            if matchKey(.contentSize) { return .contentSize }
            if matchKey(.containerSize) { return .containerSize }
            if matchKey(.contentInsets) { return .contentInsets }
        case UInt8(ascii: "d"):
            if matchKey(.device) { return .device }
        case UInt8(ascii: "e"):
            if matchKey(.engagedMs) { return .engagedMs }
        case UInt8(ascii: "i"):
            if matchKey(.id) { return .id }
            if matchKey(.indicator) { return .indicator }
        case UInt8(ascii: "s"):
            if matchKey(.step) { return .step }
            if matchKey(.source) { return .source }
            if matchKey(.sections) { return .sections }
        case UInt8(ascii: "t"):
            if matchKey(.time) { return .time }
        default:
            break
        }
        return nil
    }

    /// `article`, through the batch's `articleNames` when its id is a plain string.
    private mutating func articleID() throws(Unusual) -> String? {
        guard requireIdentity, let articleNames else {
            return try identity(maxBytes: EventDecoder.articleMaxBytes)
        }
        let start = index
        do throws(Unusual) {
            let span = try plainString()
            guard span.count >= 1, span.count <= EventDecoder.articleMaxBytes else { throw Unusual() }
            return articleNames.pointee.name(of: UnsafeBufferPointer(rebasing: bytes[span]))
        } catch {
            index = start
            return try string(maxBytes: EventDecoder.articleMaxBytes)
        }
    }

    /// `article`: a string of 1…max bytes; anything at all when identity is not required (also
    /// for `reader`), which the scanner narrows to a plain string or `null`.
    private mutating func identity(maxBytes: Int) throws(Unusual) -> String? {
        guard requireIdentity else {
            if !skipNull() { _ = try plainString() }
            return nil
        }
        return try string(maxBytes: maxBytes)
    }

    /// `attention`: an array of exactly ``AttentionBands/count`` whole numbers of engaged
    /// milliseconds, which the caller holds to the event's `engagedMs`.
    private mutating func bands() throws(Unusual) -> [UInt32] {
        try expect(UInt8(ascii: "["))
        var bands: [UInt32] = []
        bands.reserveCapacity(AttentionBands.count)
        repeat {
            skipWhitespace()
            guard bands.count < AttentionBands.count else { throw Unusual() }
            bands.append(UInt32(try integer(in: 0...EventDecoder.engagedMsMax)))
        } while try nextElement(closing: UInt8(ascii: "]"))
        guard bands.count == AttentionBands.count else { throw Unusual() }
        return bands
    }

    private mutating func device() throws(Unusual) -> DeviceClass {
        if matchString("phone") { return .phone }
        if matchString("desktop") { return .desktop }
        if matchString("tablet") { return .tablet }
        if matchString("other") { return .other }
        throw Unusual()
    }

    private mutating func axis() throws(Unusual) -> ScrollAxis {
        if matchString("vertical") { return .vertical }
        if matchString("horizontal") { return .horizontal }
        throw Unusual()
    }

    /// An object of exactly two required numbers, in either order, as `(first, second)`.
    private mutating func pair(_ first: Key, _ second: Key) throws(Unusual) -> (Double, Double) {
        try expect(UInt8(ascii: "{"))
        var a: Double?
        var b: Double?
        repeat {
            try startKey()
            if a == nil, matchKey(first) {
                try endKey()
                a = try number()
            } else if b == nil, matchKey(second) {
                try endKey()
                b = try number()
            } else {
                throw Unusual()  // unknown or repeated
            }
        } while try nextElement(closing: UInt8(ascii: "}"))
        guard let a, let b else { throw Unusual() }
        return (a, b)
    }

    /// `{top, leading, bottom, trailing}`, each optional, `null` counting as absent, so 0.
    private mutating func insets() throws(Unusual) -> Insets {
        try expect(UInt8(ascii: "{"))
        var insets = Insets.zero
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            index += 1
            return insets
        }
        var seen: UInt32 = 0
        repeat {
            try startKey()
            let edge: Key
            if matchKey(.top) {
                edge = .top
            } else if matchKey(.bottom) {
                edge = .bottom
            } else if matchKey(.leading) {
                edge = .leading
            } else if matchKey(.trailing) {
                edge = .trailing
            } else {
                throw Unusual()
            }
            guard seen & edge.bit == 0 else { throw Unusual() }
            seen |= edge.bit
            try endKey()
            if !skipNull() {
                let value = try number()
                switch edge {
                case .top: insets.top = value
                case .bottom: insets.bottom = value
                case .leading: insets.leading = value
                default: insets.trailing = value
                }
            }
        } while try nextElement(closing: UInt8(ascii: "}"))
        return insets
    }

    /// `{index, total}`: whole numbers within Int32, which `validate()` then checks further.
    private mutating func step() throws(Unusual) -> Step {
        let (page, count) = try pair(.index, .total)
        let range = Int64(Int32.min)...Int64(Int32.max)
        guard let page = EventDecoder.wholeNumber(page), range.contains(page),
            let count = EventDecoder.wholeNumber(count), range.contains(count)
        else { throw Unusual() }
        return Step(index: Int(page), total: Int(count))
    }

    /// An RFC 3339 string or whole epoch milliseconds, by `EventTime.parse`'s rules.
    private mutating func time() throws(Unusual) -> Int64 {
        if current == UInt8(ascii: "\"") {
            let text = try plainString()
            guard let ms = EventTime.parseRFC3339(UnsafeBufferPointer(rebasing: bytes[text])) else {
                throw Unusual()
            }
            return ms
        }
        guard let ms = EventTime.epochMilliseconds(try number()) else { throw Unusual() }
        return ms
    }
}
