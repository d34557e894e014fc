@_spi(Store) import CommuteHistory
import CommuteModel
@_spi(Store) import CommuteSources
import FoundationEssentials
@_spi(Store) import CommuteStore

extension Refresh {
    /// Something a refresh reports without failing over it: a route left out, a favorite gone
    /// from the feed, a log that could not be written.
    public struct RefreshWarning: Sendable, Equatable, CustomStringConvertible {
        /// The same from one refresh to the next while the condition lasts: how a repeat is told
        /// from news.
        public var key: String
        public var description: String
        /// Whether the last successful refresh warned about it too.
        public var isRepeat: Bool
    }

    /// What a refresh saved and scheduled.
    public struct RefreshResult: Sendable, Equatable {
        public var routeCount: Int
        public var noData: Int
        public var reschedule: Commute.RescheduleSummary
        /// Favorites that are not in the new feed: they stay favorites and show as unavailable.
        public var missingFavorites: [RouteID]
        /// The server said 304: the cached routes are current, and were rescheduled.
        public var notModified = false
        /// The new routes that favorites, schedules and watches name, by ID, passed forward (to
        /// the delay watches).
        public var routesByID: [RouteID: Route] = [:]
        /// Routes the feed sent that were left out, each holding an impossible value.
        public var droppedRoutes: [WSDOTFeed.DroppedRoute] = []
        /// Everything worth a warning, in order; each marked when the last refresh said it too.
        public var warnings: [RefreshWarning] = []
        /// The custom routes, carried over as they were (the feed does not touch them).
        public var customRoutes: [Route] = []
        /// What could not be recorded in the history: warnings, never the refresh's failure.
        var historyWarnings: [RefreshWarning] = []
        /// Routes whose new reading was held back as outside what the route can be.
        public var suspicious: [Route] = []
    }

    /// A refresh that replaced the route cache and then could not re-plan the alerts: the routes
    /// are new, the pending alerts are not.
    public struct SavedButNotPlanned: Error, CustomStringConvertible {
        public var routeCount: Int
        public var underlying: any Error

        public var description: String {
            "saved \(routeCount) routes to routes.json, but could not re-plan the alerts: \(underlying)"
        }
    }

    /// Fetches the feed from a file or URL, saves it, and re-plans every trigger with it. A
    /// failure before the save changes neither the route cache nor the pending triggers; one after
    /// it is `SavedButNotPlanned`. Every attempt is recorded for `status` when the log can be
    /// written; a log that cannot be is a warning, never the refresh's failure. `display` is the
    /// source as it may be shown and stored; `secrets` are removed from anything recorded.
    public func run(
        from source: FeedSource, display: String, secrets: [String], accessCode: String?, fetcher: FeedFetcher,
        timeout: TimeInterval
    ) throws -> RefreshResult {
        // An unreadable log has no memory of earlier warnings: everything is news.
        let previousWarnings = Set((try? store.refreshLog().warnings) ?? [])
        var result: RefreshResult
        do {
            switch source {
            case .file(let path):
                result = try run(feed: .file(path: path), source: display, deadline: FeedInput.Deadline(seconds: timeout))
            case .url(let url):
                // Validators go back only to the source that issued them, for the routes it sent.
                let header = try? store.routeCacheHeader()
                let validators = header?.source == display ? header?.validators : nil
                let target = FeedSource.addingAccessCode(accessCode, to: url)
                switch try fetcher.fetch(target, validators: validators, timeout: timeout) {
                case .fresh(let data, let newValidators):
                    result = try run(feed: .data(data), source: display, validators: newValidators)
                case .notModified:
                    result = try refreshUnchanged()
                }
            }
        } catch let error as SavedButNotPlanned {
            try? store.updateRefreshLog {
                $0.recordSuccess(at: now, result: FeedSource.redact("saved; alerts not re-planned: \(error.underlying)", secrets: secrets))
            }
            throw error
        } catch {
            let reason = FeedSource.redact(String(describing: error), secrets: secrets)
            let fix = Health.fix(forRefreshFailure: error)
            try? store.updateRefreshLog { $0.recordFailure(at: now, reason: reason, fix: fix) }
            throw error
        }
        result.warnings = warnings(for: result, previous: previousWarnings)
        do {
            let keys = result.warnings.map(\.key)
            try store.updateRefreshLog { log in
                log.recordSuccess(at: now, result: result.notModified ? "not modified" : "ok")
                log.warnings = keys.isEmpty ? nil : keys
            }
        } catch {
            result.warnings.append(RefreshWarning(
                key: "log", description: "this refresh could not be recorded: \(error)", isRepeat: false))
        }
        return result
    }

    private func warnings(for result: RefreshResult, previous: Set<String>) -> [RefreshWarning] {
        let dropped = result.droppedRoutes.map { ("dropped:\($0.id):\($0.reason)", $0.description) }
        let missing = result.missingFavorites.map {
            ("missing:\($0)", "favorite \($0) is not in this feed: it stays a favorite and shows as unavailable")
        }
        let news = (result.suspicious.map(History.heldBack) + result.historyWarnings).map { ($0.key, $0.description) }
        return (dropped + missing + news).map {
            RefreshWarning(key: $0.0, description: $0.1, isRepeat: previous.contains($0.0))
        }
    }

    /// Decodes a feed, saves it as the route cache, then re-plans every trigger with the routes just
    /// decoded — passed forward in memory, never read back from the cache. A feed that cannot be
    /// decoded changes nothing.
    public func run(feed data: Data, source: String, validators: FeedFetcher.Validators? = nil) throws -> RefreshResult {
        try run(feed: .data(data), source: source, validators: validators)
    }

    /// The same, for a feed in a file or in memory. The feed is read a route at a time and each
    /// route written straight to the new cache, so a feed of any size is saved in a small window of
    /// memory; only the routes that favorites, schedules and watches name are kept, for the
    /// reschedule and the watches. A file that sends nothing before `deadline` fails it.
    public func run(
        feed input: FeedInput, source: String, validators: FeedFetcher.Validators? = nil, deadline: FeedInput.Deadline? = nil
    ) throws -> RefreshResult {
        // An unreadable file here names no routes: the routes are still saved (their own
        // domain), and the reschedule then fails on that file with its reason.
        let favorites = (try? store.favorites().routeIDs) ?? []
        let wanted = commute.history.routesInUse(favorites: favorites)
        var kept: [RouteID: Route] = [:]
        var noData = 0
        var dropped: [WSDOTFeed.DroppedRoute] = []
        var readings: [(routeID: RouteID, record: HistoryRecord)] = []
        var suspicious: [Route] = []
        // A reading held back (or taken as confirmed) before is what confirms the next one where
        // there is no history to say so.
        let (feedIDs, custom) = try store.replaceRoutes(
            fetchedAt: now, source: source, validators: validators,
            keeping: { route in route.suspiciousMinutes != nil || route.currentMinutes.map { commute.history.isOutside($0, of: route, history: nil) } == true }
        ) { previous, save in
            try WSDOTFeed.forEachRoute(in: input, deadline: deadline, dropped: { dropped.append($0) }) { fed in
                // The routes in use are judged against their history and recorded; every other
                // route against its distance and the feed's own average.
                let recorded = commute.history.recordsHistory && wanted.contains(fed.id)
                let (route, record) = commute.history.judge(fed, history: recorded ? (try? store.history.contents(of: fed.id)) : nil, previous: previous[fed.id])
                if recorded, let record { readings.append((fed.id, record)) }
                if route.suspiciousMinutes != nil, wanted.contains(route.id) { suspicious.append(route) }
                try save(route)
                if route.status == .noData, route.suspiciousMinutes == nil { noData += 1 }
                if wanted.contains(route.id) { kept[route.id] = route }
            }
        }
        // The custom routes stay as they were: the alerts that name them are planned with them.
        for route in custom where wanted.contains(route.id) { kept[route.id] = route }
        let summary: Commute.RescheduleSummary
        do {
            summary = try commute.reschedule(routes: kept, feedIDs: feedIDs.union(custom.map(\.id)))
        } catch {
            throw SavedButNotPlanned(routeCount: feedIDs.count, underlying: error)
        }
        var result = RefreshResult(
            routeCount: feedIDs.count, noData: noData, reschedule: summary,
            missingFavorites: favorites.filter { !feedIDs.contains($0) && !$0.isValidCustom }, routesByID: kept,
            droppedRoutes: dropped, customRoutes: custom)
        result.historyWarnings = commute.history.record(readings)
        result.suspicious = suspicious
        return result
    }

    /// A refresh with no feed (custom routes, transit feeds): a success only when nothing it was
    /// to refresh failed; else the failure it ends with, which `doctor`, `status`, the metrics and
    /// the health alert then see.
    public func recordRun(result: String, failure: String?) throws {
        try store.updateRefreshLog { log in
            if let failure { log.recordFailure(at: now, reason: failure) } else { log.recordSuccess(at: now, result: result) }
        }
    }

    /// After a 304: the cached routes are current; the alerts are re-planned with them.
    func refreshUnchanged() throws -> RefreshResult {
        let all = try store.routes().routes
        let routes = all.filter { !$0.isProviderRoute }
        let byID = Dictionary(all.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var result = RefreshResult(
            routeCount: routes.count, noData: routes.count(where: { $0.status == .noData }),
            reschedule: try commute.reschedule(routes: byID),
            missingFavorites: ((try? store.favorites().routeIDs) ?? []).filter { byID[$0] == nil }, routesByID: byID)
        result.notModified = true
        result.customRoutes = all.filter(\.isProviderRoute)
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
