import CommuteCore
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `HTTPClient` over Foundation's URLSession (FoundationNetworking on Linux). Follows redirects,
/// caches nothing, and stops reading a body past `maximumBodyBytes`.
public final class URLSessionHTTPClient: HTTPClient {
    public let maximumBodyBytes: Int

    public init(maximumBodyBytes: Int = 32 << 20) {
        self.maximumBodyBytes = maximumBodyBytes
    }

    public func get(_ url: URL, headers: [String: String], timeout: TimeInterval) throws -> HTTPResponse {
        try perform(url, method: "GET", headers: headers, body: nil, timeout: timeout)
    }

    public func post(_ url: URL, headers: [String: String], body: Data, timeout: TimeInterval) throws -> HTTPResponse {
        try perform(url, method: "POST", headers: headers, body: body, timeout: timeout)
    }

    private func perform(_ url: URL, method: String, headers: [String: String], body: Data?, timeout: TimeInterval) throws -> HTTPResponse {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        // URLSession's own timeouts fire early on Linux (libcurl rounds them); the semaphore wait
        // below is the real limit, so these only back it up.
        configuration.timeoutIntervalForRequest = timeout + 5
        configuration.timeoutIntervalForResource = timeout + 5
        let transfer = Transfer(limit: maximumBodyBytes)
        let session = URLSession(configuration: configuration, delegate: transfer, delegateQueue: nil)
        defer { session.invalidateAndCancel() }
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout + 5)
        request.httpMethod = method
        request.httpBody = body
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let task = session.dataTask(with: request)
        task.resume()
        // URLSession's own timeouts are per-idle-period; this wait is the hard limit.
        guard transfer.finished.wait(timeout: .now() + timeout) == .success else {
            task.cancel()
            throw HTTPClientError.timedOut
        }
        return try transfer.result()
    }

    /// Collects one transfer's response and body. Delegate callbacks arrive on URLSession's queue.
    private final class Transfer: NSObject, URLSessionDataDelegate, @unchecked Sendable {
        let finished = DispatchSemaphore(value: 0)
        private let limit: Int
        /// Protects `response`, `body`, `failure` and `overflowed`, written by URLSession's queue
        /// and read by the waiting thread.
        private let lock = NSLock()
        private var response: HTTPURLResponse?
        private var body = Data()
        private var failure: (any Error)?
        private var overflowed = false

        init(limit: Int) {
            self.limit = limit
        }

        func urlSession(
            _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
            completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
        ) {
            lock.withLock { self.response = response as? HTTPURLResponse }
            completionHandler(.allow)
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            let stop = lock.withLock {
                guard !overflowed else { return false }
                if body.count + data.count > limit {
                    overflowed = true
                    body = Data()
                    return true
                }
                body.append(data)
                return false
            }
            // Linux ignores a `.cancel` disposition; cancelling the task is what stops the transfer.
            if stop { dataTask.cancel() }
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            lock.withLock {
                failure = error
                if response == nil { response = task.response as? HTTPURLResponse }
            }
            finished.signal()
        }

        func result() throws -> HTTPResponse {
            try lock.withLock {
                if overflowed { throw HTTPClientError.tooLarge(limit: limit) }
                if let failure {
                    if (failure as? URLError)?.code == .timedOut { throw HTTPClientError.timedOut }
                    throw HTTPClientError.connection((failure as NSError).localizedDescription)
                }
                guard let response else { throw HTTPClientError.connection("no response") }
                var headers: [String: String] = [:]
                for (name, value) in response.allHeaderFields {
                    if let name = name as? String, let value = value as? String { headers[name] = value }
                }
                return HTTPResponse(status: response.statusCode, headers: headers, body: body)
            }
        }
    }
}
