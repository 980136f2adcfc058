import CMicroHTTPD
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the libmicrohttpd callbacks need: the responder, the limits and the shutdown state.
///
/// The daemon holds it unretained; ``HTTPServer`` keeps it alive until `MHD_stop_daemon` returns.
final class ServerCore: Sendable {
    let responder: any HTTPResponder
    let maxBodyBytes: Int
    /// Requests suspended to wait for their reply, until libmicrohttpd reports them complete.
    /// ``HTTPServer/stop()`` waits for them, and answers the stragglers itself, because
    /// libmicrohttpd forbids `MHD_stop_daemon` while a connection is suspended.
    let pending = PendingList()
    /// Set once stopping: answers then close their connection instead of keeping it alive.
    let draining = Atomic<Bool>(false)
    /// Set when stopping has waited long enough: requests then get ``unavailable`` without
    /// reaching the responder.
    let refusing = Atomic<Bool>(false)
    /// Requests inside ``dispatch(_:)``: between reaching the responder and being either
    /// answered or registered in ``pending``.
    let dispatching = Atomic<Int>(0)
    static let unavailable = HTTPResponse(status: 503, headers: [(name: "Connection", value: "close")])
    let resumeGate = ResumeGate()
    /// Whether the linked libmicrohttpd lays out a request's head as ``HeadLayout`` expects.
    let checksHeadLayout = HeadLayout.isKnown(version: String(cString: MHD_get_version()))

    init(responder: any HTTPResponder, maxBodyBytes: Int) {
        self.responder = responder
        self.maxBodyBytes = maxBodyBytes
    }

    /// The access handler: called when the headers are complete, once per chunk of body, once
    /// when the body is complete, and again after each resume.
    func handle(
        _ context: RequestContext, method: UnsafePointer<CChar>, version: UnsafePointer<CChar>?,
        uploadData: UnsafePointer<CChar>?, uploadSize: UnsafeMutablePointer<Int>
    ) -> MHD_Result {
        let size = uploadSize.pointee
        uploadSize.pointee = 0
        switch context.stage {
        case .headers:
            switch context.readHead(method: method, version: version) {
            case .refused(let refusal):
                return answerRefused(context, refusal)
            case .framed(let contentLength?):
                if contentLength > UInt64(maxBodyBytes) { return answerTooLarge(context) }
                context.reserveBody(Int(contentLength))
            case .framed(nil):
                break
            }
            context.stage = .body
            return .YES
        case .body where size > 0:
            let chunk = UnsafeRawBufferPointer(start: uploadData, count: size)
            guard context.appendBody(chunk, limit: maxBodyBytes) else {
                context.stage = .overLimit(discarded: size)
                return .YES
            }
            return .YES
        case .body:
            return dispatch(context)
        case .overLimit(let discarded) where size > 0:
            // libmicrohttpd 0.9.75 accepts a response only before the body or after all of it,
            // so the rest of an oversized chunked body is read and dropped, up to a bound.
            guard discarded + size <= 4 * maxBodyBytes else { return .NO }
            context.stage = .overLimit(discarded: discarded + size)
            return .YES
        case .overLimit:
            return answerTooLarge(context)
        case .dispatched:
            guard let response = context.takeReplyOrSuspend() else { return .YES }
            context.stage = .answered
            return queue(response, on: context.connection, closing: false)
        case .answered:
            return .NO
        }
    }

    /// Hands the complete request to the responder; queues its answer at once if it replied
    /// synchronously, otherwise suspends the connection until it does.
    private func dispatch(_ context: RequestContext) -> MHD_Result {
        dispatching.add(1, ordering: .sequentiallyConsistent)
        defer { dispatching.subtract(1, ordering: .sequentiallyConsistent) }
        context.stage = .dispatched
        if refusing.load(ordering: .sequentiallyConsistent) {
            context.deliver(Self.unavailable)
        } else {
            responder.respond(to: context.takeRequest()) { [context] response in context.deliver(response) }
        }
        guard let response = context.takeReplyOrSuspend() else { return .YES }
        context.stage = .answered
        return queue(response, on: context.connection, closing: false)
    }

    private func answerTooLarge(_ context: RequestContext) -> MHD_Result {
        context.stage = .answered
        var request = context.takeRequest()
        request.body = []
        let response = responder.bodyTooLarge(request)
        return queue(response, on: context.connection, closing: true)
    }

    /// Answers a request whose head is refused, before its body is read (libmicrohttpd then
    /// discards the body and closes the connection, so none of it is taken for a next request).
    private func answerRefused(_ context: RequestContext, _ refusal: RequestRefusal) -> MHD_Result {
        context.stage = .answered
        let response = responder.refuse(context.takeRequest(), because: refusal)
        return queue(response, on: context.connection, closing: true)
    }

    /// Called from the request-completed callback, for every request the URI logger saw.
    func complete(_ context: RequestContext) {
        context.finish()
        // Only suspended requests were registered, which keeps synchronous answers off the
        // shared lock.
        if context.isPending { pending.remove(context) }
    }

    /// Answers every later request with ``unavailable`` without asking the responder.
    ///
    /// Once it returns no new request can be suspended any more: a dispatch that began before
    /// `refusing` was set has finished (and registered), and later ones answer synchronously.
    func refuseNew() {
        refusing.store(true, ordering: .sequentiallyConsistent)
        while dispatching.load(ordering: .sequentiallyConsistent) > 0 { sched_yield() }
    }

    /// Answers 503 to every request still waiting for the responder (after ``refuseNew()``).
    func answerPendingUnavailable() {
        for context in pending.all() {
            context.deliver(Self.unavailable)
        }
    }

    /// Wakes a suspended connection whose reply has arrived, unless the daemon is stopping.
    func resume(_ connection: OpaquePointer) {
        resumeGate.ifOpen { MHD_resume_connection(connection) }
    }

    private func queue(
        _ response: HTTPResponse, on connection: OpaquePointer, closing: Bool
    ) -> MHD_Result {
        let status = (100...999).contains(response.status) ? UInt32(response.status) : 500
        let closing = closing || draining.load(ordering: .relaxed)
        if let prepared = response.prepared, !closing {
            return MHD_queue_response(connection, status, prepared.handle)
        }
        guard let mhdResponse = makeMHDResponse(response, closing: closing) else { return .NO }
        defer { MHD_destroy_response(mhdResponse) }
        return MHD_queue_response(connection, status, mhdResponse)
    }
}
