import Foundation
import ProgressStore

/// Decodes the saved articles that start-up reads and inserts them into the index, off the
/// thread that reads them: the many small ones a batch at a time on every core, each article
/// saved in parts (hundreds of megabytes, one core's work for seconds) on a thread of its own,
/// which the small ones' batches overlap.
///
/// One thread calls ``add(_:)``, ``run(_:)`` and ``insert(_:)``, then ``finish()`` (or
/// ``abandon()``). Articles join the index in no particular order: nothing depends on it (every
/// listing breaks ties by the article id).
final class ArticleLoading: @unchecked Sendable {
    private let index: MemoryIndex
    /// The first error any thread met.
    private let failure = Locked<StoreError?>(nil)
    /// Every batch and thread under way.
    private let underWay = DispatchGroup()
    /// Batches held at once (read and not inserted yet): two, so that one is read while one decodes.
    private let batchSlots = DispatchSemaphore(value: 2)

    init(into index: MemoryIndex) {
        self.index = index
    }

    /// Decodes `blobs`, articles' bytes, on every core and inserts them, while the caller goes on
    /// (it waits here while two batches are under way already).
    func add(_ blobs: [[UInt8]]) throws(StoreError) {
        batchSlots.wait()
        // Every slot taken is given back: libdispatch traps on a semaphore freed below its start.
        if let error = failure.current {
            batchSlots.signal()
            throw error
        }
        underWay.enter()
        DispatchQueue.global().async { [self] in
            defer {
                batchSlots.signal()
                underWay.leave()
            }
            let decoded = Locked([DecodedArticle?](repeating: nil, count: blobs.count))
            DispatchQueue.concurrentPerform(iterations: blobs.count) { item in
                let result = blobs[item].withUnsafeBytes { raw in
                    Result { () throws(StoreError) in try MemoryIndex.decodeArticle(raw) }
                }
                switch result {
                case .success(let article): decoded.withLock { $0[item] = article }
                case .failure(let error): note(error)
                }
            }
            guard failure.current == nil else { return }
            note { () throws(StoreError) in try index.insert(decoded.current.map { $0! }) }
        }
    }

    /// Runs `body` on a thread of its own; ``finish()`` waits for it and throws what it threw.
    func run(_ body: @escaping @Sendable () throws(StoreError) -> Void) {
        underWay.enter()
        let thread = Thread { [self] in
            note(body)
            underWay.leave()
        }
        thread.name = "EmbeddedStore large article restore"
        thread.start()
    }

    /// Decodes `bytes`, one article's, and inserts it, on the calling thread (from ``run(_:)``'s).
    func insert(_ bytes: [UInt8]) throws(StoreError) {
        try bytes.withUnsafeBytes { raw in Result { () throws(StoreError) in try index.restoreArticle(raw) } }
            .get()
    }

    /// Waits for every article given to be inserted; throws the first error met, by any thread.
    func finish() throws(StoreError) {
        underWay.wait()
        try rethrowFailure()
    }

    /// Waits for every batch and thread to end (after an error on the reading thread).
    func abandon() {
        underWay.wait()
    }

    private func note(_ body: () throws(StoreError) -> Void) {
        do throws(StoreError) { try body() } catch { note(error) }
    }

    private func note(_ error: StoreError) {
        failure.withLock { $0 = $0 ?? error }
    }

    private func rethrowFailure() throws(StoreError) {
        if let error = failure.current { throw error }
    }
}
