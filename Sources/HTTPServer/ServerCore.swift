import CMicroHTTPD
import Dispatch
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
    /// Set once stopping: answers then close their connection instead of keeping it alive, and
    /// each request leaving ``dispatching`` or ``pending`` signals ``settled``.
    let draining = Atomic<Bool>(false)
    /// What ``waitUntil(_:_:)`` waits on while the server drains.
    private let settled = DispatchSemaphore(value: 0)
    /// Set when stopping has waited long enough: requests then get ``unavailable`` without
    /// reaching the responder.
    let refusing = Atomic<Bool>(false)
    /// Requests inside ``dispatch(_:)``: between reaching the responder and being either
    /// answered or registered in ``pending``.
    let dispatching = Atomic<Int>(0)
    /// The answer to requests the server gives up on while stopping, as the responder renders it.
    let unavailable: HTTPResponse
    /// The answer when libmicrohttpd refuses to build the one given.
    let notBuilt: HTTPResponse
    let resumeGate = ResumeGate()
    /// Whether libmicrohttpd lays out a request's head as ``HeadLayout`` expects.
    let checksHeadLayout: Bool

    /// `libraryVersion` is the libmicrohttpd version the head checks are to assume.
    init(responder: any HTTPResponder, maxBodyBytes: Int, libraryVersion: String) {
        self.responder = responder
        self.maxBodyBytes = maxBodyBytes
        unavailable = responder.render(.shuttingDown)
        notBuilt = responder.render(.notBuilt)
        checksHeadLayout = HeadLayout.isKnown(version: libraryVersion)
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
        defer {
            dispatching.subtract(1, ordering: .sequentiallyConsistent)
            if draining.load(ordering: .sequentiallyConsistent) { settled.signal() }
        }
        context.stage = .dispatched
        if refusing.load(ordering: .sequentiallyConsistent) {
            context.deliver(unavailable)
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
        if context.isPending {
            pending.remove(context)
            if draining.load(ordering: .sequentiallyConsistent) { settled.signal() }
        }
    }

    /// Whether no request is inside ``dispatch(_:)`` or waiting for its reply.
    var isIdle: Bool {
        dispatching.load(ordering: .sequentiallyConsistent) == 0 && pending.isEmpty
    }

    /// Waits until `condition` holds or `deadline` passes, and says whether it holds; only once
    /// `draining` is set, since only then do requests signal as they leave.
    ///
    /// A request that leaves after `condition` was found false sees `draining` set (both are
    /// sequentially consistent, or ordered by the pending list's lock) and signals, so no wake-up
    /// is lost; extra ones make the loop look again.
    func waitUntil(_ deadline: DispatchTime, _ condition: () -> Bool) -> Bool {
        while !condition() {
            if settled.wait(timeout: deadline) == .timedOut { return condition() }
        }
        return true
    }

    /// Answers every later request with ``unavailable`` without asking the responder.
    ///
    /// Once it returns no new request can be suspended any more: a dispatch that began before
    /// `refusing` was set has finished (and registered), and later ones answer synchronously.
    func refuseNew() {
        refusing.store(true, ordering: .sequentiallyConsistent)
        // A dispatch runs the responder synchronously, which must not block, so this is short.
        _ = waitUntil(.distantFuture) { dispatching.load(ordering: .sequentiallyConsistent) == 0 }
    }

    /// Answers 503 to every request still waiting for the responder (after ``refuseNew()``).
    func answerPendingUnavailable() {
        for context in pending.all() {
            context.deliver(unavailable)
        }
    }

    /// Wakes a suspended connection whose reply has arrived, unless the daemon is stopping.
    func resume(_ connection: OpaquePointer) {
        resumeGate.ifOpen { MHD_resume_connection(connection) }
    }

    private func queue(
        _ response: HTTPResponse, on connection: OpaquePointer, closing: Bool
    ) -> MHD_Result {
        var status = (100...999).contains(response.status) ? UInt32(response.status) : 500
        let closing = closing || draining.load(ordering: .relaxed)
        if let prepared = response.prepared, !closing {
            return MHD_queue_response(connection, status, prepared.handle)
        }
        var built = makeMHDResponse(response, closing: closing)
        if built == nil {
            status = 500
            built = makeMHDResponse(notBuilt, closing: true)
        }
        // Without memory for even that, the connection is closed unanswered.
        guard let mhdResponse = built else { return .NO }
        defer { MHD_destroy_response(mhdResponse) }
        return MHD_queue_response(connection, status, mhdResponse)
    }
}
