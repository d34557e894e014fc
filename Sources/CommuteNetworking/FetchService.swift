import Basics
import FoundationEssentials
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// `traveltimes fetch-helper --serve N`: numbered request lines in on stdin, each answered on stdout
/// with its number, a reply line and the body (`FetchHelper.writeAnswer`), in the order they
/// finish. N workers, each with a libcurl handle kept from one request to the next, so its
/// connections are reused. At the end of input it answers what it holds and returns.
struct FetchService {
    let workers: Int

    init(workers: Int) { self.workers = max(1, min(workers, 16)) }

    /// The requests read and not yet taken; `nil` once input has ended.
    private final class Queue: Sendable {
        /// Guards the waiting requests and whether input has ended: the reading thread adds,
        /// the workers take, both only inside it.
        private let state = Mutex<(requests: [FetchHelper.Request], ended: Bool)>(([], false))
        /// Counts the requests added, and one wake-up per worker at the end.
        private let available = DispatchSemaphore(value: 0)
        /// Held while an answer is written, so that two workers' answers never interleave.
        let output = Mutex(())

        func add(_ request: FetchHelper.Request) {
            state.withLock { $0.requests.append(request) }
            available.signal()
        }

        func end(workers: Int) {
            state.withLock { $0.ended = true }
            for _ in 0..<workers { available.signal() }
        }

        func take() -> FetchHelper.Request? {
            available.wait()
            return state.withLock { state in state.requests.isEmpty ? nil : state.requests.removeFirst() }
        }
    }

    func run() {
        let queue = Queue()
        let group = DispatchGroup()
        for _ in 0..<workers {
            group.enter()
            startThread {
                defer { group.leave() }
                let connection = CurlConnection()
                while let request = queue.take() {
                    let result = Self.answer(request, on: connection)
                    queue.output.withLock { _ in FetchHelper.writeAnswer(result, to: STDOUT_FILENO, id: request.id) }
                }
            }
        }
        var input = FrameReader(socket: STDIN_FILENO)
        // A request line is small (a POST body is a webhook's message): one past 4 MiB is not ours.
        while let line = input.line(maximum: 4 << 20) {
            guard let request = try? JSONCoding.decode(FetchHelper.Request.self, from: line), request.id != nil else {
                standardError("traveltimes \(FetchHelper.commandName): expected numbered request lines (traveltimes runs it for its requests)\n")
                _exit(64)
            }
            queue.add(request)
        }
        queue.end(workers: workers)
        group.wait()
    }

    private static func answer(_ request: FetchHelper.Request, on connection: CurlConnection) -> Result<HTTPResponse, HTTPClientError> {
        guard let url = URL(string: request.url) else { return .failure(.permanent("the URL cannot be read")) }
        do {
            return .success(
                try connection.perform(
                    url, method: request.method, headers: request.headers, body: request.body, timeout: request.timeout,
                    maximumBodyBytes: request.maxBytes))
        } catch let error as HTTPClientError {
            return .failure(error)
        } catch {
            return .failure(.connection(String(describing: error)))
        }
    }
}
