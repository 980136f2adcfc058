public import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A program run by a test, through `posix_spawn` and descriptors this value alone owns.
///
/// Foundation's `Process`, `Pipe` and `FileHandle` are not used: every test of the package runs
/// in one process, and a `FileHandle` whose number another part of it closed by mistake (and
/// that was then reused) crashes all of them in `availableData`. Here every descriptor is opened
/// close-on-exec, read with `poll(2)` and `read(2)`, and closed once, when this value goes away;
/// the child gets only its standard input, output and error.
public final class ChildProcess: @unchecked Sendable {
    /// Where the child's standard output or error goes.
    public enum Output: Sendable {
        /// `/dev/null`.
        case null
        /// A pipe this value reads (``readLine(timeout:)``, ``readToEnd()``).
        case pipe
        /// The end of the file at this path (created when missing): what nothing reads while the
        /// child runs goes there, since a full pipe would stall the child.
        case file(String)
    }

    /// How the child ended.
    public struct Exit: Sendable, Equatable {
        /// The exit status, or the signal's number when ``signaled``.
        public var status: Int32
        /// Whether a signal ended it.
        public var signaled: Bool
    }

    /// The child's process id, signalled only while it has not been waited for.
    public let pid: pid_t
    private let state = NSCondition()
    private var exit: Exit?
    private var reaping = false
    private var readers: [Int32: PipeReader] = [:]

    /// Starts `executable` with `arguments`; `environment` replaces this process's when given.
    public init(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
        standardOutput: Output = .null, standardError: Output = .null
    ) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // Descriptors of this process that the child is given; closed here once it has them.
        var handedOver: [Int32] = []
        defer { for fd in handedOver { Glibc.close(fd) } }
        var pipes: [Int32: PipeReader] = [:]
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        for (target, output) in [(Int32(1), standardOutput), (Int32(2), standardError)] {
            switch output {
            case .null:
                posix_spawn_file_actions_addopen(&actions, target, "/dev/null", O_WRONLY, 0)
            case .file(let path):
                let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
                guard fd >= 0 else { throw TestFailure("cannot open \(path): \(Self.describe(errno))") }
                handedOver.append(fd)
                posix_spawn_file_actions_adddup2(&actions, fd, target)
            case .pipe:
                var ends: [Int32] = [-1, -1]
                guard pipe(&ends) == 0 else { throw TestFailure("pipe: \(Self.describe(errno))") }
                // Close-on-exec at once (`pipe2` is not in Swift's Glibc): a child another thread
                // starts meanwhile gets nothing else from this process either.
                for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
                pipes[target] = PipeReader(ends[0])
                handedOver.append(ends[1])
                posix_spawn_file_actions_adddup2(&actions, ends[1], target)
            }
        }
        // Everything else this process has open stays out of the child, close-on-exec or not
        // (`posix_spawn_file_actions_addclosefrom_np` is not in Swift's Glibc). Closed in the
        // child only; one closed here meanwhile fails there with EBADF, which posix_spawn ignores.
        for fd in Self.openDescriptors() where fd > 2 {
            posix_spawn_file_actions_addclose(&actions, fd)
        }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // The spawning thread's signal mask would be inherited: a pool thread may block SIGTERM.
        // Its own process group, as Foundation's `Process` gives, keeps a ^C at the terminal to
        // the test runner.
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETPGROUP))

        let argv = ([executable] + arguments).map { strdup($0) }
        let env = (environment ?? ProcessInfo.processInfo.environment).map { strdup("\($0.key)=\($0.value)") }
        defer { for pointer in argv + env { free(pointer) } }
        var child: pid_t = 0
        let spawned = posix_spawn(&child, executable, &actions, &attributes, argv + [nil], env + [nil])
        guard spawned == 0 else {
            throw TestFailure("cannot start \(executable): \(Self.describe(spawned))")
        }
        pid = child
        readers = pipes
    }

    deinit {
        if waitIfExited() == nil {
            _ = signal(SIGKILL)
            _ = wait()
        }
    }

    /// The next line the child writes to `stream` (1 or 2, a ``Output/pipe``), without its
    /// newline; nil at the end of the stream or when `timeout` passes first.
    public func readLine(from stream: Int32 = 1, timeout: Duration) throws -> String? {
        try reader(stream).readLine(until: .now + timeout)
    }

    /// Everything the child writes to `stream` until it closes it.
    public func readToEnd(from stream: Int32 = 1) throws -> Data {
        try reader(stream).readToEnd()
    }

    private func reader(_ stream: Int32) throws -> PipeReader {
        guard let reader = state.withLock({ readers[stream] }) else {
            throw TestFailure("standard stream \(stream) of \(pid) is not a pipe")
        }
        return reader
    }

    /// Whether the child has not exited yet.
    public var isRunning: Bool { waitIfExited() == nil }

    /// Sends `signal`, unless the child has been waited for (its id may be another's by now).
    @discardableResult
    public func signal(_ signal: Int32) -> Bool {
        state.withLock { exit == nil && !reaping && Glibc.kill(pid, signal) == 0 }
    }

    /// Waits for the child to exit and returns how it ended; the child is reaped once, whoever asks.
    @discardableResult
    public func wait() -> Exit {
        state.lock()
        defer { state.unlock() }
        while true {
            if let exit { return exit }
            if !reaping { break }
            state.wait()
        }
        reaping = true
        state.unlock()
        // Waited for without reaping, so that ``signal(_:)`` can never reach a reused id.
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) != 0, errno == EINTR {}
        state.lock()
        reaping = false
        return reap(blocking: true) ?? Exit(status: -1, signaled: false)
    }

    /// How the child ended, if it has; never blocks.
    private func waitIfExited() -> Exit? {
        state.withLock { exit ?? (reaping ? nil : reap(blocking: false)) }
    }

    /// Reaps the child if it has exited. Callers hold `state`.
    private func reap(blocking: Bool) -> Exit? {
        var status: Int32 = 0
        var result: pid_t
        repeat { result = waitpid(pid, &status, blocking ? 0 : WNOHANG) } while result < 0 && errno == EINTR
        guard result == pid else { return nil }
        // WIFSIGNALED and friends are macros Swift does not import: the low seven bits hold the
        // signal, the next byte the exit status.
        let signal = status & 0x7f
        let ended =
            signal == 0
            ? Exit(status: (status >> 8) & 0xff, signaled: false) : Exit(status: signal, signaled: true)
        exit = ended
        state.broadcast()
        return ended
    }

    /// The descriptors this process has open now.
    private static func openDescriptors() -> [Int32] {
        // Without the list the child still gets only what is not close-on-exec: nothing to lose.
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return names.compactMap { Int32($0) }
    }

    static func describe(_ code: Int32) -> String { "\(String(cString: strerror(code))) (errno \(code))" }
}

extension ChildProcess {
    /// What a program run to its end said: its exit, standard output and standard error.
    public struct Outcome: Sendable {
        public var exit: Exit
        public var output: Data
        public var errors: Data

        /// The exit status, or 128 + the signal, as a shell says.
        public var status: Int32 { exit.signaled ? 128 + exit.status : exit.status }
        public var outputText: String { String(decoding: output, as: UTF8.self) }
        public var errorText: String { String(decoding: errors, as: UTF8.self) }
    }

    /// Runs `executable` to its end, reading its standard output and error.
    public static func run(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil
    ) throws -> Outcome {
        let child = try ChildProcess(
            executable, arguments, environment: environment, standardOutput: .pipe, standardError: .pipe)
        // Read side by side: a child that fills one pipe while this reads the other would stall.
        let errors = ReadInBackground { try child.readToEnd(from: 2) }
        let output = try child.readToEnd(from: 1)
        return Outcome(exit: child.wait(), output: output, errors: try errors.value())
    }
}

/// `work` on a thread of its own; ``value()`` waits for what it returns.
private final class ReadInBackground: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var result: Result<Data, any Error> = .success(Data())

    init(_ work: @escaping @Sendable () throws -> Data) {
        Thread {
            self.result = Result { try work() }
            self.done.signal()
        }.start()
    }

    func value() throws -> Data {
        done.wait()
        return try result.get()
    }
}
