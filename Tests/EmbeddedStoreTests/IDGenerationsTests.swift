import ProgressStore
import Testing

@testable import EmbeddedStore

/// The writer's ids in two generations: each remembered at least one generation and at most two,
/// and an erasure forgetting exactly the ids acknowledged before it.
@Suite("Recent ids in generations")
struct IDGenerationsTests {
    static let generation: Int64 = 1_000

    /// Claims `event`'s id at the generations' current time: true when it counts.
    static func counts(_ event: EventRecord, in ids: inout IDGenerations) -> Bool {
        event.withDeduplicationKey { ids.claim($0, of: event) != nil } ?? true
    }

    @Test("an id is a repeat while younger than a generation and new once two generations old")
    func bounds() {
        let start: Int64 = 50_000
        // Acknowledged at the first instant of a generation, in its middle, at its last.
        for offset in [0, 1, Self.generation / 2, Self.generation - 1] {
            var ids = IDGenerations(generationMs: Self.generation, nowMs: start)
            let acknowledged = start + offset
            ids.advance(to: acknowledged)
            let first = event(id: "e")
            #expect(Self.counts(first, in: &ids))
            for age in [0, 1, Self.generation / 2, Self.generation - 1] {
                ids.advance(to: acknowledged + age)
                #expect(!Self.counts(first, in: &ids), "acknowledged at +\(offset), a repeat at age \(age)")
            }
            ids.advance(to: acknowledged + 2 * Self.generation)
            #expect(ids.count == 0)
            #expect(Self.counts(first, in: &ids), "acknowledged at +\(offset), new at two generations")
        }
    }

    @Test("after a pause of two generations or more, nothing is remembered")
    func longPause() {
        var ids = IDGenerations(generationMs: Self.generation, nowMs: 0)
        #expect(Self.counts(event(id: "a"), in: &ids))
        ids.advance(to: Self.generation + 10)
        #expect(Self.counts(event(id: "b"), in: &ids))
        // The generations stay on their grid: "b" came in the one that began at 1000.
        ids.advance(to: 5 * Self.generation + 999)
        #expect(ids.currentBeganMs == 5 * Self.generation)
        #expect(ids.count == 0)
        #expect(Self.counts(event(id: "a"), in: &ids) && Self.counts(event(id: "b"), in: &ids))
    }

    @Test("an erasure makes its pairs' earlier ids new, in either generation, and only those")
    func erasure() {
        var ids = IDGenerations(generationMs: Self.generation, nowMs: 0)
        let older = event("/a", "erased", id: "older")
        let kept = event("/a", "kept", id: "older")
        #expect(Self.counts(older, in: &ids) && Self.counts(kept, in: &ids))
        ids.advance(to: Self.generation + 1)  // both in the previous generation now
        let before = event("/b", "erased", id: "before")
        #expect(Self.counts(before, in: &ids))
        ids.erase(.reader("erased"))
        let after = event("/b", "erased", id: "after")
        #expect(Self.counts(after, in: &ids))
        #expect(!Self.counts(after, in: &ids), "an id acknowledged after the erasure is remembered")
        #expect(!Self.counts(kept, in: &ids), "another reader's id is not touched")
        #expect(Self.counts(older, in: &ids) && Self.counts(before, in: &ids))
        #expect(!Self.counts(older, in: &ids) && !Self.counts(before, in: &ids))
        // A second erasure, of an article, takes the pair's ids since the first too.
        ids.erase(.article("/b"))
        #expect(Self.counts(after, in: &ids) && Self.counts(before, in: &ids))
        #expect(!Self.counts(older, in: &ids), "the second erasure does not take /a")
        // Into the next generation, the erasures still hold, and what came after them too.
        ids.advance(to: 2 * Self.generation + 1)
        #expect(!Self.counts(after, in: &ids) && !Self.counts(older, in: &ids))
        ids.erase(.reader("erased"))
        #expect(Self.counts(after, in: &ids) && Self.counts(older, in: &ids))
        #expect(!Self.counts(after, in: &ids))
        #expect(Self.counts(kept, in: &ids), "acknowledged two generations ago")
    }

    @Test("claims given back leave the ids as they were")
    func giveBack() {
        var ids = IDGenerations(generationMs: Self.generation, nowMs: 0)
        let events = (0..<200).map { event("/a", "r\($0 % 3)", id: "e\($0)") }
        for event in events.prefix(100) { #expect(Self.counts(event, in: &ids)) }
        ids.advance(to: Self.generation)
        for event in events.suffix(50) { #expect(Self.counts(event, in: &ids)) }
        var claims: [IDDigest] = []
        for event in events {
            if let digest = event.withDeduplicationKey({ ids.claim($0, of: event) }) ?? nil {
                claims.append(digest)
            }
        }
        #expect(claims.count == 50)
        for digest in claims.shuffled() { ids.giveBack(digest) }
        #expect(ids.count == 150)
        for event in events.prefix(100) { #expect(!Self.counts(event, in: &ids)) }
        for event in events[100..<150] { #expect(Self.counts(event, in: &ids)) }
    }

    /// What must happen to a claim, by the record of one key: when it last counted, at which
    /// step, and the steps of the erasures since.
    @Test("random claims, erasures, failed writes and clock steps keep every promise")
    func randomized() {
        var random = SplitMix(state: 41)
        let articles = ["/a", "/b", "/c"]
        let readers = ["r1", "r2", "r3"]
        var ids = IDGenerations(generationMs: Self.generation, nowMs: 0)
        var now: Int64 = 0
        // Per key: when and at which step it last counted.
        var counted: [String: (ms: Int64, step: Int)] = [:]
        var erasures: [(erasure: Erasure, step: Int)] = []
        var checked = (repeats: 0, new: 0)
        for step in 0..<40_000 {
            let article = articles.randomElement(using: &random)!
            let reader = readers.randomElement(using: &random)!
            let record = event(article, reader, id: "e\(Int.random(in: 0..<30, using: &random))")
            let key = record.deduplicationKey!
            switch Int.random(in: 0..<100, using: &random) {
            case 0..<8:
                now += Int64.random(in: 0...(Self.generation / 4), using: &random)
                ids.advance(to: now)
            case 8:
                let erasure: Erasure = Bool.random(using: &random) ? .reader(reader) : .article(article)
                ids.erase(erasure)
                erasures.append((erasure, step))
            case 9..<12:
                // A failed write: its claims go back, and nothing changes.
                var claims: [IDDigest] = []
                for _ in 0..<5 {
                    let other = event(article, reader, id: "e\(Int.random(in: 0..<30, using: &random))")
                    if let digest = other.withDeduplicationKey({ ids.claim($0, of: other) }) ?? nil {
                        claims.append(digest)
                    }
                }
                for digest in claims { ids.giveBack(digest) }
            default:
                let isNew = Self.counts(record, in: &ids)
                if let last = counted[key] {
                    let erased = erasures.contains {
                        $0.step > last.step && $0.erasure.covers(article: article, reader: reader)
                    }
                    let age = now - last.ms
                    if erased || age >= 2 * Self.generation {
                        #expect(isNew, "step \(step): \(key) at age \(age), erased \(erased)")
                        checked.new += 1
                    } else if age < Self.generation {
                        #expect(!isNew, "step \(step): \(key) at age \(age)")
                        checked.repeats += 1
                    }
                } else {
                    #expect(isNew, "step \(step): \(key) never counted")
                }
                if isNew { counted[key] = (now, step) }
            }
        }
        // The run reached every case it checks.
        #expect(checked.repeats > 1_000 && checked.new > 1_000, "\(checked)")
    }
}
