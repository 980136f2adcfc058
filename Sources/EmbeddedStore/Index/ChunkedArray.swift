import CPrefetch
import ProgressStore

/// An array kept in chunks of ``chunkSize`` elements, each a copy-on-write `Array`.
///
/// Two reasons over one flat `Array`. A snapshot taken for a long read shares the chunks, and
/// the writer's next change then copies one chunk (at most 32 KiB) instead of the article's
/// whole column, so snapshots never stall the writer for long. And a column grows one chunk at
/// a time: no doubling that leaves the old buffer behind in the heap and up to half the new one
/// unused. Only a first chunk grows by doubling, so that the many small articles stay small.
struct ChunkedArray<Element: BitwiseCopyable> {
    static var chunkShift: Int { 10 }
    static var chunkSize: Int { 1 << chunkShift }
    private static var chunkMask: Int { chunkSize - 1 }

    private(set) var chunks: [[Element]] = []
    private(set) var count = 0

    init() {}

    /// `count` copies of `element`.
    init(repeating element: Element, count: Int) {
        self.init(count: count) { _, chunk in chunk.initialize(repeating: element) }
    }

    /// `count` elements that `fill` writes a chunk at a time: it must initialize all of the
    /// chunk it is given (which starts at element `start`), or throw.
    init<Failure>(
        count: Int,
        _ fill: (_ start: Int, _ chunk: UnsafeMutableBufferPointer<Element>) throws(Failure) -> Void
    ) throws(Failure) {
        chunks.reserveCapacity((count + Self.chunkMask) >> Self.chunkShift)
        var start = 0
        while start < count {
            let size = min(Self.chunkSize, count - start)
            var failure: Failure?
            chunks.append(
                [Element](unsafeUninitializedCapacity: size) { buffer, initialized in
                    do throws(Failure) {
                        try fill(start, buffer)
                        initialized = size
                    } catch {
                        failure = error
                        initialized = 0
                    }
                })
            if let failure { throw failure }
            start += size
        }
        self.count = count
    }

    var isEmpty: Bool { count == 0 }

    subscript(index: Int) -> Element {
        get { chunks[index &>> Self.chunkShift][index & Self.chunkMask] }
        set { chunks[index &>> Self.chunkShift][index & Self.chunkMask] = newValue }
    }

    /// Starts bringing element `index` into the cache, for a read or write soon after.
    @inline(__always) func prefetch(_ index: Int) {
        cprefetch_for_write(
            chunks[index &>> Self.chunkShift], (index & Self.chunkMask) * MemoryLayout<Element>.stride)
    }

    mutating func append(_ element: Element) {
        if count == chunks.count << Self.chunkShift {
            chunks.append([])
        }
        let last = chunks.count - 1
        if chunks[last].count == chunks[last].capacity {
            // Only an article's first chunk doubles; any later one is allocated whole, once.
            let capacity = last == 0 ? max(4, 2 * chunks[last].capacity) : Self.chunkSize
            chunks[last].reserveCapacity(min(capacity, Self.chunkSize))
        }
        chunks[last].append(element)
        count += 1
    }

    /// Bytes allocated, counting capacity.
    var footprint: Int {
        chunks.reduce(chunks.capacity * MemoryLayout<[Element]>.stride) {
            $0 + $1.capacity * MemoryLayout<Element>.stride
        }
    }

    /// Calls `body` with each chunk in order and the index of its first element.
    func forEachChunk<Failure>(
        _ body: (_ start: Int, _ chunk: UnsafeBufferPointer<Element>) throws(Failure) -> Void
    ) throws(Failure) {
        for (number, chunk) in chunks.enumerated() {
            var failure: Failure?
            chunk.withUnsafeBufferPointer { buffer in
                do throws(Failure) { try body(number << Self.chunkShift, buffer) } catch { failure = error }
            }
            if let failure { throw failure }
        }
    }
}

extension ChunkedArray: Sendable where Element: Sendable {}
