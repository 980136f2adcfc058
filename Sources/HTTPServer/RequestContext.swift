import CMicroHTTPD
import Synchronization

/// One request from its request line to its completion: libmicrohttpd's `*con_cls`.
///
/// Created (retained) in the URI log callback, which is the only place that sees the raw
/// request-target, and released in the request-completed callback.
final class RequestContext: @unchecked Sendable {
    /// How far the request has got; touched only on the connection's libmicrohttpd thread,
    /// which never runs two callbacks for one connection at once.
    enum Stage {
        case headers
        case body
        case overLimit(discarded: Int)
        case dispatched
        case answered
    }

    /// Where the reply is; shared with whichever thread calls `reply`.
    enum Reply {
        /// The responder is running on the libmicrohttpd thread and has not replied yet.
        case responding
        /// The connection is suspended, waiting for the reply.
        case suspended
        /// The reply arrived and waits to be queued on the libmicrohttpd thread.
        case ready(HTTPResponse)
        /// The reply was queued, or the connection is gone.
        case finished
    }

    let connection: OpaquePointer
    let server: ServerCore
    /// The request-target exactly as received, percent-encoding intact.
    let target: String
    var stage = Stage.headers
    var request = HTTPRequest(method: "", path: "")
    /// Whether the request was suspended for its reply (and is in ``ServerCore/pending``).
    var isPending = false
    let reply = Mutex(Reply.responding)

    init(connection: OpaquePointer, server: ServerCore, target: String) {
        self.connection = connection
        self.server = server
        self.target = target
    }

    /// Fills in everything but the body once the header block is complete.
    func readHead(method: UnsafePointer<CChar>) {
        request.method = String(cString: method)
        let path = target.utf8.firstIndex(of: UInt8(ascii: "?")).map { target[..<$0] }
        if let path {
            request.path = String(path)
            request.query = String(target[target.utf8.index(after: path.endIndex)...])
        } else {
            request.path = target
        }
        let count = MHD_get_connection_values_n(connection, .HEADER_KIND, nil, nil)
        request.headers.reserveCapacity(Int(max(0, count)))
        let me = Unmanaged.passUnretained(self).toOpaque()
        _ = MHD_get_connection_values_n(connection, .HEADER_KIND, collectHeader, me)
        request.remoteAddress = describe(cmhd_client_address(connection))
    }

    /// Stores the responder's answer, waking the connection if it is already suspended.
    /// Safe on any thread; answers after the first are dropped.
    func deliver(_ response: HTTPResponse) {
        let mustResume = reply.withLock { state in
            switch state {
            case .responding:
                state = .ready(response)
                return false
            case .suspended:
                state = .ready(response)
                return true
            case .ready, .finished:
                return false
            }
        }
        if mustResume { server.resume(connection) }
    }

    /// Takes the reply if it is there; otherwise suspends the connection until it comes.
    ///
    /// Suspending under the lock closes the race with `deliver` on another thread: it either
    /// sees `.responding` (we will find the reply here) or `.suspended` (the connection is
    /// already suspended, so its resume is not lost).
    func takeReplyOrSuspend() -> HTTPResponse? {
        reply.withLock { state in
            if case .ready(let response) = state {
                state = .finished
                return response
            }
            state = .suspended
            if !isPending {
                isPending = true
                server.register(self)
            }
            MHD_suspend_connection(connection)
            return nil
        }
    }

    /// Marks the connection gone, so that a late reply is dropped.
    func finish() {
        reply.withLock { $0 = .finished }
    }
}

private let collectHeader: MHD_KeyValueIteratorN = { context, _, name, nameSize, value, valueSize in
    guard let context else { return .NO }
    let request = Unmanaged<RequestContext>.fromOpaque(context).takeUnretainedValue()
    request.request.headers.append(
        (name: text(name, nameSize), value: text(value, valueSize)))
    return .YES
}

private func text(_ bytes: UnsafePointer<CChar>?, _ count: Int) -> String {
    String(decoding: UnsafeRawBufferPointer(start: bytes, count: bytes == nil ? 0 : count), as: UTF8.self)
}
