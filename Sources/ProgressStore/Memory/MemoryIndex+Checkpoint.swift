/// One article as it was at a checkpoint's moment: a copy-on-write snapshot, encoded later,
/// outside every lock.
struct CapturedArticle: @unchecked Sendable {
    let key: ExactKey
    let version: UInt64
    let index: ArticleIndex
}

extension MemoryIndex {
    /// The articles whose version is not the one in `known`, as they are now. Cheap: snapshots
    /// share their columns with the live articles until those change.
    func captureArticles(changedSince known: [ExactKey: UInt64]) -> [CapturedArticle] {
        state.read { state in
            state.articles.compactMap { article in
                let key = ExactKey(article.name)
                return known[key] == article.version
                    ? nil : CapturedArticle(key: key, version: article.version, index: article.snapshot())
            }
        }
    }

    /// Every article's version now.
    func articleVersions() -> [ExactKey: UInt64] {
        state.read { state in
            Dictionary(uniqueKeysWithValues: state.articles.map { (ExactKey($0.name), $0.version) })
        }
    }

    /// An article's records in a self-contained binary form (see ``restoreArticle(_:)``).
    static func encode(_ article: ArticleIndex) -> [UInt8] {
        var writer = CheckpointWriter()
        writer.byte(1)  // layout version
        writer.string(article.name)
        writer.integer(UInt64(article.readerCount))
        for slot in 0..<Int32(article.readerCount) {
            writer.string(article.names.name(at: slot))
            var records: [(Int32, DayFigures)] = [
                (article.firstDays.day[Int(slot)], article.firstDays.figures(at: Int(slot)))
            ]
            var next = article.firstDays.next[Int(slot)]
            while next >= 0 {
                records.append((article.otherDays.day[Int(next)], article.otherDays.figures(at: Int(next))))
                next = article.otherDays.next[Int(next)]
            }
            writer.integer(UInt64(records.count))
            for (day, figures) in records {
                writer.integer(UInt64(UInt32(bitPattern: day)))
                writer.integer(figures.maxProgress.bitPattern)
                writer.integer(figures.maxSeenDepth.bitPattern)
                writer.byte(figures.scrollable ? 1 : 0)
                writer.integer(UInt64(bitPattern: figures.events))
                writer.integer(UInt64(bitPattern: figures.engagedMs))
                writer.integer(UInt64(bitPattern: figures.firstMs))
                writer.integer(UInt64(bitPattern: figures.lastMs))
            }
        }
        return writer.bytes
    }

    /// Folds an article encoded by ``encode(_:)`` into the index. Throws for bytes that are
    /// not such an encoding, having folded nothing.
    func restoreArticle(_ bytes: [UInt8]) throws(StoreError) {
        var reader = CheckpointReader(bytes: bytes)
        guard try reader.byte() == 1 else {
            throw StoreError(code: 0, message: "an article snapshot has an unknown layout")
        }
        let article = try reader.string()
        var rows: [StoredReaderDay] = []
        for _ in 0..<(try reader.count()) {
            let name = try reader.string()
            for _ in 0..<(try reader.count()) {
                let day = Int32(bitPattern: UInt32(truncatingIfNeeded: try reader.integer()))
                let row = StoredReaderDay(
                    article: article, reader: name, day: day,
                    maxProgress: Double(bitPattern: try reader.integer()),
                    maxSeenDepth: Double(bitPattern: try reader.integer()),
                    scrollable: try reader.byte() != 0,
                    events: Int64(bitPattern: try reader.integer()),
                    engagedMs: Int64(bitPattern: try reader.integer()),
                    firstMs: Int64(bitPattern: try reader.integer()),
                    lastMs: Int64(bitPattern: try reader.integer()))
                let start = Int64(day) * 86_400_000
                guard (start..<start + 86_400_000).contains(row.firstMs),
                    (start..<start + 86_400_000).contains(row.lastMs), row.firstMs <= row.lastMs,
                    (0...1).contains(row.maxProgress), (0...1).contains(row.maxSeenDepth)
                else { throw CheckpointReader.damaged }
                rows.append(row)
            }
        }
        guard reader.isAtEnd else { throw CheckpointReader.damaged }
        restore(rows)
    }
}

/// Little-endian varints and length-prefixed strings, for checkpoints.
struct CheckpointWriter {
    var bytes: [UInt8] = []

    mutating func byte(_ value: UInt8) { bytes.append(value) }

    mutating func integer(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    mutating func string(_ value: String) {
        integer(UInt64(value.utf8.count))
        bytes.append(contentsOf: value.utf8)
    }
}

struct CheckpointReader {
    let bytes: [UInt8]
    var offset = 0

    static let damaged = StoreError(code: 0, message: "a checkpoint blob is damaged")

    var isAtEnd: Bool { offset == bytes.count }

    mutating func byte() throws(StoreError) -> UInt8 {
        guard offset < bytes.count else { throw Self.damaged }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func integer() throws(StoreError) -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let byte = try byte()
            guard shift < 64 else { throw Self.damaged }
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
    }

    /// A count that the remaining bytes could hold (each item takes at least one byte).
    mutating func count() throws(StoreError) -> Int {
        let value = try integer()
        guard value <= UInt64(bytes.count - offset) else { throw Self.damaged }
        return Int(value)
    }

    mutating func string() throws(StoreError) -> String {
        let count = try count()
        defer { offset += count }
        return String(decoding: bytes[offset..<offset + count], as: UTF8.self)
    }
}
