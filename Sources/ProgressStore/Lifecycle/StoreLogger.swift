/// Where a store writes what an operator should read: a failure it recovers from by itself (a
/// checkpoint that failed and will be tried again, a connection that broke), a stop that ran
/// out of time. The service passes its lifecycle log; one line per call, no trailing newline.
public typealias StoreLogger = @Sendable (String) -> Void

/// A logger that drops every line, for stores opened without one (tests, tools).
public let silentStoreLogger: StoreLogger = { _ in }
