@_spi(Store) import CommuteCore
import Foundation
import TestThreads
import Testing

/// A scripted HTTP client and a clock that only moves when the fetcher sleeps or a request takes time.
final class ScriptedClient: HTTPClient, @unchecked Sendable {
    enum Step {
        case respond(HTTPResponse)
        case fail(HTTPClientError)
    }

    private let lock = NSLock()
    private var steps: [Step]
    private(set) var requests: [(url: URL, headers: [String: String])] = []
    let clock: FakeClock

    init(_ steps: [Step], clock: FakeClock) {
        self.steps = steps
        self.clock = clock
    }

    func get(_ url: URL, headers: [String: String], timeout: TimeInterval) throws -> HTTPResponse {
        let step = lock.withLock { () -> Step in
            requests.append((url, headers))
            return steps.count > 1 ? steps.removeFirst() : steps[0]
        }
        switch step {
        case .respond(let response): return response
        case .fail(let error):
            if error == .timedOut { clock.advance(timeout) }
            throw error
        }
    }
}

final class FakeClock: @unchecked Sendable {
    private let lock = NSLock()
    private var now: TimeInterval = 1_000
    private(set) var sleeps: [TimeInterval] = []

    func read() -> TimeInterval { lock.withLock { now } }
    func advance(_ seconds: TimeInterval) { lock.withLock { now += seconds } }
    func sleep(_ seconds: TimeInterval) {
        lock.withLock {
            sleeps.append(seconds)
            now += seconds
        }
    }
}

@Suite(.ownThreads) struct FeedFetcherTests {
    let url = URL(string: "https://example.invalid/GetTravelTimesAsJson")!
    let json = HTTPResponse(status: 200, headers: ["Content-Type": "application/json"], body: Data("[]".utf8))

    func fetcher(_ steps: [ScriptedClient.Step]) -> (FeedFetcher, ScriptedClient, FakeClock) {
        let clock = FakeClock()
        let client = ScriptedClient(steps, clock: clock)
        let fetcher = FeedFetcher(client: client, clock: { clock.read() }, sleep: { clock.sleep($0) })
        return (fetcher, client, clock)
    }

    @Test func connectionFailuresAnd5xxAreRetriedWithBackoff() throws {
        let (fetcher, client, clock) = fetcher([
            .fail(.connection("refused")), .respond(HTTPResponse(status: 503)), .respond(HTTPResponse(status: 500)), .respond(json),
        ])
        #expect(try fetcher.fetch(url, validators: nil, timeout: 25) == .fresh(Data("[]".utf8), .init()))
        #expect(clock.sleeps == [1, 2, 4])
        #expect(client.requests.count == 4)
    }

    @Test func retriesStopWhenTheNextWouldPassTheDeadline() {
        let (fetcher, _, clock) = fetcher([.respond(HTTPResponse(status: 500))])
        // Attempts at 0, 1, 3, 7 and 11 s; a wait of 4 more would pass 12 s.
        #expect(throws: FetchError.gaveUp(attempts: 5, deadline: 12, last: "HTTP 500")) {
            try fetcher.fetch(url, validators: nil, timeout: 12)
        }
        #expect(clock.sleeps == [1, 2, 4, 4])
    }

    @Test func clientErrorsAreNotRetried() {
        let (fetcher, client, _) = fetcher([.respond(HTTPResponse(status: 403))])
        #expect(throws: FetchError.http(status: 403)) { try fetcher.fetch(url, validators: nil, timeout: 25) }
        #expect(client.requests.count == 1)
    }

    @Test func aHangEndsAtTheDeadline() {
        let (fetcher, _, _) = fetcher([.fail(.timedOut)])
        #expect(throws: FetchError.timedOut(seconds: 3, last: nil)) { try fetcher.fetch(url, validators: nil, timeout: 3) }
    }

    @Test func onlyJSONIsAccepted() {
        let page = HTTPResponse(
            status: 200, headers: ["Content-Type": "text/html"],
            body: Data("<html><head><title> Request Error </title></head><body>bad code</body></html>".utf8))
        #expect(throws: FetchError.html("Request Error")) { try fetcher([.respond(page)]).0.fetch(url, validators: nil, timeout: 5) }
        let untitled = HTTPResponse(status: 400, body: Data("\n<html><body><h1>Bad Request</h1><p>x</p></body></html>".utf8))
        #expect(throws: FetchError.html("Bad Request")) { try fetcher([.respond(untitled)]).0.fetch(url, validators: nil, timeout: 5) }
        let csv = HTTPResponse(status: 200, headers: ["Content-Type": "text/csv"], body: Data("a,b".utf8))
        #expect(throws: FetchError.notJSON(contentType: "text/csv")) { try fetcher([.respond(csv)]).0.fetch(url, validators: nil, timeout: 5) }
        let untyped = HTTPResponse(status: 200, body: Data(" [1]".utf8))
        #expect(throws: Never.self) { try fetcher([.respond(untyped)]).0.fetch(url, validators: nil, timeout: 5) }
    }

    @Test func conditionalRequestsSendTheValidatorsAndAccept304() throws {
        let fresh = HTTPResponse(status: 200, headers: ["Content-Type": "application/json", "ETag": "\"v1\"", "Last-Modified": "Tue, 04 Nov 2025 16:00:00 GMT"], body: Data("[]".utf8))
        let (first, _, _) = fetcher([.respond(fresh)])
        guard case .fresh(_, let validators) = try first.fetch(url, validators: nil, timeout: 5) else {
            Issue.record("expected a fresh body")
            return
        }
        #expect(validators == .init(etag: "\"v1\"", lastModified: "Tue, 04 Nov 2025 16:00:00 GMT"))
        let (second, client, _) = fetcher([.respond(HTTPResponse(status: 304))])
        #expect(try second.fetch(url, validators: validators, timeout: 5) == .notModified)
        #expect(client.requests[0].headers["If-None-Match"] == "\"v1\"")
        #expect(client.requests[0].headers["If-Modified-Since"] == "Tue, 04 Nov 2025 16:00:00 GMT")
    }
}

@Suite(.ownThreads) struct FeedSourceTests {
    @Test func theAccessCodeIsAddedOnlyWhenMissing() {
        let base = URL(string: "https://wsdot.wa.gov/Traffic/api/TravelTimes/TravelTimesREST.svc/GetTravelTimesAsJson")!
        #expect(FeedSource.addingAccessCode("abc-123", to: base).absoluteString == base.absoluteString + "?AccessCode=abc-123")
        let given = URL(string: base.absoluteString + "?AccessCode=mine")!
        #expect(FeedSource.addingAccessCode("abc-123", to: given) == given)
        #expect(FeedSource.addingAccessCode(nil, to: base) == base)
        #expect(FeedSource("https://x.invalid/feed") == .url(URL(string: "https://x.invalid/feed")!))
        #expect(FeedSource("Fixtures/feed.json") == .file("Fixtures/feed.json"))
    }

    @Test func redactionRemovesEveryTraceOfTheCode() {
        #expect(FeedSource.redact("https://h/x?AccessCode=abc-123&b=1") == "https://h/x?AccessCode=REDACTED&b=1")
        #expect(FeedSource.redact("https://h/x?accesscode=abc") == "https://h/x?accesscode=REDACTED")
        #expect(FeedSource.redact("failed: code 1234-5678 rejected", secrets: ["1234-5678"]) == "failed: code REDACTED rejected")
        #expect(FeedSource.redact("nothing to hide") == "nothing to hide")
    }
}
