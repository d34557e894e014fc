import Basics
import CommuteModel
import FoundationEssentials

/// `routes.json`: the route cache, the one source of truth for travel times.
public struct RouteCache: StoreDocument, Equatable {
    public static let fileName = "routes.json"
    public static let domain = StoreDomain.routes
    public static let mapsFile = true
    public static let maximumSize = RegularFile.routeCacheMaximumSize

    public var version: Int
    /// When the routes were last saved by a successful refresh.
    public var fetchedAt: Date?
    /// Where they came from, with any secret removed.
    public var source: String?
    /// The conditional-request validators (ETag, Last-Modified) the server sent with these routes:
    /// kept with the content they describe, so that they are only ever sent back to the source
    /// that issued them, for the routes it sent.
    public var validators: HTTPValidators?
    public var routes: [Route]

    public init(fetchedAt: Date?, source: String?, validators: HTTPValidators? = nil, routes: [Route]) {
        self.version = Self.currentVersion
        self.fetchedAt = fetchedAt
        self.source = source
        self.validators = validators
        self.routes = routes
    }

    /// What precedes the routes in the file: enough to make a conditional request.
    public struct Header: Sendable, Equatable {
        public var fetchedAt: Date?
        public var source: String?
        public var validators: HTTPValidators?
    }

    public static var empty: RouteCache { RouteCache(fetchedAt: nil, source: nil, routes: []) }

    /// Routes by ID.
    public var byID: [RouteID: Route] { Dictionary(routes.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first }) }
}
