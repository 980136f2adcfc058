extension EventScanner {
    /// Every key the scanner knows: the members of an event, then those of its objects.
    enum Key: Int, CaseIterable {
        case article, reader, axis, contentOffset, contentSize, containerSize, contentInsets, region
        case step, indicator, engagedMs, time, id, sections, attention, device, source
        case x, y, width, height, top, leading, bottom, trailing, start, end, index, total
        case trackLength, thumbLength

        var name: StaticString {
            switch self {
            case .article: "article"
            case .reader: "reader"
            case .axis: "axis"
            case .contentOffset: "contentOffset"
            case .contentSize: "contentSize"
            case .containerSize: "containerSize"
            case .contentInsets: "contentInsets"
            case .region: "region"
            case .step: "step"
            case .indicator: "indicator"
            case .engagedMs: "engagedMs"
            case .time: "time"
            case .id: "id"
            case .sections: "sections"
            case .attention: "attention"
            case .device: "device"
            case .source: "source"
            case .x: "x"
            case .y: "y"
            case .width: "width"
            case .height: "height"
            case .top: "top"
            case .leading: "leading"
            case .bottom: "bottom"
            case .trailing: "trailing"
            case .start: "start"
            case .end: "end"
            case .index: "index"
            case .total: "total"
            case .trackLength: "trackLength"
            case .thumbLength: "thumbLength"
            }
        }

        /// One bit per key, for finding a key given twice in one object.
        var bit: UInt32 { 1 << UInt32(rawValue) }

        /// The patterns of all keys, by `rawValue`: built once and kept for the life of the
        /// process, and read through a plain pointer, so that a scan costs no reference counting.
        /// Never written after it is built, so safe to share between threads.
        nonisolated(unsafe) static let patterns: UnsafePointer<KeyPattern> = {
            let table = UnsafeMutablePointer<KeyPattern>.allocate(capacity: allCases.count)
            for key in allCases { (table + key.rawValue).initialize(to: KeyPattern(key.name)) }
            return UnsafePointer(table)
        }()
    }

    /// A key's name and closing quote as they lie in a body, packed into two words with masks,
    /// so that a key is recognised with two loads and two comparisons, without a `String`.
    /// Matching the closing quote too means that "article" does not match "articles".
    struct KeyPattern {
        let count: Int
        let low: UInt64
        let lowMask: UInt64
        let high: UInt64
        let highMask: UInt64

        init(_ name: StaticString) {
            precondition(name.utf8CodeUnitCount < 16, "a key pattern holds 15 bytes and a quote")
            var text = [UInt8](repeating: 0, count: 16)
            var mask = [UInt8](repeating: 0, count: 16)
            for offset in 0..<name.utf8CodeUnitCount {
                text[offset] = name.utf8Start[offset]
                mask[offset] = 0xFF
            }
            text[name.utf8CodeUnitCount] = UInt8(ascii: "\"")
            mask[name.utf8CodeUnitCount] = 0xFF
            count = name.utf8CodeUnitCount + 1
            // Loaded the way a body is, so that the byte order is whatever the machine's is.
            func word(_ bytes: [UInt8], _ offset: Int) -> UInt64 {
                bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: UInt64.self) }
            }
            low = word(text, 0)
            lowMask = word(mask, 0)
            high = word(text, 8)
            highMask = word(mask, 8)
        }
    }

    /// Whether the key that starts at `index` (just past its opening quote) is `key`, and if so
    /// steps past its closing quote.
    @inline(__always)
    mutating func matchKey(_ key: Key) -> Bool {
        let pattern = patterns[key.rawValue]
        if bytes.count - index >= 16 {
            let start = UnsafeRawPointer(bytes.baseAddress! + index)
            guard start.loadUnaligned(as: UInt64.self) & pattern.lowMask == pattern.low,
                start.loadUnaligned(fromByteOffset: 8, as: UInt64.self) & pattern.highMask == pattern.high
            else { return false }
        } else {
            // Near the end of the body, where a 16-byte load would read past it.
            guard bytes.count - index >= pattern.count else { return false }
            let name = key.name.utf8Start
            for offset in 0..<(pattern.count - 1) where bytes[index + offset] != name[offset] { return false }
            guard bytes[index + pattern.count - 1] == UInt8(ascii: "\"") else { return false }
        }
        index += pattern.count
        return true
    }
}
