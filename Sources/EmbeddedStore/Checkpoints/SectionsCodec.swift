import ProgressStore

/// An article's ``ArticleSections`` as the two blobs a checkpoint saves (tables `section_maps`
/// and `attention_days`), little-endian:
///
/// - a map: for each section, its start's bits (8 bytes), its words (4, −1 when not sent), the
///   length of its title (1) and the title's UTF-8;
/// - attention: for each day, ascending, the day (4 bytes) and the bands' milliseconds
///   (``AttentionBands/count`` × 8).
///
/// Decoding checks what a later fold or answer relies on and throws ``StoreError/corrupt(_:)``
/// for anything else, never reading outside the blob.
enum SectionsCodec {
    static func encode(map: [Section]) -> [UInt8] {
        var bytes: [UInt8] = []
        for section in map {
            append(section.start.bitPattern, to: &bytes)
            append(UInt32(bitPattern: section.words ?? -1), to: &bytes)
            let title = Array(section.title.utf8)
            bytes.append(UInt8(title.count))
            bytes += title
        }
        return bytes
    }

    static func decodeMap(_ blob: UnsafeRawBufferPointer, article: String) throws(StoreError) -> [Section] {
        var sections: [Section] = []
        var offset = 0
        while offset < blob.count {
            guard blob.count - offset >= 13, sections.count < Section.maximumCount else {
                throw damaged("section map", article)
            }
            let start = Double(
                bitPattern: UInt64(littleEndian: blob.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
            let words = Int32(
                bitPattern: UInt32(
                    littleEndian: blob.loadUnaligned(fromByteOffset: offset + 8, as: UInt32.self)))
            let length = Int(blob[offset + 12])
            offset += 13
            guard blob.count - offset >= length, length > 0, length <= Section.maximumTitleBytes,
                (0..<1).contains(start), sections.last.map({ start > $0.start }) ?? true, words >= -1,
                words <= Section.maximumWords,
                let title = String(
                    validating: UnsafeRawBufferPointer(rebasing: blob[offset..<offset + length]),
                    as: UTF8.self)
            else { throw damaged("section map", article) }
            offset += length
            sections.append(Section(title: title, start: start, words: words < 0 ? nil : words))
        }
        return sections
    }

    /// One day's bytes.
    private static let dayBytes = 4 + AttentionBands.count * 8

    static func encode(days: [Int32], bands: [Int64]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(days.count * dayBytes)
        for (position, day) in days.enumerated() {
            append(UInt32(bitPattern: day), to: &bytes)
            for band in 0..<AttentionBands.count {
                append(UInt64(bitPattern: bands[position * AttentionBands.count + band]), to: &bytes)
            }
        }
        return bytes
    }

    static func decodeAttention(_ blob: UnsafeRawBufferPointer, article: String) throws(StoreError)
        -> (days: [Int32], bands: [Int64])
    {
        guard blob.count % dayBytes == 0 else { throw damaged("attention", article) }
        var days: [Int32] = []
        var bands: [Int64] = []
        for offset in stride(from: 0, to: blob.count, by: dayBytes) {
            let day = Int32(
                bitPattern: UInt32(littleEndian: blob.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
            guard days.last.map({ day > $0 }) ?? true else { throw damaged("attention", article) }
            days.append(day)
            for band in 0..<AttentionBands.count {
                let ms = Int64(
                    bitPattern: UInt64(
                        littleEndian: blob.loadUnaligned(
                            fromByteOffset: offset + 4 + band * 8, as: UInt64.self)))
                guard ms >= 0 else { throw damaged("attention", article) }
                bands.append(ms)
            }
        }
        return (days, bands)
    }

    private static func append<Value: FixedWidthInteger>(_ value: Value, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
    }

    private static func damaged(_ what: String, _ article: String) -> StoreError {
        .corrupt("the saved \(what) of article \(article) is damaged")
    }
}
