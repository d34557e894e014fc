import CCurl
import Basics
import FoundationEssentials

/// `HTTPClient` over libcurl's easy interface, for the fetch helper.
///
/// Not URLSession: on Linux its event loop keeps a socket's write source after libcurl stops
/// asking for it, so waiting on a silent server spins a core (3 s of CPU in 4 s), and its
/// delegate queue takes data faster than it can be refused (a gzip bomb reached 1.1 GB). Here
/// libcurl waits in `poll` at no cost, every decoded byte passes through `Transfer.take`, which
/// stops the transfer past the limit, and `CURLOPT_TIMEOUT_MS` ends it at the deadline.
public final class CurlHTTPClient: HTTPClient {
    public let maximumBodyBytes: Int
    /// Every header line of a response together; more is refused (a header flood).
    public let maximumHeaderBytes: Int

    public init(maximumBodyBytes: Int = 32 << 20, maximumHeaderBytes: Int = 64 << 10) {
        self.maximumBodyBytes = maximumBodyBytes
        self.maximumHeaderBytes = maximumHeaderBytes
    }

    /// Follows redirects (http and https only, five at most).
    public func get(_ url: URL, headers: [String: String], timeout: TimeInterval) throws -> HTTPResponse {
        try perform(url, body: nil, headers: headers, timeout: timeout)
    }

    /// Never follows a redirect: the 3xx comes back, with the absolute target in `location`, for
    /// the caller to decide (a 302 would turn the POST into a GET without its body).
    public func post(_ url: URL, headers: [String: String], body: Data, timeout: TimeInterval) throws -> HTTPResponse {
        try perform(url, body: body, headers: headers, timeout: timeout)
    }

    /// `PUT`, `PATCH`, `DELETE`…: like a POST, never following a redirect.
    public func send(_ method: String, _ url: URL, headers: [String: String], body: Data?, timeout: TimeInterval) throws -> HTTPResponse {
        switch method {
        case "GET": return try get(url, headers: headers, timeout: timeout)
        case "POST": return try post(url, headers: headers, body: body ?? Data(), timeout: timeout)
        case _ where Self.otherMethods.contains(method): return try perform(url, method: method, body: body, headers: headers, timeout: timeout)
        default: throw HTTPClientError.permanent("no such method: \(DisplayText.line(method))")
        }
    }

    /// Why no request can be made (libcurl missing or unusable), or nil when one can: what
    /// `traveltimes fetch-helper --check` reports for `traveltimes doctor`.
    public static func loadProblem() -> String? {
        switch tt_curl_load() {
        case 0: nil
        case -1: "libcurl (libcurl.so.4) is not installed"
        default: "libcurl (libcurl.so.4) cannot be used"
        }
    }

    private func perform(_ url: URL, method: String? = nil, body: Data?, headers: [String: String], timeout: TimeInterval) throws -> HTTPResponse {
        if let problem = Self.loadProblem() { throw HTTPClientError.permanent(problem) }
        guard let handle = tt_curl_easy_init() else { throw HTTPClientError.connection("libcurl could not start a transfer") }
        defer { tt_curl_easy_cleanup(handle) }
        return try transfer(on: handle, url, method: method, body: body, headers: headers, timeout: timeout)
    }

    /// The methods a request may name besides GET and POST.
    static let otherMethods: Set<String> = ["PUT", "PATCH", "DELETE"]

    /// One transfer on `handle`, whose options are all set here (a reused handle is reset first).
    fileprivate func transfer(
        on handle: UnsafeMutableRawPointer, _ url: URL, method: String? = nil, body: Data?, headers: [String: String],
        timeout: TimeInterval
    ) throws -> HTTPResponse {
        // A method other than GET or POST never follows a redirect, as a POST does not.
        let custom = method.flatMap { Self.otherMethods.contains($0) ? $0 : nil }
        let transfer = Transfer(bodyLimit: maximumBodyBytes, headerLimit: maximumHeaderBytes)
        var strings = CStrings()
        defer { strings.free() }
        var list: UnsafeMutableRawPointer?
        defer { if let list { tt_curl_slist_free_all(list) } }
        // No Expect: 100-continue round trip before a POST's body.
        for line in headers.map({ "\($0.key): \($0.value)" }).sorted() + ["Expect:"] {
            list = tt_curl_slist_append(list, strings.keep(line))
        }
        let milliseconds = Int(max(1, min(timeout, 3_600) * 1_000))
        var options: [(Int32, Int)] = [
            (Curl.noSignal, 1), (Curl.noProgress, 1), (Curl.timeoutMilliseconds, milliseconds),
            (Curl.connectTimeoutMilliseconds, milliseconds),
        ]
        options += body != nil ? [(Curl.followLocation, 0), (Curl.post, 1)]
            : custom != nil ? [(Curl.followLocation, 0)] : [(Curl.followLocation, 1), (Curl.maximumRedirects, 5)]
        for (option, value) in options { tt_curl_setopt_long(handle, option, value) }
        if let custom { tt_curl_setopt_pointer(handle, Curl.customRequest, strings.keep(custom)) }
        tt_curl_setopt_pointer(handle, Curl.url, strings.keep(url.absoluteString))
        tt_curl_setopt_pointer(handle, Curl.protocols, strings.keep("http,https"))
        tt_curl_setopt_pointer(handle, Curl.redirectProtocols, strings.keep("http,https"))
        // Every encoding libcurl can decode; the decoded size is what is bounded.
        tt_curl_setopt_pointer(handle, Curl.acceptEncoding, strings.keep(""))
        tt_curl_setopt_pointer(handle, Curl.userAgent, strings.keep("traveltimes"))
        tt_curl_setopt_pointer(handle, Curl.httpHeader, list)
        tt_curl_setopt_offset(handle, Curl.maximumFileSize, Int64(maximumBodyBytes))
        let context = Unmanaged.passUnretained(transfer).toOpaque()
        tt_curl_setopt_callback(handle, Curl.writeFunction) { data, size, count, context in
            guard let context, let data else { return 0 }
            return Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue().take(body: data, size * count)
        }
        tt_curl_setopt_pointer(handle, Curl.writeData, context)
        tt_curl_setopt_callback(handle, Curl.headerFunction) { data, size, count, context in
            guard let context, let data else { return 0 }
            return Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue().take(header: data, size * count)
        }
        tt_curl_setopt_pointer(handle, Curl.headerData, context)

        let code: Int32 = withExtendedLifetime(transfer) {
            guard let body else { return tt_curl_perform(handle) }
            return body.withUnsafeBytes { bytes in
                tt_curl_setopt_pointer(handle, Curl.postFields, bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1))
                tt_curl_setopt_offset(handle, Curl.postFieldSize, Int64(bytes.count))
                return tt_curl_perform(handle)
            }
        } as Int32
        if code != 0 { throw error(code, transfer) }
        var status = 0
        tt_curl_getinfo_long(handle, Curl.responseCode, &status)
        var responseHeaders = transfer.headers
        if (300...399).contains(status) {
            var target: UnsafePointer<CChar>?
            tt_curl_getinfo_string(handle, Curl.redirectURL, &target)
            if let target { responseHeaders["location"] = String(cString: target) }
        }
        return HTTPResponse(status: status, headers: responseHeaders, body: transfer.body)
    }

    /// What a libcurl failure means for the caller: worth retrying or not.
    private func error(_ code: Int32, _ transfer: Transfer) -> HTTPClientError {
        if transfer.bodyOverflowed || code == Curl.fileSizeExceeded { return .tooLarge(limit: maximumBodyBytes) }
        if transfer.headersOverflowed || code == Curl.tooLarge {
            return .permanent("the server's response headers are larger than \(maximumHeaderBytes >> 10) KiB")
        }
        let reason = String(cString: tt_curl_strerror(code))
        switch code {
        case Curl.timedOut: return .timedOut
        case Curl.unsupportedProtocol:
            return .permanent("\(reason): only http and https are followed, redirects included")
        case Curl.malformedURL, Curl.tooManyRedirects, Curl.badContentEncoding, Curl.peerFailedVerification,
            Curl.certificateProblem, Curl.certificateFileUnusable:
            return .permanent(reason)
        default: return .connection(reason)
        }
    }

    /// One transfer's response, gathered by libcurl's callbacks on the calling thread.
    private final class Transfer {
        let bodyLimit: Int
        let headerLimit: Int
        var body = Data()
        /// The last response's headers (a redirect's are dropped), names in lower case.
        var headers: [String: String] = [:]
        var headerBytes = 0
        var bodyOverflowed = false
        var headersOverflowed = false

        init(bodyLimit: Int, headerLimit: Int) {
            self.bodyLimit = bodyLimit
            self.headerLimit = headerLimit
        }

        /// Keeps body bytes, or stops the transfer (by taking none) past the limit: a body is
        /// never held past it, however it was compressed.
        func take(body bytes: UnsafeMutablePointer<CChar>, _ count: Int) -> Int {
            guard body.count + count <= bodyLimit else {
                bodyOverflowed = true
                return 0
            }
            bytes.withMemoryRebound(to: UInt8.self, capacity: count) { body.append($0, count: count) }
            return count
        }

        /// Keeps one header line; a status line starts a new response.
        func take(header bytes: UnsafeMutablePointer<CChar>, _ count: Int) -> Int {
            headerBytes += count
            guard headerBytes <= headerLimit else {
                headersOverflowed = true
                return 0
            }
            let line = bytes.withMemoryRebound(to: UInt8.self, capacity: count) {
                String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self)
            }
            if line.hasPrefix("HTTP/") {
                headers = [:]
            } else if let colon = line.firstIndex(of: ":") {
                let name = line[..<colon].trimmingWhitespace().lowercased()
                headers[name] = line[line.index(after: colon)...].trimmingWhitespace()
            }
            return count
        }
    }

    /// C strings that must outlive the transfer that uses them.
    private struct CStrings {
        private var pointers: [UnsafeMutablePointer<CChar>] = []

        mutating func keep(_ text: String) -> UnsafeMutablePointer<CChar>? {
            guard let copy = strdup(text) else { return nil }
            pointers.append(copy)
            return copy
        }

        mutating func free() {
            pointers.forEach { Glibc.free($0) }
            pointers = []
        }
    }
}

/// One libcurl handle kept for many transfers, one at a time, on the thread that owns it: libcurl
/// keeps the handle's connections open between them, so the requests of one refresh to one
/// provider share a connection (and its TLS session) instead of opening one each.
public final class CurlConnection {
    private let handle: UnsafeMutableRawPointer?

    public init() {
        handle = CurlHTTPClient.loadProblem() == nil ? tt_curl_easy_init() : nil
    }

    deinit { if let handle { tt_curl_easy_cleanup(handle) } }

    /// A GET (redirects followed) or, with `body`, a POST, as `CurlHTTPClient` makes them.
    public func perform(
        _ url: URL, method: String?, headers: [String: String], body: Data?, timeout: TimeInterval, maximumBodyBytes: Int
    ) throws -> HTTPResponse {
        if let problem = CurlHTTPClient.loadProblem() { throw HTTPClientError.permanent(problem) }
        guard let handle else { throw HTTPClientError.connection("libcurl could not start a transfer") }
        // Every option back to its default; the connections and caches stay.
        tt_curl_easy_reset(handle)
        let client = CurlHTTPClient(maximumBodyBytes: maximumBodyBytes)
        if let method, method != "GET", method != "POST", !CurlHTTPClient.otherMethods.contains(method) {
            throw HTTPClientError.permanent("no such method: \(DisplayText.line(method))")
        }
        let sendsBody = method == "POST" || (method.map(CurlHTTPClient.otherMethods.contains) ?? false) && body != nil
        return try client.transfer(
            on: handle, url, method: method, body: sendsBody ? body ?? Data() : nil, headers: headers, timeout: timeout)
    }
}

/// libcurl's option, information and error numbers (curl/curl.h; stable across versions).
private enum Curl {
    // Options: CURLOPTTYPE_LONG + n, OBJECTPOINT 10000 + n, FUNCTIONPOINT 20000 + n, OFF_T 30000 + n.
    static let writeData: Int32 = 10_001
    static let url: Int32 = 10_002
    static let writeFunction: Int32 = 20_011
    static let postFields: Int32 = 10_015
    static let customRequest: Int32 = 10_036
    static let userAgent: Int32 = 10_018
    static let httpHeader: Int32 = 10_023
    static let headerData: Int32 = 10_029
    static let noProgress: Int32 = 43
    static let post: Int32 = 47
    static let followLocation: Int32 = 52
    static let maximumRedirects: Int32 = 68
    static let headerFunction: Int32 = 20_079
    static let noSignal: Int32 = 99
    static let acceptEncoding: Int32 = 10_102
    static let maximumFileSize: Int32 = 30_117
    static let postFieldSize: Int32 = 30_120
    static let timeoutMilliseconds: Int32 = 155
    static let connectTimeoutMilliseconds: Int32 = 156
    static let protocols: Int32 = 10_318
    static let redirectProtocols: Int32 = 10_319
    // Information: CURLINFO_STRING 0x100000 + n, CURLINFO_LONG 0x200000 + n.
    static let responseCode: Int32 = 0x200002
    static let redirectURL: Int32 = 0x10001F
    // Errors.
    static let unsupportedProtocol: Int32 = 1
    static let malformedURL: Int32 = 3
    static let timedOut: Int32 = 28
    static let tooManyRedirects: Int32 = 47
    static let certificateProblem: Int32 = 58
    static let peerFailedVerification: Int32 = 60
    static let badContentEncoding: Int32 = 61
    static let fileSizeExceeded: Int32 = 63
    static let certificateFileUnusable: Int32 = 77
    static let tooLarge: Int32 = 100
}
