import Basics
import FoundationEssentials

/// Fetches the feed over HTTP under one whole-operation deadline: connection failures and 5xx are
/// retried after 1 s, 2 s, 4 s (then every 4 s) while the deadline allows; 4xx is not retried. Only
/// a 200 with a JSON body is accepted. Conditional requests send the last ETag / Last-Modified.
public struct FeedFetcher: Sendable {
    /// The validators of the last successful fetch, sent back so an unchanged feed costs a 304.
    public typealias Validators = HTTPValidators

    public enum Outcome: Sendable, Equatable {
        /// A new body and its validators.
        case fresh(Data, Validators)
        /// 304: what is cached is current.
        case notModified
    }

    public let client: any HTTPClient
    /// Monotonic seconds, and a way to wait: injected so the policy is tested without waiting.
    public let clock: @Sendable () -> TimeInterval
    public let sleep: @Sendable (TimeInterval) -> Void
    public static let backoff: [TimeInterval] = [1, 2, 4]

    public init(
        client: any HTTPClient,
        clock: @escaping @Sendable () -> TimeInterval = { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 },
        sleep: @escaping @Sendable (TimeInterval) -> Void = { sleepFor($0) }
    ) {
        self.client = client
        self.clock = clock
        self.sleep = sleep
    }

    public func fetch(_ url: URL, validators: Validators?, timeout: TimeInterval) throws(FetchError) -> Outcome {
        try fetch(url, validators: validators, timeout: timeout, headers: ["Accept": "application/json"], body: Self.checkedBody)
    }

    /// The same policy for any body: `headers` go with every attempt (an agency's key), and
    /// `body` accepts a 200's body or says why not.
    public func fetch(
        _ url: URL, validators: Validators?, timeout: TimeInterval, headers extra: [String: String],
        body check: (HTTPResponse) throws(FetchError) -> Data
    ) throws(FetchError) -> Outcome {
        let start = clock()
        let deadline = start + timeout
        var headers = extra
        if let etag = validators?.etag { headers["If-None-Match"] = etag }
        if let modified = validators?.lastModified { headers["If-Modified-Since"] = modified }
        var attempt = 0
        var lastProblem: String?
        while true {
            let remaining = deadline - clock()
            guard remaining > 0 else { throw .timedOut(seconds: timeout, last: lastProblem) }
            do {
                let response = try client.get(url, headers: headers, timeout: remaining)
                switch response.status {
                case 200: return .fresh(try check(response), Self.validators(of: response))
                case 304: return .notModified
                case 500...599: lastProblem = "HTTP \(response.status)"
                default:
                    if let title = Self.htmlTitle(response) { throw FetchError.html(title) }
                    throw FetchError.http(status: response.status)
                }
            } catch let error as FetchError {
                throw error
            } catch HTTPClientError.tooLarge(let limit) {
                throw .tooLarge(limit: limit)
            } catch HTTPClientError.permanent(let reason) {
                throw .refused(reason)
            } catch HTTPClientError.helperMissing(let path) {
                throw .helperMissing(path: path)
            } catch HTTPClientError.timedOut {
                throw .timedOut(seconds: timeout, last: lastProblem)
            } catch HTTPClientError.connection(let reason) {
                lastProblem = reason
            } catch {
                lastProblem = String(describing: error)
            }
            let pause = Self.backoff[min(attempt, Self.backoff.count - 1)]
            attempt += 1
            guard clock() + pause < deadline else {
                // Not enough time left to wait and try again.
                let last = lastProblem ?? "no response"
                if attempt == 1, !last.hasPrefix("HTTP") { throw .unreachable(last) }
                throw .gaveUp(attempts: attempt, deadline: timeout, last: last)
            }
            sleep(pause)
        }
    }

    /// The body of a 200, if it is JSON. HTML is named by its title.
    static func checkedBody(_ response: HTTPResponse) throws(FetchError) -> Data {
        if let title = htmlTitle(response) { throw .html(title) }
        let type = response.headers["content-type"]?.lowercased()
        let looksLikeJSON = response.body.first { ![0x20, 0x0A, 0x0D, 0x09].contains($0) }
            .map { $0 == UInt8(ascii: "[") || $0 == UInt8(ascii: "{") } ?? false
        guard type?.contains("json") == true || (type == nil || type?.hasPrefix("text/plain") == true) && looksLikeJSON
        else { throw .notJSON(contentType: response.headers["content-type"]) }
        return response.body
    }

    /// The body of a 200, if it is not an HTML page (a binary file: a zip, a protobuf).
    public static func binaryBody(_ response: HTTPResponse) throws(FetchError) -> Data {
        if let title = htmlTitle(response) { throw .html(title) }
        return response.body
    }

    /// The page's `<title>`, else its first line of text, when the body is HTML: one line, free of
    /// control characters, wherever it is quoted (a message, `refresh.json`, `status`).
    static func htmlTitle(_ response: HTTPResponse) -> String? {
        rawHTMLTitle(response).map(DisplayText.line)
    }

    private static func rawHTMLTitle(_ response: HTTPResponse) -> String? {
        let type = response.headers["content-type"]?.lowercased() ?? ""
        let head = String(decoding: response.body.prefix(65_536), as: UTF8.self)
        let trimmed = head.drop { $0.isWhitespace }
        guard type.contains("html") || trimmed.hasPrefix("<") else { return nil }
        if let open = head.firstRange(ofASCIICaseInsensitive: "<title>"),
            let close = head[open.upperBound...].firstRange(ofASCIICaseInsensitive: "</title>")
        {
            let title = head[open.upperBound..<close.lowerBound].trimmingWhitespace()
            if !title.isEmpty { return String(title.prefix(120)) }
        }
        // No title: the first line of text, every tag breaking the line (so a heading stands alone).
        var text = ""
        var inTag = false
        for character in head {
            switch character {
            case "<": inTag = true
            case ">":
                inTag = false
                text.append("\n")
            default:
                if !inTag { text.append(character) }
            }
        }
        let line = text.split(whereSeparator: \.isNewline).map { $0.trimmingWhitespace() }
            .first { !$0.isEmpty }
        return String((line ?? "an HTML page").prefix(120))
    }

    static func validators(of response: HTTPResponse) -> Validators {
        Validators(etag: response.headers["etag"], lastModified: response.headers["last-modified"])
    }
}
