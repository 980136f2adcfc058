import CMicroHTTPD

/// An answer that is always the same, built into a libmicrohttpd response once and then queued
/// as it is on every connection that asks for it.
///
/// Creating a response costs an allocation for it, one for the body and three per header
/// field (libmicrohttpd copies every name and value); a prepared one costs a reference count.
/// libmicrohttpd counts the connections using a response, so the last of them and this
/// object's `deinit` decide together when it is freed.
public final class PreparedResponse: @unchecked Sendable {
    /// The answer, as ``HTTPResponse/init(prepared:)`` hands it out.
    public let response: HTTPResponse
    // libmicrohttpd guards a response's reference count with its own lock and never changes
    // the response once it is queued: sharing the pointer between threads is safe.
    let handle: OpaquePointer

    /// Builds the libmicrohttpd response; `nil` when it cannot (out of memory, or a header
    /// field libmicrohttpd refuses).
    public init?(_ response: HTTPResponse) {
        guard let handle = makeMHDResponse(response) else { return nil }
        self.response = response
        self.handle = handle
    }

    deinit {
        MHD_destroy_response(handle)
    }
}

/// A libmicrohttpd response with `response`'s body (copied) and header fields; the caller owns
/// one reference. `nil` when libmicrohttpd cannot create it or refuses one of its fields (a line
/// break in a value, `Transfer-Encoding` other than `chunked`): an answer is sent whole or not
/// at all. `Content-Length` is left out, since libmicrohttpd derives it from the body.
func makeMHDResponse(_ response: HTTPResponse, closing: Bool = false) -> OpaquePointer? {
    let created = response.body.withUnsafeBytes { bytes in
        bytes.isEmpty
            ? MHD_create_response_from_buffer(0, nil, .RESPMEM_PERSISTENT)
            : MHD_create_response_from_buffer(
                bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), .RESPMEM_MUST_COPY)
    }
    guard let mhdResponse = created else { return nil }
    for field in response.headers where !isContentLength(field.name) {
        // `withCString` hands over literals and native strings in place, where passing a
        // `String` as a C string argument would copy it into a new array each time.
        let added = field.name.withCString { name in
            field.value.withCString { value in MHD_add_response_header(mhdResponse, name, value) }
        }
        guard added == .YES else {
            MHD_destroy_response(mhdResponse)
            return nil
        }
    }
    if closing && MHD_add_response_header(mhdResponse, "Connection", "close") != .YES {
        MHD_destroy_response(mhdResponse)
        return nil
    }
    return mhdResponse
}

/// Whether `name` is `Content-Length` in any case (setting bit 5 folds exactly the capitals onto
/// letters, and leaves `-` as it is).
private func isContentLength(_ name: String) -> Bool {
    name.utf8.count == 14 && name.utf8.elementsEqual("content-length".utf8) { $0 | 0x20 == $1 }
}
