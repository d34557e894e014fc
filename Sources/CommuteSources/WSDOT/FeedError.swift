/// Why a feed was refused. Any of these leaves the route cache and the pending triggers untouched.
public enum FeedError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The feed file could not be read.
    case unreadable(path: String, reason: String)
    /// The bytes are not JSON.
    case notJSON(String)
    /// JSON, but not the travel-times array.
    case wrongShape(String)
    /// An empty array: no routes at all.
    case empty
    /// One route could not be read; the whole feed is refused.
    case badRoute(index: Int, reason: String)
    /// More routes than any travel-times feed has: refused before they fill the disk.
    case tooManyRoutes(limit: Int)
    /// A file or pipe sent nothing more for the whole deadline.
    case timedOut(path: String, seconds: Double)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason):
            "cannot read feed \(path): \(reason)"
        case .notJSON(let reason):
            "the feed is not valid JSON: \(reason)"
        case .wrongShape(let reason):
            "the feed is not a WSDOT travel-times array: \(reason)"
        case .empty:
            "the feed has no routes"
        case .badRoute(let index, let reason):
            "route #\(index + 1) in the feed cannot be read: \(reason)"
        case .tooManyRoutes(let limit):
            "the feed has more than \(limit) routes; no travel-times feed is that large"
        case .timedOut(let path, let seconds):
            "timed out after \(FetchError.format(seconds)) s reading \(path)"
        }
    }
}
