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
        /// The routes now in force, by ID, passed forward (to the delay watches).
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
                result = try refresh(feed: Self.readFeed(path), source: display)
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
    public func refresh(feed data: consuming Data, source: String, validators: FeedFetcher.Validators? = nil) throws -> RefreshResult {
        let routes = try WSDOTFeed.decode(data)
        // The raw feed is as large as the cache about to be written: let it go first.
        _ = consume data
        try store.replaceRoutes(RouteCache(fetchedAt: now, source: source, routes: routes))
        if validators != nil {
            try store.updateRefreshLog { log in
                log.validators = validators
                log.validatorsSource = source
            }
        }
        let byID = Dictionary(routes.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        return try summarize(routes, byID: byID, reschedule: try reschedule(routes: byID))
    }

    /// After a 304: the cache stays as it is, and every trigger is re-planned so content ages.
    func refreshUnchanged() throws -> RefreshResult {
        let routes = try store.routes().routes
        let byID = Dictionary(routes.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var result = try summarize(routes, byID: byID, reschedule: try reschedule(routes: byID))
        result.notModified = true
        return result
    }

    private func summarize(_ routes: [Route], byID: [String: Route], reschedule: RescheduleSummary) throws -> RefreshResult {
        RefreshResult(
            routeCount: routes.count, noData: routes.count(where: { $0.status == .noData }), reschedule: reschedule,
            missingFavorites: try store.favorites().routeIDs.filter { byID[$0] == nil }, routesByID: byID)
    }

    /// `keeping routes updated at 6:15 AM (2 h ago)`: what a failed refresh leaves in place.
    public func keptDataDescription() -> String {
        guard let cache = try? store.routes(), let newest = cache.routes.map(\.updatedAt).max() else {
            return "no routes are cached yet"
        }
        let moment = TimeFormatting.moment(newest, relativeTo: now, calendar: calendar)
        return "keeping routes updated at \(moment) (\(TimeFormatting.age(now.timeIntervalSince(newest))) ago)"
    }

    static func readFeed(_ path: String) throws -> Data {
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            let reason = (error as? CocoaError)?.code == .fileReadNoSuchFile
                ? "no such file" : (error as NSError).localizedDescription
            throw FeedError.unreadable(path: path, reason: reason)
        }
    }
}
