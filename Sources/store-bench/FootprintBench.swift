import Dispatch
import EmbeddedStore
import ProgressStore
import Synchronization

/// The index under a production-shaped load (``Workload``): what applying events costs, the
/// memory a pair takes, and how fast articles encode for a checkpoint and restore at start-up,
/// on one thread and on two.
enum FootprintBench {
    static func run(pairs: Int) {
        let workload = Workload(pairs: pairs)
        let label = "index, \(pairs) pairs on 100 articles:"
        trimHeap()
        var before = residentBytes()
        let original = StandaloneIndex()
        var applying = (wall: 0.0, cpu: 0.0)
        var events = 0
        workload.forEachBatch { batch in
            events += batch.count
            let time = timed { original.apply(batch) }
            applying = (applying.wall + time.wall, applying.cpu + time.cpu)
        }
        let applied = residentBytes() - before
        check(original.pairCount == pairs, "\(original.pairCount) pairs held of \(pairs) applied")
        print(
            "\(label) apply \(figure(applying.wall / Double(events) * 1e9)) ns an event "
                + "(CPU \(figure(applying.cpu / Double(events) * 1e9))) over \(events) events; "
                + "\(figure(Double(applied) / Double(pairs))) bytes RSS a pair, "
                + "\(figure(Double(original.footprint) / Double(pairs))) allocated by the index")

        var blobs: [[UInt8]] = []
        let encoding = timed { blobs = original.encodedArticles() }
        let bytes = blobs.reduce(0) { $0 + $1.count }
        print(
            "\(label) encode \(figure(encoding.wall * 1e3)) ms (CPU \(figure(encoding.cpu * 1e3))), "
                + "\(figure(Double(pairs) / encoding.wall / 1e6)) M pairs/s; "
                + "\(figure(Double(bytes) / Double(pairs))) saved bytes a pair")

        let everything = ListingQuery(order: .article, threshold: 0.9, limit: .max)
        let snapshots = blobs
        for threads in [1, 2] {
            trimHeap()
            before = residentBytes()
            let restored = StandaloneIndex()
            let failures = Atomic(0)
            do { try restored.restoreSources(original.sources()) } catch {
                failures.add(1, ordering: .relaxed)
            }
            let restoring = timed {
                // Each thread decodes its share of the articles and inserts each as it is done.
                DispatchQueue.concurrentPerform(iterations: threads) { thread in
                    for index in Swift.stride(from: thread, to: snapshots.count, by: threads) {
                        do { try restored.restoreArticle(snapshots[index]) } catch {
                            failures.add(1, ordering: .relaxed)
                        }
                    }
                }
            }
            let grown = residentBytes() - before
            check(failures.load(ordering: .relaxed) == 0, "articles failed to restore")
            check(restored.listing(everything) == original.listing(everything), "the restored index differs")
            print(
                "\(label) restore on \(threads) thread\(threads > 1 ? "s" : "") "
                    + "\(figure(restoring.wall * 1e3)) ms (CPU \(figure(restoring.cpu * 1e3))), "
                    + "\(figure(Double(pairs) / restoring.wall / 1e6)) M pairs/s "
                    + "(\(figure(Double(pairs) / restoring.cpu / 1e6)) a CPU-second); "
                    + "\(figure(Double(grown) / Double(pairs))) bytes RSS a pair")
        }
    }
}
