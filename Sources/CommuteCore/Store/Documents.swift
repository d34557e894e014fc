import Foundation

/// `routes.json`: the route cache, the one source of truth for travel times.
public struct RouteCache: VersionedDocument, Equatable {
    public var version: Int
    /// When the routes were last saved by a successful refresh.
    public var fetchedAt: Date?
    /// Where they came from, with any secret removed.
    public var source: String?
    public var routes: [Route]

    public init(fetchedAt: Date?, source: String?, routes: [Route]) {
        self.version = Self.currentVersion
        self.fetchedAt = fetchedAt
        self.source = source
        self.routes = routes
    }

    public static var empty: RouteCache { RouteCache(fetchedAt: nil, source: nil, routes: []) }

    /// Routes by ID.
    public var byID: [String: Route] { Dictionary(routes.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first }) }
}

/// `favorites.json`: the user's favourite routes, as ordered IDs only, and their named groups.
public struct Favorites: VersionedDocument, Equatable {
    public var version: Int
    public var routeIDs: [String]
    /// Named sets of favourites ("morning", "home"), for `brief --group`. Every ID is a favourite.
    public var groups: [RouteGroup]

    public init(routeIDs: [String], groups: [RouteGroup] = []) {
        self.version = Self.currentVersion
        self.routeIDs = routeIDs
        self.groups = groups
    }

    public static var empty: Favorites { Favorites(routeIDs: []) }

    /// The group with this name, any case.
    public func group(named name: String) -> RouteGroup? {
        groups.first { $0.name.lowercased() == name.lowercased() }
    }

    private enum CodingKeys: String, CodingKey { case version, routeIDs, groups }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        version = try container.decode(Int.self, forKey: .version)
        routeIDs = try container.decode([String].self, forKey: .routeIDs)
        // Files written before groups existed have none.
        groups = try container.decodeIfPresent([RouteGroup].self, forKey: .groups) ?? []
    }
}

/// A named, ordered set of favourite routes.
public struct RouteGroup: Codable, Sendable, Equatable {
    public var name: String
    public var routeIDs: [String]

    public init(name: String, routeIDs: [String]) {
        self.name = name
        self.routeIDs = routeIDs
    }
}

/// `schedules.json`: the notification schedules.
public struct ScheduleBook: VersionedDocument, Equatable {
    public var version: Int
    public var schedules: [Schedule]

    public init(schedules: [Schedule]) {
        self.version = Self.currentVersion
        self.schedules = schedules
    }

    public static var empty: ScheduleBook { ScheduleBook(schedules: []) }
}

/// `pending.json`: the notification side — what is scheduled to fire, and what the cap deferred.
public struct PendingBook: VersionedDocument, Equatable {
    /// A scheduled trigger with its content, flat as it is written.
    public struct Entry: Codable, Sendable, Equatable {
        public var id: String
        public var scheduleID: UUID
        public var weekday: Weekday
        public var hour: Int
        public var minute: Int
        public var nextFire: Date
        public var title: String?
        public var body: String?

        public init(_ request: TriggerRequest, content: AlertContent?) {
            id = request.id
            scheduleID = request.scheduleID
            weekday = request.weekday
            hour = request.hour
            minute = request.minute
            nextFire = request.nextFire
            title = content?.title
            body = content?.body
        }

        public var request: TriggerRequest {
            TriggerRequest(scheduleID: scheduleID, weekday: weekday, hour: hour, minute: minute, nextFire: nextFire)
        }
    }

    public var version: Int
    /// When the plan was made, and in which zone.
    public var plannedAt: Date?
    public var timeZone: String?
    public var cap: Int
    public var requested: Int
    /// Scheduled, soonest first, each with its content.
    public var requests: [Entry]
    /// Over the cap, soonest first; their content is rendered when they roll into the window.
    public var deferred: [Entry]

    public init(plan: FanOutPlan, plannedAt: Date, timeZone: String) {
        version = Self.currentVersion
        self.plannedAt = plannedAt
        self.timeZone = timeZone
        cap = plan.cap
        requested = plan.requested
        requests = plan.scheduled.map { Entry($0.request, content: $0.content) }
        deferred = plan.deferred.map { Entry($0, content: nil) }
    }

    public init(cap: Int) {
        version = Self.currentVersion
        self.cap = cap
        requested = 0
        requests = []
        deferred = []
    }

    public static var empty: PendingBook { PendingBook(cap: FanOut.defaultCap) }
}

/// `config.json`: where `refresh` reads from, and the WSDOT access code. Mode 0600 like every
/// store file; the only file the access code is ever written to.
public struct Configuration: VersionedDocument, Equatable {
    public var version: Int
    /// A URL or a file path.
    public var source: String?
    public var accessCode: String?

    public init(source: String? = nil, accessCode: String? = nil) {
        version = Self.currentVersion
        self.source = source
        self.accessCode = accessCode
    }

    public static var empty: Configuration { Configuration() }
}

/// `refresh.json`: what the last refresh attempts did, for `status`, the staleness line of
/// `routes`, and conditional requests. Kept apart from `routes.json` so that a failed refresh can
/// be recorded while the cache stays byte-for-byte as it was.
public struct RefreshLog: VersionedDocument, Equatable {
    public var version: Int
    public var lastAttemptAt: Date?
    /// `ok`, `not modified`, or the failure's message (with secrets removed).
    public var lastResult: String?
    public var lastSuccessAt: Date?
    /// Failed attempts since the last success.
    public var failuresSinceSuccess: Int
    /// When the current run of failures began.
    public var failingSince: Date?
    /// The validators of the last fresh response, and the (redacted) source they belong to.
    public var validators: FeedFetcher.Validators?
    public var validatorsSource: String?

    public init() {
        version = Self.currentVersion
        failuresSinceSuccess = 0
    }

    public static var empty: RefreshLog { RefreshLog() }

    public mutating func recordSuccess(at date: Date, result: String) {
        lastAttemptAt = date
        lastResult = result
        lastSuccessAt = date
        failuresSinceSuccess = 0
        failingSince = nil
    }

    public mutating func recordFailure(at date: Date, reason: String) {
        lastAttemptAt = date
        lastResult = reason
        if failuresSinceSuccess == 0 { failingSince = date }
        failuresSinceSuccess += 1
    }
}
