import Synchronization

/// The requests suspended to wait for their reply, so that ``HTTPServer/stop()`` can find them.
///
/// Every ingest request is suspended until its commit, so this is on the request path: an
/// intrusive doubly linked list under one lock makes joining and leaving it a few pointer
/// writes, with no hashing and no allocation. A request in the list is alive: libmicrohttpd
/// holds it until the request-completed callback, which takes it out first.
final class PendingList: Sendable {
    /// A request's neighbours in the list, guarded by the list's lock.
    struct Links {
        var previous: Unmanaged<RequestContext>?
        var next: Unmanaged<RequestContext>?
    }

    private let head = Mutex<Unmanaged<RequestContext>?>(nil)

    func insert(_ context: RequestContext) {
        head.withLock { head in
            let node = Unmanaged.passUnretained(context)
            context.pendingLinks = Links(previous: nil, next: head)
            head?.takeUnretainedValue().pendingLinks.previous = node
            head = node
        }
    }

    func remove(_ context: RequestContext) {
        head.withLock { head in
            let links = context.pendingLinks
            if let previous = links.previous {
                previous.takeUnretainedValue().pendingLinks.next = links.next
            } else if head?.toOpaque() == Unmanaged.passUnretained(context).toOpaque() {
                head = links.next
            }
            links.next?.takeUnretainedValue().pendingLinks.previous = links.previous
            context.pendingLinks = Links()
        }
    }

    var isEmpty: Bool {
        head.withLock { $0 == nil }
    }

    /// Every request in the list, each retained for the caller.
    func all() -> [RequestContext] {
        head.withLock { head in
            var contexts: [RequestContext] = []
            var node = head
            while let current = node?.takeUnretainedValue() {
                contexts.append(current)
                node = current.pendingLinks.next
            }
            return contexts
        }
    }
}
