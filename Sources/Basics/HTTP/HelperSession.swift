import FoundationEssentials
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// `HTTPClient` that keeps one `traveltimes fetch-helper --serve` running for every request of a
/// command: the helper and libcurl load once, not once a request, and each of its workers keeps
/// its connections open from one request to the next. A refresh of 500 custom routes is one
/// helper process, not 500.
///
/// Requests go in as JSON lines tagged with a number; answers come back tagged, each a line and
/// its body, in whatever order they finish. Up to `workers` are in flight at once, whatever the
/// number of cores. Each caller waits for its own answer until its deadline (the helper ends a
/// transfer at it; the wait here, a moment later, is the backstop). A helper that dies fails
/// every request waiting on it, and the next request starts another.
public final class HelperSession: HTTPClient {
    public let helperPath: String
    public let maximumBodyBytes: Int
    public let workers: Int
    /// The helper's environment: the caller's, without its secrets (they reach it on the socket).
    public let environment: [String: String]
    private let shared: Shared

    public init(
        helperPath: String, maximumBodyBytes: Int = 32 << 20, workers: Int = 4,
        environment: ChildEnvironment
    ) {
        self.helperPath = helperPath
        self.maximumBodyBytes = maximumBodyBytes
        self.workers = max(1, min(workers, 16))
        self.environment = environment.variables
        shared = Shared(maximumBodyBytes: maximumBodyBytes)
    }

    deinit { shared.finish() }

    /// Ends the helper once the requests in flight are answered (or after two seconds).
    public func finish() { shared.finish() }

    public func get(_ url: URL, headers: [String: String], timeout: TimeInterval) throws -> HTTPResponse {
        try perform(url, method: nil, headers: headers, body: nil, timeout: timeout, limit: maximumBodyBytes)
    }

    public func post(_ url: URL, headers: [String: String], body: Data, timeout: TimeInterval) throws -> HTTPResponse {
        try perform(url, method: "POST", headers: headers, body: body, timeout: timeout, limit: maximumBodyBytes)
    }

    public func send(_ method: String, _ url: URL, headers: [String: String], body: Data?, timeout: TimeInterval) throws -> HTTPResponse {
        try perform(url, method: method, headers: headers, body: body, timeout: timeout, limit: maximumBodyBytes)
    }

    /// The same session, its answers held to a smaller size (a routing provider's, not a feed's).
    public func limited(to bytes: Int) -> Limited { Limited(session: self, limit: min(bytes, maximumBodyBytes)) }

    /// A session's requests with a smaller body limit.
    public struct Limited: HTTPClient {
        let session: HelperSession
        let limit: Int

        public func get(_ url: URL, headers: [String: String], timeout: TimeInterval) throws -> HTTPResponse {
            try session.perform(url, method: nil, headers: headers, body: nil, timeout: timeout, limit: limit)
        }

        public func post(_ url: URL, headers: [String: String], body: Data, timeout: TimeInterval) throws -> HTTPResponse {
            try session.perform(url, method: "POST", headers: headers, body: body, timeout: timeout, limit: limit)
        }

        public func send(_ method: String, _ url: URL, headers: [String: String], body: Data?, timeout: TimeInterval) throws -> HTTPResponse {
            try session.perform(url, method: method, headers: headers, body: body, timeout: timeout, limit: limit)
        }
    }

    private func perform(
        _ url: URL, method: String?, headers: [String: String], body: Data?, timeout: TimeInterval, limit: Int
    ) throws -> HTTPResponse {
        // Not a network fault: no retry would find it.
        guard FileManager.default.isExecutableFile(atPath: helperPath) else { throw HTTPClientError.helperMissing(path: helperPath) }
        let request = FetchHelper.Request(
            url: url.absoluteString, headers: headers, timeout: timeout, maxBytes: limit, method: method, body: body)
        let result = shared.exchange(request, timeout: timeout + 1) { () throws(Subprocess.Failure) in
            try Subprocess.startConversation(helperPath, arguments: [FetchHelper.commandName, "--serve", String(workers)], environment: environment)
        }
        return try result.get()
    }

    /// What the callers' threads and the reader thread share.
    private final class Shared: Sendable {
        let maximumBodyBytes: Int
        /// Guards the running helper, the request numbers and the callers waiting for answers:
        /// callers register and collect under it; the reader thread hands answers over under it.
        private let state = Mutex(State())
        /// Held while a request line is written, so that two callers' lines never interleave.
        private let writing = Mutex(())

        init(maximumBodyBytes: Int) { self.maximumBodyBytes = maximumBodyBytes }

        struct State {
            var helper: Helper?
            /// Helpers that ended or are ending: reaped and closed by `finish`.
            var retired: [Helper] = []
            var nextID = 0
            var waiting: [Int: Waiter] = [:]
            var finished = false
        }

        struct Helper {
            var pid: pid_t
            var socket: Int32
            /// Signalled by the reader thread when it stops reading this helper.
            var readerDone: DispatchSemaphore
        }

        /// One caller's answer, handed over by the reader thread.
        final class Waiter: Sendable {
            let arrived = DispatchSemaphore(value: 0)
            /// Written once by the reader thread before `arrived` is signalled; read after it.
            let answer = Mutex<Result<HTTPResponse, HTTPClientError>?>(nil)
        }

        func exchange(
            _ request: FetchHelper.Request, timeout: TimeInterval, start: () throws(Subprocess.Failure) -> (pid: pid_t, socket: Int32)
        ) -> Result<HTTPResponse, HTTPClientError> {
            let waiter = Waiter()
            let begun: Result<(socket: Int32, id: Int), HTTPClientError> = state.withLock { state in
                guard !state.finished else { return .failure(.connection("the fetch helper session has ended")) }
                let helper: Helper
                if let running = state.helper {
                    helper = running
                } else {
                    do {
                        let (pid, socket) = try start()
                        helper = Helper(pid: pid, socket: socket, readerDone: DispatchSemaphore(value: 0))
                    } catch {
                        return .failure(.connection("cannot run the fetch helper: \(error)"))
                    }
                    state.helper = helper
                    let shared = self
                    startThread { shared.read(helper) }
                }
                let id = state.nextID
                state.waiting[id] = waiter
                state.nextID += 1
                return .success((helper.socket, id))
            }
            let socket: Int32
            let id: Int
            switch begun {
            case .success(let value): (socket, id) = value
            case .failure(let error): return .failure(error)
            }
            var request = request
            request.id = id
            guard let line = try? Data(JSONCoding.encode(request)) else {
                _ = state.withLock { $0.waiting.removeValue(forKey: id) }
                return .failure(.permanent("the request cannot be written"))
            }
            let failed: Int32? = writing.withLock { _ in
                (line + Data("\n".utf8)).withUnsafeBytes { Self.sendAll(socket, $0) }
            }
            if let failed {
                _ = state.withLock { $0.waiting.removeValue(forKey: id) }
                return .failure(.connection("cannot reach the fetch helper: \(String(cString: strerror(failed)))"))
            }
            if waiter.arrived.wait(timeout: .now() + max(0, min(timeout, 3_600))) == .timedOut {
                // Withdrawn, unless the answer came in meanwhile.
                let withdrawn = state.withLock { $0.waiting.removeValue(forKey: id) } != nil
                if withdrawn { return .failure(.timedOut) }
                waiter.arrived.wait()
            }
            return waiter.answer.withLock { $0 } ?? .failure(.connection("the fetch helper gave no answer"))
        }

        /// The reader thread: hands each answer to its caller until the helper's output ends or
        /// breaks the protocol; then fails whoever is still waiting on it.
        private func read(_ helper: Helper) {
            var input = FrameReader(socket: helper.socket)
            var reason = "the fetch helper stopped"
            while true {
                guard let line = input.line(maximum: 1 << 20) else { break }
                guard let reply = try? JSONCoding.decode(FetchHelper.Reply.self, from: line), let id = reply.id,
                    let length = reply.length, (0...maximumBodyBytes).contains(length)
                else {
                    reason = "the fetch helper gave an answer that cannot be read"
                    kill(helper.pid, SIGKILL)
                    break
                }
                guard let body = input.bytes(length) else { break }
                let answer = Result { () throws(HTTPClientError) in try FetchHelper.response(reply, body: body) }
                let waiter = state.withLock { $0.waiting.removeValue(forKey: id) }
                if let waiter {
                    waiter.answer.withLock { $0 = answer }
                    waiter.arrived.signal()
                }
            }
            let orphans = state.withLock { state in
                if state.helper?.pid == helper.pid {
                    state.helper = nil
                    state.retired.append(helper)
                }
                // Every waiter here was waiting on this helper: only one runs at a time.
                defer { state.waiting = [:] }
                return Array(state.waiting.values)
            }
            for waiter in orphans {
                waiter.answer.withLock { $0 = .failure(.connection(reason)) }
                waiter.arrived.signal()
            }
            helper.readerDone.signal()
        }

        func finish() {
            let helpers: [Helper] = state.withLock { state in
                state.finished = true
                defer {
                    state.helper = nil
                    state.retired = []
                }
                return state.retired + (state.helper.map { [$0] } ?? [])
            }
            for helper in helpers {
                // End of input: the helper answers what it holds and exits.
                shutdown(helper.socket, Int32(SHUT_WR))
                Subprocess.reap(helper.pid, within: 2)
                helper.readerDone.wait()
                close(helper.socket)
            }
        }

        /// Writes every byte to the socket; never raises SIGPIPE. Returns nil, or the `errno`.
        private static func sendAll(_ socket: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32? {
            var offset = 0
            while offset < bytes.count {
                let sent = Glibc.send(socket, bytes.baseAddress?.advanced(by: offset), bytes.count - offset, Int32(MSG_NOSIGNAL))
                if sent < 0 {
                    guard errno == EINTR else { return errno }
                } else {
                    offset += sent
                }
            }
            return nil
        }
    }
}

/// Lines and counted bodies from a descriptor, through one buffer: both ends of a fetch helper
/// session read with it.
public struct FrameReader {
    let socket: Int32
    private var buffer = Data()
    private var ended = false

    public init(socket: Int32) { self.socket = socket }

    /// The next line without its newline; nil at the end, or past `maximum` bytes.
    public mutating func line(maximum: Int) -> Data? {
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                let line = Data(buffer[buffer.startIndex..<newline])
                buffer.removeSubrange(buffer.startIndex...newline)
                return line
            }
            guard buffer.count <= maximum, fill() else { return nil }
        }
    }

    /// The next `count` bytes; nil if the input ends first.
    public mutating func bytes(_ count: Int) -> Data? {
        while buffer.count < count {
            guard fill() else { return nil }
        }
        let taken = Data(buffer.prefix(count))
        buffer.removeFirst(count)
        return taken
    }

    private mutating func fill() -> Bool {
        guard !ended else { return false }
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = Glibc.read(socket, &chunk, chunk.count)
            if count > 0 {
                buffer.append(contentsOf: chunk[0..<count])
                return true
            }
            if count < 0, errno == EINTR { continue }
            ended = true
            return false
        }
    }
}
