import CommuteCore
import FoundationEssentials

extension Commands {

    /// This program's absolute path, for the crontab lines.
    static func executablePath() -> String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? "traveltimes"
    }
}

/// `status --json`: a public contract. A part whose file cannot be read is null, and the reason is
/// in `errors`.
struct StatusJSON: EveryKeyEncodable {
    /// A moment, written as ISO 8601 in the schedules' zone.
    struct Moment: Encodable {
        var date: Date
        var text: String

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(text)
        }
    }

    struct Zone: EveryKeyEncodable {
        var name: String
        /// `saved`, `TRAVELTIMES_TZ` (for this command) or `host` (none saved yet).
        var from: Invocation.ZoneSource
        var saved: String?
    }

    struct Routes: EveryKeyEncodable {
        var count: Int
        var withoutData: Int
        var updatedAt: Moment?
        var fetchedAt: Moment?
        var from: String?
        /// Each source's newest reading: the feed, each provider, each transit feed.
        var sources: [Source]
    }

    struct Source: EveryKeyEncodable {
        /// `wsdot`, `here`, `transit metro`.
        var source: String
        /// Null when it has none (a transit feed's timetable alone, a route never fetched).
        var updatedAt: Moment?
        var stale: Bool
    }

    struct LastRefresh: EveryKeyEncodable {
        var at: Moment
        var result: String
        var lastSuccessAt: Moment?
        var failuresInARow: Int
    }

    struct Schedules: EveryKeyEncodable {
        var count: Int
        var enabled: Int
    }

    struct Pending: EveryKeyEncodable {
        var scheduled: Int
        var deferred: Int
        var cap: Int
        var plannedAt: Moment?
    }

    struct LastAlert: EveryKeyEncodable {
        var at: Moment
        var outcome: String
        /// Outcomes in the last 24 hours, counted.
        var lastDay: [String: Int]
    }

    struct InstalledJSON: EveryKeyEncodable {
        var unitDirectory: String?
        /// The unit files traveltimes wrote there.
        var units: [String]
        var enabledTimers: [String]
        /// Whether the crontab has the traveltimes block; null when there is no crontab command.
        var cronBlock: Bool?
        var summary: String

        init(_ installed: Installation.Installed) {
            unitDirectory = installed.unitDirectory
            units = installed.units
            enabledTimers = installed.enabledTimers
            cronBlock = installed.cronBlock
            summary = installed.summary
        }
    }

    var store: String
    var timeZone: Zone?
    var source: String?
    var routes: Routes?
    var lastRefresh: LastRefresh?
    var favorites: Int?
    var schedules: Schedules?
    var pending: Pending?
    var lastAlert: LastAlert?
    /// Custom routes in the cache; null when it cannot be read.
    var customRoutes: Int?
    /// The pauses in force or to come; null when the schedules cannot be read.
    var pauses: [PauseJSON]?
    /// Each routing provider's requests today against its budget; null without custom routes or keys.
    var providers: [ProviderUsageJSON]?
    /// Each provider's requests per delivered alert over the last 7 days and the month's
    /// projection; empty when no provider was asked in them.
    var requestCosts: [RequestCostJSON] = []
    /// The transit feeds, as `transit list --json` shows them; null when transit.json cannot be read.
    var transit: [TransitFeedJSON]?
    var installed: InstalledJSON
    var errors: [String] = []

    init(store: String, installed: InstalledJSON) {
        self.store = store
        self.installed = installed
    }
}

extension StatusJSON {
    /// The report from what `Commute.storeStatus` read; `configuration` is nil when it could not be.
    init(_ status: Health.StoreStatus, configuration: Configuration?, _ commute: Commute, _ invocation: Invocation) throws {
        let calendar = commute.calendar
        func moment(_ date: Date) -> Moment { Moment(date: date, text: TimeFormatting.iso8601(date, calendar: calendar)) }
        self.init(store: commute.storeDirectory, installed: InstalledJSON(Commands.installed(invocation)))
        if let configuration {
            let (zone, source) = try invocation.timeZone(saved: configuration.timeZone)
            timeZone = Zone(name: zone.identifier, from: source, saved: configuration.timeZone)
            let secrets = configuration.accessCode.map { [$0] } ?? []
            self.source = FeedSource.effective(argument: nil, environment: invocation.environment, saved: configuration.source)
                .map { FeedSource.redact(FeedSource.display($0), secrets: secrets) }
        }
        if let cache = status.routes {
            let custom = cache.routes.filter(\.isProviderRoute)
            customRoutes = custom.count
            if !custom.isEmpty || configuration?.providerKeys != nil {
                providers = ProviderUsageJSON.all(status.refreshLog, commute.configuration, day: commute.customRoutes.budgetDay, custom: custom)
                requestCosts = commute.health.requestCosts().map(RequestCostJSON.init)
            }
            routes = Routes(
                count: cache.routes.count, withoutData: cache.routes.count(where: { $0.status == .noData }),
                updatedAt: cache.routes.map(\.updatedAt).max().map(moment), fetchedAt: cache.fetchedAt.map(moment), from: cache.source,
                sources: (status.sources ?? []).map { Source(source: $0.source.label, updatedAt: $0.updatedAt.map(moment), stale: $0.staleness != nil) })
        }
        if let log = status.refreshLog, let attempt = log.lastAttemptAt, let result = log.lastResult {
            lastRefresh = LastRefresh(
                at: moment(attempt), result: DisplayText.line(result), lastSuccessAt: log.lastSuccessAt.map(moment),
                failuresInARow: log.failuresSinceSuccess)
        }
        transit = status.transit?.map { TransitFeedJSON($0.feed, state: $0.state, routes: $0.routes, calendar: calendar) }
        favorites = status.favorites
        if let summary = status.schedules {
            schedules = Schedules(count: summary.count, enabled: summary.enabled)
        }
        pauses = status.pauses?.map(PauseJSON.init)
        if let plan = status.pending {
            pending = Pending(scheduled: plan.scheduled, deferred: plan.deferred, cap: plan.cap, plannedAt: plan.plannedAt.map(moment))
        }
        if let decisions = status.decisions, let last = decisions.last {
            let recent = decisions.filter { commute.now.timeIntervalSince($0.at) < 86_400 }
            lastAlert = LastAlert(
                at: moment(last.at), outcome: last.outcome.rawValue,
                lastDay: Dictionary(grouping: recent, by: \.outcome.rawValue).mapValues(\.count))
        }
        errors = status.errors.map { DisplayText.line(String(describing: $0)) }
    }
}

/// A provider's cost per alert, as `status --json` gives it.
struct RequestCostJSON: EveryKeyEncodable {
    var provider: String
    var requests: Int
    var alerts: Int
    var days: Int
    /// Requests per delivered alert; null with no alert delivered.
    var perAlert: Double?
    var projectedThisMonth: Int
    var monthBudget: Int
    /// The cost itself, for the text: not `Encodable`, so not one of the JSON's keys.
    let cost: RequestCost

    init(_ cost: RequestCost) {
        self.cost = cost
        provider = cost.provider.rawValue
        requests = cost.requests
        alerts = cost.alerts
        days = cost.days
        perAlert = cost.perAlert.map { ($0 * 100).rounded() / 100 }
        projectedThisMonth = cost.projected
        monthBudget = cost.monthBudget
    }
}
