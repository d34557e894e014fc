import CommuteCore
import FoundationEssentials

/// `refresh --json`: a public contract. Secrets are already out of every string (the source is
/// shown as `display` shows it; messages went through the same redaction as stderr).
struct RefreshJSON: EveryKeyEncodable {
    struct Routes: EveryKeyEncodable {
        var saved: Int
        var withoutData: Int
        var leftOut: [LeftOut]
    }

    struct LeftOut: EveryKeyEncodable {
        var id: RouteID
        var reason: String
    }

    struct Rescheduled: EveryKeyEncodable {
        var requested: Int
        var scheduled: Int
        var deferred: Int
        var cap: Int
    }

    struct Warning: EveryKeyEncodable {
        var message: String
        /// The last successful refresh said it too (a quiet refresh does not repeat it).
        var isRepeat: Bool
    }

    struct WatchAlert: EveryKeyEncodable {
        var routeID: RouteID
        var direction: String
        var title: String
        /// Why it was held back or failed; nil when it was sent.
        var problem: String?
    }

    struct TransitOutcome: EveryKeyEncodable {
        var feed: String
        var timetable: String?
        var realtime: Bool
        var routes: [RouteID]
        var problems: [String]
    }

    /// One custom route: fetched, skipped or failed, and why.
    struct CustomRoute: EveryKeyEncodable {
        var id: RouteID
        var provider: String
        /// `fetched`, `skipped` or `failed`.
        var result: String
        var reason: String?
        var currentMinutes: Int?
        var usualMinutes: Int?
        /// When its time was fetched (now, or earlier when kept); null before the first time.
        var fetchedAt: String?
    }

    /// The feed's source as shown; null when the feed was not read (no source, or `--route`).
    var source: String?
    var refreshedAt: String
    /// The server answered 304: the saved routes are current, and were kept. Null without a feed.
    var notModified: Bool?
    var routes: Routes?
    /// Why the feed could not be refreshed; null when it was (or was not asked for).
    var feedError: String?
    var missingFavorites: [RouteID]
    /// The last re-plan: after the custom routes when they brought news, else after the feed.
    var rescheduled: Rescheduled?
    var custom: [CustomRoute]
    /// Each transit feed: `timetable` is `fetched`, `unchanged`, `kept` (not due) or null (failed).
    var transit: [TransitOutcome]
    var providers: [ProviderUsageJSON]
    var warnings: [Warning]
    var watchAlerts: [WatchAlert]
    /// Why the delay watches could not be checked; nil when they were.
    var watchProblem: String?

    init(
        _ result: Refresh.RefreshResult?, custom: CustomRoutes.CustomRefreshResult?, source: String?, at moment: String,
        events: [Alerts.WatchEvent], watchProblem: String?, providers: [ProviderUsageJSON], feedError: String?, calendar: ZonedCalendar,
        transit: [Transit.TransitRefreshOutcome] = []
    ) {
        self.transit = transit.map {
            TransitOutcome(feed: $0.feed, timetable: $0.timetable?.rawValue, realtime: $0.realtime, routes: $0.routes, problems: $0.problems)
        }
        self.source = source
        refreshedAt = moment
        notModified = result?.notModified
        routes = result.map { result in
            Routes(
                saved: result.routeCount, withoutData: result.noData,
                leftOut: result.droppedRoutes.map { LeftOut(id: $0.id, reason: $0.reason) })
        }
        self.feedError = feedError
        missingFavorites = result?.missingFavorites ?? []
        rescheduled = (custom?.reschedule ?? result?.reschedule).map { summary in
            Rescheduled(requested: summary.requested, scheduled: summary.scheduled, deferred: summary.deferred, cap: summary.cap)
        }
        self.custom = (custom?.outcomes ?? []).map { outcome in
            CustomRoute(
                id: outcome.routeID, provider: outcome.provider.rawValue, result: outcome.result.rawValue, reason: outcome.reason,
                currentMinutes: outcome.route.currentMinutes, usualMinutes: outcome.route.averageMinutes,
                fetchedAt: outcome.route.custom?.fetchedAt.map { TimeFormatting.iso8601($0, calendar: calendar) })
        }
        self.providers = providers
        warnings = (result?.warnings ?? []).map { Warning(message: $0.description, isRepeat: $0.isRepeat) }
        watchAlerts = events.map {
            WatchAlert(routeID: $0.routeID, direction: $0.direction.rawValue, title: $0.message.title, problem: $0.problem)
        }
        self.watchProblem = watchProblem
    }
}

/// A provider's requests today against its budget, and whether a key is there: for `refresh`,
/// `status` and `doctor`.
struct ProviderUsageJSON: EveryKeyEncodable {
    var provider: String
    var requestsToday: Int
    var budget: Int
    /// Custom routes it serves.
    var routes: Int

    static func all(_ log: RefreshLog?, _ configuration: Configuration, day: String, custom: [Route]) -> [ProviderUsageJSON] {
        RouteProvider.allCases.map { provider in
            ProviderUsageJSON(
                provider: provider.rawValue, requestsToday: log?.requests(to: provider, on: day) ?? 0,
                budget: configuration.budget(for: provider), routes: custom.count { $0.provider == provider })
        }
    }
}
