import ProgressStore

/// A section map as `rp_sections` holds it: the journal's encoding of one event that carries
/// only the map, so that titles, starts and words come back bit for bit.
enum SectionMap {
    static func encode(_ sections: [Section]) -> [UInt8] {
        EventLogCodec.encode([
            EventRecord(
                article: "-", reader: "-", timeMs: 0, progress: 0, seenDepth: 0, scrollable: false,
                engagedMs: 0,
                sections: sections)
        ])
    }

    static func decode(_ bytes: [UInt8]) throws(StoreError) -> [Section] {
        guard let event = try EventLogCodec.decode(bytes).first, let sections = event.sections else {
            throw StoreError.corrupt("rp_sections holds a map that is not one event with sections")
        }
        return sections
    }
}
