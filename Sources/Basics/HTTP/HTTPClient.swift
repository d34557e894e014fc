import FoundationEssentials

/// One HTTP response, body included.
public struct HTTPResponse: Sendable, Equatable {
    public var status: Int
    /// Header names in lower case.
    public var headers: [String: String]
    public var body: Data

    public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
        self.body = body
    }
}

/// Why a request got no response at all.
public enum HTTPClientError: Error, Equatable, Sendable {
    /// Connection refused, DNS failure, reset: worth retrying.
    case connection(String)
    /// No answer within the time allowed.
    case timedOut
    /// The body passed the size limit and the transfer was stopped.
    case tooLarge(limit: Int)
    /// A failure that will not change on retry: an unsupported or malformed URL, a redirect to
    /// another protocol, oversized headers, a certificate that does not verify.
    case permanent(String)
    /// The helper program that makes requests is not there.
    case helperMissing(path: String)
}

extension HTTPClientError: CustomStringConvertible {
    /// What went wrong, in words: never the Swift value (`connection("…")`).
    public var description: String {
        switch self {
        case .connection(let reason): reason
        case .timedOut: "no answer in time"
        case .tooLarge(let limit): "the answer is over \(limit) bytes"
        case .permanent(let reason): reason
        case .helperMissing(let path): "the fetch helper is missing (\(path))"
        }
    }
}

/// A GET with a time limit. The network reaches the core only through this, so the retry policy is
/// tested without one.
public protocol HTTPClient: Sendable {
    func get(_ url: URL, headers: [String: String], timeout: TimeInterval) throws -> HTTPResponse
    func post(_ url: URL, headers: [String: String], body: Data, timeout: TimeInterval) throws -> HTTPResponse
    /// Any other method a notification channel needs (`PUT`, `PATCH`, `DELETE`), with or without
    /// a body; never follows a redirect.
    func send(_ method: String, _ url: URL, headers: [String: String], body: Data?, timeout: TimeInterval) throws -> HTTPResponse
}

extension HTTPClient {
    public func post(_ url: URL, headers: [String: String], body: Data, timeout: TimeInterval) throws -> HTTPResponse {
        throw HTTPClientError.connection("this client cannot post")
    }

    public func send(_ method: String, _ url: URL, headers: [String: String], body: Data?, timeout: TimeInterval) throws -> HTTPResponse {
        if method == "POST" { return try post(url, headers: headers, body: body ?? Data(), timeout: timeout) }
        throw HTTPClientError.permanent("this client cannot send \(method)")
    }
}
