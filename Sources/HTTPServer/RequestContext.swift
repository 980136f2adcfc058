import CMicroHTTPD
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

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
    // Per-request state is touched only on the connection's libmicrohttpd thread, one callback
    // at a time, so the dynamic exclusivity checks Swift would make on every access buy nothing.
    @exclusivity(unchecked) var stage = Stage.headers
    /// The request as it arrives; `nil` once handed to the responder (moved out, not copied).
    /// Spelled `Optional<…>` so that it has no implicit `nil` to overwrite in `init`, which
    /// would copy the request in and destroy the original.
    @exclusivity(unchecked) private(set) var request: Optional<HTTPRequest>
    /// Whether the request was suspended for its reply (and is in ``ServerCore/pending``);
    /// guarded by `reply`'s lock.
    @exclusivity(unchecked) var isPending = false
    /// Links in ``ServerCore/pending``, guarded by its lock.
    @exclusivity(unchecked) var pendingLinks = PendingList.Links()
    let reply = Mutex(Reply.responding)

    /// The request-target as the URI log callback saw it, where libmicrohttpd keeps the head
    /// until the request is over; its bytes are changed in place (unescaped) after that call.
    @exclusivity(unchecked) private var target = UnsafeRawBufferPointer(start: nil, count: 0)
    /// Whether the target holds whitespace or a control character (RFC 9112 §3.2).
    @exclusivity(unchecked) private var targetIsMalformed = false

    /// `target` is the request-target exactly as received, percent-encoding intact.
    init(connection: OpaquePointer, server: ServerCore, target: UnsafePointer<CChar>?) {
        self.connection = connection
        self.server = server
        guard let target else {
            request = HTTPRequest(path: "/", query: nil)
            return
        }
        let bytes = UnsafeRawBufferPointer(start: target, count: strlen(target))
        request = Self.request(target: bytes)
        self.target = bytes
        targetIsMalformed = bytes.contains { $0 <= 0x20 || $0 == 0x7F }
    }

    /// A request with the path and query of `target`, the rest to be filled in.
    private static func request(target bytes: UnsafeRawBufferPointer) -> HTTPRequest {
        guard let mark = bytes.firstIndex(of: UInt8(ascii: "?")) else {
            return HTTPRequest(path: String(decoding: bytes, as: UTF8.self), query: nil)
        }
        return HTTPRequest(
            path: String(decoding: UnsafeRawBufferPointer(rebasing: bytes[..<mark]), as: UTF8.self),
            query: String(decoding: UnsafeRawBufferPointer(rebasing: bytes[(mark + 1)...]), as: UTF8.self))
    }

    /// What the header block makes of the request.
    enum Head {
        /// Framed unambiguously, with the `Content-Length` the client announced, if any.
        case framed(contentLength: UInt64?)
        /// Refused (``HeadCheck``, ``HeadLayout``): the request is not to be answered otherwise.
        case refused(RequestRefusal)
    }

    /// Fills in everything but the body once the header block is complete, and checks that its
    /// framing is unambiguous.
    func readHead(method: UnsafePointer<CChar>, version: UnsafePointer<CChar>?) -> Head {
        var layoutAtStart = HeadLayout(skipping: method)
        if server.checksHeadLayout, let version {
            let size = cmhd_request_head_size(connection)
            if size > 0 {
                layoutAtStart = HeadLayout(method: method, target: target, version: version, headSize: size)
            }
        }
        var check = HeadCheck()
        var layout = layoutAtStart
        // The fields are copied into a buffer on the stack, then into one allocation of the
        // right size; only a header block larger than the buffer takes a second pass. (Swift
        // puts up to 1 KiB on the stack of a thread it did not start; more goes to the heap.)
        let fields = withUnsafeTemporaryAllocation(byteCount: 1024, alignment: 8) { scratch in
            HeaderFields(scratch: scratch) { writer in
                // A second pass starts over.
                var reader = HeadReader(writer: writer, check: HeadCheck(), layout: layoutAtStart)
                _ = withUnsafeMutablePointer(to: &reader) {
                    MHD_get_connection_values_n(connection, .HEADER_KIND, collectHeader, $0)
                }
                check = reader.check
                layout = reader.layout
                return reader.writer.needed
            }
        }
        let contentLength = fields.contentLength
        request?.method = methodName(method)
        request?.fields = fields
        request?.peer = PeerAddress(cmhd_client_address(connection))
        if targetIsMalformed { return .refused(HeadFlaw(.targetCharacters).refusal) }
        if let flaw = layout.finish() ?? check.finish(isHTTP10: isHTTP10(version)) {
            return .refused(flaw.refusal)
        }
        return .framed(contentLength: contentLength)
    }

    func reserveBody(_ capacity: Int) {
        request?.body.reserveCapacity(capacity)
    }

    /// Appends a chunk of the body, unless that takes it over `limit`: then drops the body and
    /// returns `false`.
    func appendBody(_ chunk: UnsafeRawBufferPointer, limit: Int) -> Bool {
        guard let count = request?.body.count, count + chunk.count <= limit else {
            request?.body = []
            return false
        }
        request?.body.append(contentsOf: chunk)
        return true
    }

    /// Hands the request over to the responder.
    func takeRequest() -> HTTPRequest {
        request.take() ?? HTTPRequest(path: "", query: nil)
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
                server.pending.insert(self)
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

/// What one pass over the header fields fills in.
private struct HeadReader {
    var writer: HeaderFields.Writer
    var check: HeadCheck
    var layout: HeadLayout
}

private let collectHeader: MHD_KeyValueIteratorN = { reader, _, name, nameSize, value, valueSize in
    guard let reader = reader?.assumingMemoryBound(to: HeadReader.self) else { return .NO }
    let name = UnsafeRawBufferPointer(start: name, count: name == nil ? 0 : nameSize)
    let value = UnsafeRawBufferPointer(start: value, count: value == nil ? 0 : valueSize)
    reader.pointee.writer.append(name: name, value: value)
    reader.pointee.check.inspect(name: name, value: value)
    reader.pointee.layout.field(name: name, value: value)
    return .YES
}

/// Whether `version` (libmicrohttpd has checked it is `HTTP/d.d`) is HTTP/1.0.
private func isHTTP10(_ version: UnsafePointer<CChar>?) -> Bool {
    guard let version else { return false }
    return matches(UnsafeRawPointer(version).assumingMemoryBound(to: UInt8.self), "HTTP/1.0")
}

/// The method as a string; the common ones are literals, which costs no decoding.
private func methodName(_ method: UnsafePointer<CChar>) -> String {
    let bytes = UnsafeRawPointer(method).assumingMemoryBound(to: UInt8.self)
    if matches(bytes, "POST") { return "POST" }
    if matches(bytes, "GET") { return "GET" }
    if matches(bytes, "HEAD") { return "HEAD" }
    if matches(bytes, "OPTIONS") { return "OPTIONS" }
    return String(cString: method)
}

/// Whether the C string `bytes` is exactly `literal` (which holds no NUL).
private func matches(_ bytes: UnsafePointer<UInt8>, _ literal: StaticString) -> Bool {
    let expected = literal.utf8Start
    for index in 0..<literal.utf8CodeUnitCount where bytes[index] != expected[index] { return false }
    return bytes[literal.utf8CodeUnitCount] == 0
}
