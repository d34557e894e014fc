import Basics
import CommuteModel
@_spi(Store) import CommuteSources
@_spi(Store) import CommuteStore
import FoundationEssentials
@_spi(Store) import CommuteHistory

/// How custom routes reach their providers: the keys (from the environment or `config.json`),
/// where each provider answers, and the HTTP client.
public struct ProviderAccess: Sendable {
    public var keys: [RouteProvider: String]
    /// The base URL of each provider: its own, or the one an environment variable put instead.
    public var baseURLs: [RouteProvider: String]
    public var client: any HTTPClient
    /// Monotonic seconds, and a way to wait: injected so the policy is tested without waiting.
    public var clock: @Sendable () -> TimeInterval
    public var sleep: @Sendable (TimeInterval) -> Void
    /// What every request says it is: `traveltimes/VERSION (+CONTACT)`.
    public var userAgent = Product.userAgent(contact: nil)
    /// The wall clock, which every process shares: a public service's pace is kept by it.
    public var wallClock: @Sendable () -> Date = { Date() }

    public init(
        keys: [RouteProvider: String], baseURLs: [RouteProvider: String] = [:], client: any HTTPClient,
        clock: @escaping @Sendable () -> TimeInterval = { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 },
        sleep: @escaping @Sendable (TimeInterval) -> Void = { sleepFor($0) }
    ) {
        self.keys = keys
        self.baseURLs = baseURLs
        self.client = client
        self.clock = clock
        self.sleep = sleep
    }

    /// Every key: removed from anything that is shown or recorded, a provider's echo included.
    public var secrets: [String] {
        keys.values.flatMap { key in [key, key.percentEncoded(keeping: .alphanumerics)] }
    }

    func base(for provider: RouteProvider) -> String { baseURLs[provider] ?? provider.defaultBaseURL }
}

extension Store {
    /// A keyless service's pace, shared by every process of this store: one request a second, and
    /// no more a minute than its policy allows.
    func pace(of provider: RouteProvider) -> RequestPace { pace(named: provider.rawValue, perMinute: provider.requestsPerMinute) }

    /// A public service's pace file in the store: one request a second, at most `perMinute`.
    func pace(named name: String, perMinute: Int) -> RequestPace {
        RequestPace(path: "\(directory)/\(name).pace", minimumGap: 1, perMinute: perMinute)
    }
}

extension CustomRoutes {
    /// Why a custom route has no new time from this request.
    public enum CustomFetchFailure: Error, Sendable, Equatable, CustomStringConvertible {
        /// No key for the provider, in the environment or `config.json`.
        case noKey(RouteProvider)
        case keyRejected(RouteProvider, String)
        /// The provider's daily budget is spent: nothing more is sent today.
        case budgetSpent(RouteProvider, budget: Int)
        case noRoute(String)
        /// A refusal no retry would mend (a 400 with its reason, an answer of the wrong shape).
        case refused(String)
        /// Retries ran out, or the deadline passed while waiting for an answer.
        case gaveUp(String)
        /// The deadline passed before a request was sent: nothing was asked, and nothing charged.
        case notAsked(RouteProvider)

        public var description: String {
            switch self {
            case .noKey(let provider):
                "no \(provider.displayName) key: `traveltimes config set \(provider.keySetting) KEY` (or set \(provider.keyVariable?.name ?? "its variable"))"
            case .keyRejected(let provider, let message):
                "\(provider.displayName) rejected the key (\(message)): set a valid one with "
                    + "`traveltimes config set \(provider.keySetting) KEY` (or \(provider.keyVariable?.name ?? "its variable"))"
            case .budgetSpent(let provider, let budget):
                "\(provider.displayName)'s daily budget of \(budget) requests is spent (`config set \(provider.budgetSetting) N`)"
            case .noRoute(let message): "no route: \(message)"
            case .refused(let message): message
            case .gaveUp(let message): message
            case .notAsked(let provider): "not asked: the refresh's time ran out before its turn (no \(provider.displayName) request was sent)"
            }
        }

        /// The budget is spent: a route skipped, not failed.
        public var isBudget: Bool {
            if case .budgetSpent = self { return true }
            return false
        }

        /// Nothing was sent for it — the budget is spent, or the time ran out first: a route
        /// skipped, not failed, and no request charged.
        public var isSkip: Bool {
            switch self {
            case .budgetSpent, .notAsked: true
            default: false
            }
        }

        /// A problem with the provider's setup (key, budget) rather than with this route.
        public var isProviderWide: Bool {
            switch self {
            case .noKey, .keyRejected, .budgetSpent: true
            default: false
            }
        }
    }

    /// The most requests one measurement sends: the first and two retries.
    public static let maximumAttempts = 3

    /// The local day the budgets count in: `2026-11-23`.
    public var budgetDay: String { today.iso }

    /// Asks the provider for a route's time now: each attempt is counted against the daily budget
    /// (across processes) before it is sent; connection failures and 5xx are tried again after 1 s
    /// and 2 s, and a 429 after its Retry-After, while `deadline` (on `access.clock`) allows — at
    /// most `maximumAttempts` requests in all: a failing server is not worth a day's budget.
    /// Throws only what no route could get past: a missing fetch helper, a store that cannot count.
    /// `reserved`: the first attempt was counted already (a refresh counts its routes' first
    /// requests together, in one write).
    public func measure(
        _ custom: Route.Custom, access: ProviderAccess, budget: Int, deadline: TimeInterval, reserved: Bool = false,
        query: RoutingQuery? = nil
    ) throws -> Result<RoutingAPI.Measurement, CustomFetchFailure> {
        let provider = custom.provider
        let key = access.keys[provider] ?? ""
        guard !provider.needsKey || !key.isEmpty else { return .failure(.noKey(provider)) }
        let query = query ?? .now(now)
        guard var request = RoutingAPI.request(
            for: custom, key: key, base: access.base(for: provider), query: query)
        else {
            return .failure(.refused("the \(provider.displayName) URL cannot be built from \(provider.baseURLVariable)"))
        }
        request.headers["User-Agent"] = access.userAgent
        let day = budgetDay
        var attempt = 0
        var last = "no answer"
        let redact = { (text: String) in FeedSource.redact(text, secrets: access.secrets) }
        while true {
            let remaining = deadline - access.clock()
            guard remaining > 0 else {
                // The caller gives back a first request it reserved and this never sent.
                guard attempt > 0 else { return .failure(.notAsked(provider)) }
                return .failure(.gaveUp("no answer from \(provider.displayName) by the deadline (last: \(last))"))
            }
            if !reserved || attempt > 0 {
                guard try store.updateRefreshLog({ $0.reserveRequest(to: provider, on: day, budget: budget) }) else {
                    guard attempt > 0 else { return .failure(.budgetSpent(provider, budget: budget)) }
                    // Requests were sent and failed: that is the result, the budget only why no
                    // more were tried.
                    return .failure(.gaveUp(
                        "\(provider.displayName) failed \(attempt) time\(attempt == 1 ? "" : "s") (last: \(last)); not tried again: "
                            + "the daily budget of \(budget) requests is spent"))
                }
            }
            var pause = FeedFetcher.backoff[min(attempt, FeedFetcher.backoff.count - 1)]
            // A public service's turn, shared by every process: never two requests in its gap.
            if !provider.needsKey, try !store.pace(of: provider).admit(
                latest: access.wallClock().addingTimeInterval(deadline - access.clock()), clock: access.wallClock, sleep: access.sleep)
            {
                return .failure(attempt == 0 ? .notAsked(provider) : .gaveUp("no turn at \(provider.displayName) before the deadline (last: \(last))"))
            }
            do {
                let response = try request.body.map {
                    try access.client.post(request.url, headers: request.headers, body: $0, timeout: remaining)
                } ?? access.client.get(request.url, headers: request.headers, timeout: remaining)
                switch RoutingAPI.interpret(response, from: provider, query: query) {
                case .success(let measurement): return .success(measurement)
                case .failure(.keyRejected(let message)): return .failure(.keyRejected(provider, redact(message)))
                case .failure(.noRoute(let message)): return .failure(.noRoute(redact(message)))
                case .failure(.refused(let message)): return .failure(.refused("\(provider.displayName) refused: \(redact(message))"))
                case .failure(.badAnswer(let message)): return .failure(.refused("\(provider.displayName) answered oddly: \(message)"))
                case .failure(.server(let status)): last = "HTTP \(status)"
                case .failure(.rateLimited(let after)):
                    last = "HTTP 429 (too many requests)"
                    if let after { pause = after }
                }
            } catch HTTPClientError.helperMissing(let path) {
                throw FetchError.helperMissing(path: path)
            } catch HTTPClientError.timedOut {
                return .failure(.gaveUp("no answer from \(provider.displayName) by the deadline (last: \(last))"))
            } catch HTTPClientError.tooLarge(let limit) {
                return .failure(.refused("\(provider.displayName)'s answer is over \(limit) bytes"))
            } catch HTTPClientError.permanent(let reason) {
                return .failure(.refused("\(provider.displayName) cannot be reached: \(redact(reason))"))
            } catch HTTPClientError.connection(let reason) {
                last = redact(reason)
            } catch {
                last = redact(String(describing: error))
            }
            attempt += 1
            guard attempt < Self.maximumAttempts, access.clock() + pause < deadline else {
                return .failure(.gaveUp("\(provider.displayName) failed \(attempt) time\(attempt == 1 ? "" : "s") (last: \(last))"))
            }
            access.sleep(pause)
        }
    }

    // MARK: Adding, editing, removing

    /// A custom route as `route add` makes it: named, or described by its ends and provider.
    public static func customRoute(id: RouteID, name: String?, custom: Route.Custom, at now: Date) -> Route {
        Route(
            id: id, name: name, description: "\(custom.from) → \(custom.to) (\(custom.provider.displayName))", currentMinutes: nil,
            averageMinutes: nil, updatedAt: now, custom: custom)
    }

    /// The route with a measurement taken now.
    static func measured(_ route: Route, _ measurement: RoutingAPI.Measurement, at now: Date, queries: [RoutingQuery] = []) -> Route {
        var route = route
        // A car provider asked about a planned departure: its answer is the prediction for then,
        // not a reading of now (TomTom's is the usual traffic then, its delay 0).
        if route.provider?.predictsTraffic == true {
            guard let query = queries.first, !query.leavingNow else {
                let factor = measurement.usualSeconds.flatMap { usual in measurement.currentSeconds.map { ($0 / usual * 1_000).rounded() / 1_000 } }
                route.noteReading(minutes: measurement.currentMinutes, factor: factor, now: now)
                route.custom?.readingFactor = factor
                return readingOfNow(route, measurement, at: now, queries: queries)
            }
            route.keep(
                Prediction(
                    departure: query.time, minutes: measurement.currentMinutes, seconds: measurement.currentSeconds,
                    usualMinutes: measurement.usualMinutes, askedAt: now),
                now: now)
            route.custom?.fetchedAt = now
            route.custom?.triedAt = now
            return route
        }
        return readingOfNow(route, measurement, at: now, queries: queries)
    }

    /// The route with a reading of now.
    private static func readingOfNow(_ route: Route, _ measurement: RoutingAPI.Measurement, at now: Date, queries: [RoutingQuery]) -> Route {
        var route = route
        route.currentMinutes = measurement.currentMinutes
        route.averageMinutes = measurement.usualMinutes
        route.distanceMiles = measurement.distanceMiles
        route.updatedAt = now
        route.custom?.fetchedAt = now
        route.custom?.triedAt = now
        if let itineraries = measurement.itineraries, case .provider(let custom) = route.kind {
            route.transit = Self.itineraryTransit(custom: custom, itineraries: itineraries, queries: queries, previous: route.transit)
        }
        return route
    }

    /// Two answers' itineraries as one list: each run once (the first answer's), soonest first.
    static func joined(_ first: [TransitDeparture], _ second: [TransitDeparture]) -> [TransitDeparture] {
        (first + second.filter { other in !first.contains { $0.isSameRun(as: other) } }).sorted { $0.expected < $1.expected }
    }

    /// A planner's itineraries as a transit route's departures from the door (no walk before
    /// them: each itinerary begins at the door). They are complete up to the arrival asked for,
    /// or to the last departure (the later, when a time to leave was asked too).
    static func itineraryTransit(custom: Route.Custom, itineraries: [TransitDeparture], queries: [RoutingQuery], previous: Route.Transit?) -> Route.Transit {
        let query = queries.first { $0.arriveBy } ?? queries.first
        var departures = itineraries
        // Asked again for the same arrival: an itinerary offered before and gone now is kept,
        // marked, so that a plan that was on it says why it moved.
        if let query, query.arriveBy, let previous, previous.planner == custom.provider, let covered = previous.coveredUntil, covered >= query.time {
            let earliest = itineraries.map(\.scheduled).min() ?? query.time
            for old in previous.departures where !old.dropped && old.scheduled >= earliest && old.scheduledArrival <= query.time
                && !itineraries.contains(where: { $0.isSameRun(as: old) })
            {
                var gone = old
                gone.dropped = true
                departures.append(gone)
            }
            departures.sort { $0.scheduled < $1.scheduled }
        }
        var transit = Route.Transit(
            feed: custom.provider.rawValue, fromStop: custom.from.description, toStop: custom.to.description, line: nil, walkMinutes: 0,
            fromName: previous?.fromName, toName: previous?.toName, departures: departures)
        transit.planner = custom.provider
        transit.realtimeAt = itineraries.contains { $0.predicted != nil } ? itineraries.first?.expected : nil
        if let query, query.arriveBy {
            let leaving = queries.contains { !$0.arriveBy } ? itineraries.map(\.arrival).max() : nil
            transit.coveredUntil = max(query.time, leaving ?? query.time)
        } else {
            transit.coveredUntil = itineraries.map(\.arrival).max()
        }
        return transit
    }

    /// Saves a new custom route (with the measurement its check took, if any). Its ID must not be
    /// taken.
    /// The measurement is judged (a new route has no history: by its distance alone) and recorded
    /// in its history, as a refresh's would be; a history that cannot be written is not the add's
    /// failure, and comes back in `warnings`.
    public func addCustomRoute(_ route: Route, measurement: RoutingAPI.Measurement?) throws -> AddedCustomRoute {
        if let line = measurement?.line { commute.incidents.keepLines([route.id: line]) }
        let (saved, record) = measurement.map { commute.history.judge(named(Self.measured(route, $0, at: now)), history: nil) } ?? (route, nil)
        try store.updateCustomRoutes { routes in
            // Transit routes share the ID space: their file is read under the same lock.
            guard !routes.contains(where: { $0.id == saved.id }), try !store.transitRoutes().contains(where: { $0.id == saved.id }) else {
                throw CommuteError.routeExists(saved.id)
            }
            routes.append(saved)
        }
        let held = saved.suspiciousMinutes != nil ? [History.heldBack(saved)] : []
        let recorded = saved.provider?.isFreeFlow == true ? nil : record
        let warnings = held + (recorded.map { commute.history.record([(saved.id, $0)]) } ?? [])
        return AddedCustomRoute(route: saved, warnings: warnings.map(\.description))
    }

    /// A custom route as saved, and what to warn of: its reading held back, its history not recorded.
    public struct AddedCustomRoute: Sendable {
        public var route: Route
        public var warnings: [String]
    }

    /// The custom route with this ID.
    public func customRoute(_ id: RouteID) throws -> Route {
        guard let route = try store.routes().routes.first(where: { $0.id == id }) else { throw ModelError.unknownRoute(id) }
        guard route.kind != .feed else { throw CommuteError.notCustom(id) }
        return route
    }

    /// Changes a custom route's name, ends or provider. New ends or a new provider make it a new
    /// route: its old times are dropped, and it is fetched again when next in play.
    public func editCustomRoute(_ id: RouteID, name: String??, from: Coordinate?, to: Coordinate?, provider: RouteProvider?) throws -> Route {
        try store.checkPlanInputs()
        var movedEnds = false
        if try store.transitRoutes().contains(where: { $0.id == id }) {
            throw TransitProblem("route \(id) is a transit route: remove it and add it again to change it (`traveltimes route remove \(id)`)")
        }
        let route = try store.updateCustomRoutes { routes -> Route in
            guard let index = routes.firstIndex(where: { $0.id == id }), case .provider(let old) = routes[index].kind else {
                throw ModelError.unknownRoute(id)
            }
            let custom = Route.Custom(provider: provider ?? old.provider, from: from ?? old.from, to: to ?? old.to)
            var route = routes[index]
            if !custom.isSameRoute(as: old) {
                route = Self.customRoute(id: id, name: route.feedName, custom: custom, at: now)
                movedEnds = true
            }
            if let name { route.feedName = name }
            routes[index] = route
            return route
        }
        // Its history timed other ends: it starts afresh. Failing to remove it leaves readings of
        // the old ends to age out, never a failed edit.
        if movedEnds { try? store.history.remove(id) }
        try commute.reschedule()
        return route
    }

    /// What removing a custom route would do, or did: the favorites cascade, and its watch.
    public struct CustomRemoval: Sendable, Equatable {
        public var cascade: FavoriteRoutes.Cascade?
        public var wasWatched: Bool
    }

    public func previewRemovingCustomRoute(_ id: RouteID) throws -> CustomRemoval {
        _ = try customRoute(id)
        let isFavorite = try store.favorites().routeIDs.contains(id)
        return CustomRemoval(
            cascade: isFavorite ? try commute.favorites.previewRemovingFavorites([id]) : nil,
            wasWatched: try store.configuration().watches?.contains { $0.routeID == id } ?? false)
    }

    /// Removes a custom route and everything that names it: first what refers to it (favorites,
    /// schedules, groups, its watch), then the route itself, so no moment leaves a reference to a
    /// route that is gone.
    public func removeCustomRoute(_ id: RouteID) throws -> Commute.Replanned<CustomRemoval> {
        _ = try customRoute(id)
        // Everything the re-plan reads is checked before the first write.
        try store.checkPlanInputs()
        _ = try store.configuration()
        var removal = CustomRemoval(cascade: nil, wasWatched: false)
        if try store.favorites().routeIDs.contains(id) {
            removal.cascade = try store.updateFavoritesAndSchedules { favorites, book in
                try FavoriteRoutes.cascade(removing: [id], favorites: &favorites, book: &book)
            }
        }
        removal.wasWatched = try store.updateConfiguration { configuration in
            guard configuration.watches?.contains(where: { $0.routeID == id }) == true else { return false }
            configuration.watches?.removeAll { $0.routeID == id }
            return true
        }
        try store.updateCustomRoutes { routes in routes.removeAll { $0.id == id } }
        try store.updateTransit { state in state.routes.removeAll { $0.id == id } }
        unlink(store.transitPath(id.rawValue, "timetable.json"))
        // A route added again under this ID may time other ends: its history goes with it. One
        // that cannot be removed is left to age out, never a failed removal.
        try? store.history.remove(id)
        return Commute.Replanned(change: removal, summary: try commute.reschedule())
    }
}
