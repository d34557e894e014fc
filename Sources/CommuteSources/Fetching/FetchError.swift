import Basics
/// Why a fetch failed. Every one leaves the route cache and the pending alerts as they were.
public enum FetchError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The whole-operation deadline passed; `last` says what the last attempt met.
    case timedOut(seconds: Double, last: String?)
    /// Retries failed and the next one would not fit in the deadline.
    case gaveUp(attempts: Int, deadline: Double, last: String)
    /// A response that retrying will not fix: 4xx, or a status other than 200.
    case http(status: Int)
    /// An HTML page where JSON was expected (a bad access code gives one); its title or first line.
    case html(String)
    /// A 200 whose body is neither JSON nor HTML.
    case notJSON(contentType: String?)
    /// The body was larger than the limit.
    case tooLarge(limit: Int)
    /// No connection could be made, and the deadline left no time to keep trying.
    case unreachable(String)
    /// A failure that trying again cannot mend (a redirect to another protocol, oversized headers,
    /// a certificate that does not verify): reported at once, not retried.
    case refused(String)
    /// The program run as the fetch helper (this one, or `TRAVELTIMES_FETCH_HELPER`) is not there.
    case helperMissing(path: String)

    public var description: String {
        switch self {
        case .timedOut(let seconds, let last):
            "timed out after \(Self.format(seconds)) s" + (last.map { " (last attempt: \($0))" } ?? "")
        case .gaveUp(let attempts, let deadline, let last):
            "gave up after \(attempts) attempts (last: \(last)); another would not finish within the \(Self.format(deadline)) s deadline"
        case .http(let status):
            "the server answered HTTP \(status)"
        case .html(let title):
            "the server sent an HTML page instead of the feed: \"\(title)\" (a bad access code does this)"
        case .notJSON(let contentType):
            "the server sent \(contentType ?? "a body with no content type"), not JSON"
        case .tooLarge(let limit):
            "the response is larger than \(limit >> 20) MiB; refusing it"
        case .unreachable(let reason):
            "cannot reach the server: \(reason)"
        case .refused(let reason):
            "\(reason) (not retried: trying again cannot help)"
        case .helperMissing(let path): FetchHelper.missing(path)
        }
    }

    static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() && abs(seconds) < 1e15 ? String(Int(seconds)) : String(cFormat: "%.1f", seconds)
    }
}
