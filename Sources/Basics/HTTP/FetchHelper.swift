import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// The conversation with `traveltimes fetch-helper`, the child process that owns the networking
/// stack: the same program, run with the first argument `fetch-helper`.
///
/// Loading libcurl and TLS (some fifty libraries) at every start would double the cost of the
/// commands cron runs every minute, and a request that overruns must be stoppable. So requests run
/// in a child: the request goes in on stdin as one JSON line (the URL carries the access code, so
/// it must not be an argument that `ps` shows); the answer comes back on stdout as one JSON line,
/// then the body.
public enum FetchHelper {
    /// The first argument that makes `traveltimes` the fetch helper.
    public static let commandName = "fetch-helper"

    /// What is said when the program to run as the fetch helper is not there.
    public static func missing(_ path: String) -> String {
        "the fetch helper is missing: \(path) is not an executable program (TRAVELTIMES_FETCH_HELPER names it, or traveltimes runs itself)"
    }

    public struct Request: Codable, Sendable, Equatable {
        public var url: String
        public var headers: [String: String]
        public var timeout: TimeInterval
        public var maxBytes: Int
        /// `GET` when absent; else `POST`, `PUT`, `PATCH` or `DELETE`, with `body` when there is one.
        public var method: String?
        public var body: Data?
        /// In a session (`--serve`): the number its answer is tagged with.
        public var id: Int?

        public init(
            url: String, headers: [String: String], timeout: TimeInterval, maxBytes: Int, method: String? = nil, body: Data? = nil,
            id: Int? = nil
        ) {
            self.id = id
            self.url = url
            self.headers = headers
            self.timeout = timeout
            self.maxBytes = maxBytes
            self.method = method
            self.body = body
        }
    }

    /// The first line of the answer: a response, or the reason there is none.
    public struct Reply: Codable, Sendable, Equatable {
        public var status: Int?
        public var headers: [String: String]?
        /// `connection`, `timedOut`, `tooLarge` or `permanent`.
        public var error: String?
        public var message: String?
        /// In a session: the request's number, and how many body bytes follow the line.
        public var id: Int?
        public var length: Int?

        public init(
            status: Int? = nil, headers: [String: String]? = nil, error: String? = nil, message: String? = nil, id: Int? = nil,
            length: Int? = nil
        ) {
            self.id = id
            self.length = length
            self.status = status
            self.headers = headers
            self.error = error
            self.message = message
        }
    }

    /// The answer to write: the reply line, then the body.
    public static func answer(_ result: Result<HTTPResponse, HTTPClientError>) -> Data {
        let (line, body) = answerParts(result)
        return line + body
    }

    /// Writes the answer to a descriptor (the helper's stdout) without joining its parts: a large
    /// body is written from where it lies, not copied first.
    public static func writeAnswer(_ result: Result<HTTPResponse, HTTPClientError>, to descriptor: Int32, id: Int? = nil) {
        let (line, body) = answerParts(result, id: id)
        _ = line.withUnsafeBytes { writeAll(descriptor, $0) }
        _ = body.withUnsafeBytes { writeAll(descriptor, $0) }
    }

    private static func answerParts(_ result: Result<HTTPResponse, HTTPClientError>, id: Int? = nil) -> (line: Data, body: Data) {
        var reply: Reply
        var body = Data()
        switch result {
        case .success(let response):
            reply = Reply(status: response.status, headers: response.headers)
            body = response.body
        case .failure(.connection(let message)): reply = Reply(error: "connection", message: message)
        case .failure(.timedOut): reply = Reply(error: "timedOut")
        case .failure(.tooLarge(let limit)): reply = Reply(error: "tooLarge", message: String(limit))
        case .failure(.permanent(let message)): reply = Reply(error: "permanent", message: message)
        case .failure(.helperMissing(let path)): reply = Reply(error: "connection", message: "no helper at \(path)")
        }
        if let id {
            reply.id = id
            reply.length = body.count
        }
        let fallback = id.map { #"{"error":"connection","message":"cannot encode","length":0,"id":\#($0)}"# }
        let line = (try? Data(JSONCoding.encode(reply))) ?? Data((fallback ?? #"{"error":"connection","message":"cannot encode"}"#).utf8)
        return (line + Data("\n".utf8), body)
    }

    /// Reads an answer back into a response or the client error it stands for.
    public static func read(_ data: Data) throws -> HTTPResponse {
        guard let newline = data.firstIndex(of: 0x0A),
            let reply = try? JSONCoding.decode(Reply.self, from: data[data.startIndex..<newline])
        else { throw HTTPClientError.connection("the fetch helper gave no answer") }
        return try response(reply, body: data[data.index(after: newline)...])
    }

    /// The response a reply line and its body stand for, or the client error.
    static func response(_ reply: Reply, body: Data) throws(HTTPClientError) -> HTTPResponse {
        switch reply.error {
        case "timedOut": throw HTTPClientError.timedOut
        case "tooLarge": throw HTTPClientError.tooLarge(limit: reply.message.flatMap(Int.init) ?? 0)
        case "permanent": throw HTTPClientError.permanent(reply.message ?? "the request cannot succeed")
        case .some: throw HTTPClientError.connection(reply.message ?? "connection failed")
        case nil: break
        }
        guard let status = reply.status else { throw HTTPClientError.connection("the fetch helper gave no status") }
        // The body is a slice of the answer, not a copy: a large feed is held once.
        return HTTPResponse(status: status, headers: reply.headers ?? [:], body: body)
    }
}

/// `HTTPClient` that runs `traveltimes fetch-helper` for each request, and kills it if it overruns.
public struct HelperHTTPClient: HTTPClient {
    public let helperPath: String
    public let maximumBodyBytes: Int
    /// The helper's environment: this process's, without its secrets (the request, access code
    /// and all, reaches it on stdin).
    public let environment: [String: String]

    public init(
        helperPath: String, maximumBodyBytes: Int = 32 << 20,
        environment: ChildEnvironment
    ) {
        self.helperPath = helperPath
        self.maximumBodyBytes = maximumBodyBytes
        self.environment = environment.variables
    }

    /// The running program, which is its own fetch helper.
    public static func runningProgram() -> String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }

    public func get(_ url: URL, headers: [String: String], timeout: TimeInterval) throws -> HTTPResponse {
        try perform(url, method: nil, headers: headers, body: nil, timeout: timeout)
    }

    public func post(_ url: URL, headers: [String: String], body: Data, timeout: TimeInterval) throws -> HTTPResponse {
        try perform(url, method: "POST", headers: headers, body: body, timeout: timeout)
    }

    public func send(_ method: String, _ url: URL, headers: [String: String], body: Data?, timeout: TimeInterval) throws -> HTTPResponse {
        try perform(url, method: method, headers: headers, body: body, timeout: timeout)
    }

    private func perform(_ url: URL, method: String?, headers: [String: String], body: Data?, timeout: TimeInterval) throws -> HTTPResponse {
        // Not a network fault: no retry would find it.
        guard FileManager.default.isExecutableFile(atPath: helperPath) else { throw HTTPClientError.helperMissing(path: helperPath) }
        let request = FetchHelper.Request(
            url: url.absoluteString, headers: headers, timeout: timeout, maxBytes: maximumBodyBytes, method: method, body: body)
        let input = Data(try JSONCoding.encode(request)) + Data("\n".utf8)
        let output: Data
        do {
            // The helper ends itself at the deadline; this one, a moment later, is the backstop.
            output = try Subprocess.exchange(
                helperPath, arguments: [FetchHelper.commandName], environment: environment, input: input, timeout: timeout + 0.5, maximumOutput: maximumBodyBytes + 65_536
            ).output
        } catch .timedOut {
            throw HTTPClientError.timedOut
        } catch .outputTooLarge {
            throw HTTPClientError.tooLarge(limit: maximumBodyBytes)
        } catch .cannotStart(let reason) {
            throw HTTPClientError.connection("cannot run the fetch helper \(helperPath): \(reason)")
        }
        return try FetchHelper.read(output)
    }
}
