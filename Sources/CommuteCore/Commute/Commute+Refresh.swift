import Foundation

extension Commute {
    /// What a refresh saved and scheduled.
    public struct RefreshResult: Sendable, Equatable {
        public var routeCount: Int
        public var noData: Int
        public var reschedule: RescheduleSummary
        /// Favourites that are not in the new feed: they stay favourites and show as unavailable.
        public var missingFavorites: [String]
        /// The server said 304: the cached routes are current, and were rescheduled.
        public var notModified = false
        /// The new routes that favourites, schedules and watches name, by ID, passed forward (to
        /// the delay watches).
        public var routesByID: [String: Route] = [:]
    }

    /// Fetches the feed from a file or URL, saves it, and re-plans every trigger with it. Every
    /// attempt, failed or not, is recorded for `status`; a failure changes neither the route cache
    /// nor the pending triggers. `display` is the source as it may be shown (no secrets).
    public func refresh(
        from source: FeedSource, display: String, accessCode: String?, fetcher: FeedFetcher, timeout: TimeInterval
    ) throws -> RefreshResult {
        do {
            let result: RefreshResult
            switch source {
            case .file(let path):
                result = try refresh(feed: .file(path: path), source: display)
            case .url(let url):
                let log = try store.refreshLog()
                let validators = log.validatorsSource == display ? log.validators : nil
                let target = FeedSource.addingAccessCode(accessCode, to: url)
                switch try fetcher.fetch(target, validators: validators, timeout: timeout) {
                case .fresh(let data, let newValidators):
                    result = try refresh(feed: data, source: display, validators: newValidators)
                case .notModified:
                    result = try refreshUnchanged()
                }
            }
            try store.updateRefreshLog { $0.recordSuccess(at: now, result: result.notModified ? "not modified" : "ok") }
            return result
        } catch {
            let reason = FeedSource.redact(String(describing: error), secrets: accessCode.map { [$0] } ?? [])
            try? store.updateRefreshLog { $0.recordFailure(at: now, reason: reason) }
            throw error
        }
    }

    /// Decodes a feed, saves it as the route cache, then re-plans every trigger with the routes just
    /// decoded — passed forward in memory, never read back from the cache. A feed that cannot be
    /// decoded changes nothing.
    public func refresh(feed data: Data, source: String, validators: FeedFetcher.Validators? = nil) throws -> RefreshResult {
        try refresh(feed: .data(data), source: source, validators: validators)
    }

    /// The same, for a feed in a file or in memory. The feed is read a route at a time and each
    /// route written straight to the new cache, so a feed of any size is saved in a small window of
    /// memory; only the routes that favourites, schedules and watches name are kept, for the
    /// reschedule and the watches.
    public func refresh(feed input: FeedInput, source: String, validators: FeedFetcher.Validators? = nil) throws -> RefreshResult {
        // An unreadable file here names no routes: the routes are still saved (their own
        // domain), and the reschedule or the watches then fail on that file with its reason.
        let wanted = Set((try? store.favorites().routeIDs) ?? [])
            .union(((try? store.schedules().schedules) ?? []).flatMap(\.routeIDs))
            .union(((try? store.configuration().watches) ?? []).map(\.routeID))
        var kept: [String: Route] = [:]
        var noData = 0
        let feedIDs = try store.replaceRoutes(fetchedAt: now, source: source) { save in
            try WSDOTFeed.forEachRoute(in: input) { route in
                try save(route)
                if route.status == .noData { noData += 1 }
                if wanted.contains(route.id) { kept[route.id] = route }
            }
        }
        if validators != nil {
            try store.updateRefreshLog { log in
                log.validators = validators
                log.validatorsSource = source
            }
        }
        return RefreshResult(
            routeCount: feedIDs.count, noData: noData, reschedule: try reschedule(routes: kept, feedIDs: feedIDs),
            missingFavorites: try store.favorites().routeIDs.filter { !feedIDs.contains($0) }, routesByID: kept)
    }

    /// After a 304: the cache stays as it is, and every trigger is re-planned so content ages.
    func refreshUnchanged() throws -> RefreshResult {
        let routes = try store.routes().routes
        let byID = Dictionary(routes.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var result = RefreshResult(
            routeCount: routes.count, noData: routes.count(where: { $0.status == .noData }),
            reschedule: try reschedule(routes: byID),
            missingFavorites: try store.favorites().routeIDs.filter { byID[$0] == nil }, routesByID: byID)
        result.notModified = true
        return result
    }

    /// `keeping routes updated at 6:15 AM (2 h ago)`: what a failed refresh leaves in place; nil
    /// when the cache cannot be read (reading it fails with its own message).
    public func keptDataDescription() -> String? {
        guard let cache = try? store.routes() else { return nil }
        guard let newest = cache.routes.map(\.updatedAt).max() else { return "no routes are cached yet" }
        let moment = TimeFormatting.moment(newest, relativeTo: now, calendar: calendar)
        return "keeping routes updated at \(moment) (\(TimeFormatting.age(now.timeIntervalSince(newest))) ago)"
    }
}
