import Basics
import CommuteDelivery
import CommuteModel
@_spi(Store) import CommuteStore
import FoundationEssentials

/// `config.json`: where `refresh` reads from, and the WSDOT access code. Mode 0600 like every
/// store file; the only file the access code is ever written to.
public struct Configuration: StoreDocument, Equatable {
    public static let fileName = "config.json"
    public static let domain = StoreDomain.config

    public var version: Int
    /// A URL or a file path.
    public var source: String?
    public var accessCode: String?
    /// How late an alert may still be delivered, in seconds (default 10 minutes).
    public var graceSeconds: Int?
    /// Where alerts go; none configured means stdout.
    public var notifiers: [Notifier]?
    /// Standard alerts are held back in this local window: `22:00-06:00`.
    public var quietHours: QuietHours?
    /// The most standard alerts delivered per local day (default 20).
    public var standardDailyCap: Int?
    /// Routes watched for delays (critical alerts after each refresh).
    public var watches: [DelayWatch]?
    /// The IANA zone the schedules live in: every command uses it, whatever `TZ` the host or cron
    /// has (`TRAVELTIMES_TZ` overrides it for one command). Saved when the first schedule is added.
    public var timeZone: String?
    /// Routing providers' keys, by provider (`tomtom`, `here`, `google`): secrets, like the
    /// access code.
    public var providerKeys: [String: String]?
    /// Keyed providers' addresses in place of their own (`config set here-url`), by provider.
    public var providerURLs: [String: String]?
    /// Requests a day per provider, over the defaults (`config set budget.here 500`).
    public var budgets: [String: Int]?
    /// How far ahead an alert puts its custom routes in play, in minutes (default 60).
    public var leadMinutes: Int?
    /// The least time between two requests for the same custom route, in minutes (default 10).
    public var minIntervalMinutes: Int?
    /// False when custom routes are asked about now, every `minIntervalMinutes` while in play
    /// (`config set plan-requests off`); nil (on) when each is asked when its alerts need it, about
    /// the planned moment of leaving.
    public var planRequests: Bool?
    /// How old the data an alert in its lead window may be, or how long refreshes may fail, before
    /// a health alert says so, in minutes (default 60; 0 turns health alerts off).
    public var staleAfterMinutes: Int?
    /// How long after it fires a fixed-time alert (and a watch or health alert) is cleared from
    /// the channels that can clear, in minutes (default 120). Arrive-by alerts are cleared at
    /// their arrival.
    public var alertLifetimeMinutes: Int?
    /// How far a followed transit trip may move, late or early, before its leave alert is updated,
    /// in minutes (default 5; 0 follows no trip).
    public var followThresholdMinutes: Int?
    /// The notifiers health alerts go to, by name; nil for every one.
    public var healthNotify: [String]?
    /// How many days of measured travel times are kept (default 400); 0 records none.
    public var historyDays: Int?
    /// How many weeks back typical times look (default 8).
    public var typicalWeeks: Int?
    /// How the user can be reached, named in every request to a public service's User-Agent
    /// (`config set contact me@example.org`).
    public var contact: String?
    /// A self-hosted MOTIS in place of Transitous (`config set transitous-url`).
    public var transitousURL: String?
    /// A Nominatim in place of the public one (`config set geocoder-url`).
    public var geocoderURL: String?
    /// Self-hosted engines in place of the public OSRM and Valhalla (`config set osrm-url`).
    public var osrmURL: String?
    public var valhallaURL: String?
    /// What an arrive-by leave time multiplies a free-flow estimate by (`config set
    /// free-flow-margin 1.25`): traffic makes a drive slower than the open road.
    public var freeFlowMargin: Double?

    /// How distances are shown (`config set units km`); nil for the zone's country's unit.
    public var units: DistanceUnit?

    /// The unit in force: the one set, else that of the country `zone` is in.
    public func unitsInForce(zone: IANAZone) -> DistanceUnit { units ?? DistanceUnit(countryCode: zone.countryCode) }

    public static let defaultFreeFlowMargin = 1.25
    /// The margin in force.
    public var freeFlowMarginInForce: Double { freeFlowMargin ?? Self.defaultFreeFlowMargin }

    /// A provider's base URL set in the configuration (`config set PROVIDER-url`). The keyless
    /// services keep theirs in fields of their own, as config.json has had them since 0.3.
    public func baseURL(for provider: RouteProvider) -> String? {
        switch provider {
        case .transitous: transitousURL
        case .osrm: osrmURL
        case .valhalla: valhallaURL
        // Every other provider, and any added after, in one map.
        default: providerURLs?[provider.rawValue]
        }
    }

    /// Sets (or, with nil, clears) a provider's base URL where `baseURL(for:)` reads it.
    public mutating func setBaseURL(_ base: String?, for provider: RouteProvider) {
        switch provider {
        case .transitous: transitousURL = base
        case .osrm: osrmURL = base
        case .valhalla: valhallaURL = base
        default:
            var urls = providerURLs ?? [:]
            urls[provider.rawValue] = base
            providerURLs = urls.isEmpty ? nil : urls
        }
    }
    /// Transit agencies' GTFS feeds (`transit add`): their URLs and headers may hold keys.
    public var transitFeeds: [TransitFeed]?
    /// Calendars: their events' departures, or the days they pause every schedule.
    public var calendars: [CalendarSource]?
    /// Where the commute is published: Home Assistant, MQTT, an iCalendar file, a Prometheus
    /// textfile (a token or a broker's password may be among them).
    public var exports: [ExportTarget]?

    /// The most transit feeds.
    public static let largestTransitFeedCount = 20

    public static let defaultLeadMinutes = 60
    public static let defaultMinIntervalMinutes = 10
    public static let defaultStaleAfterMinutes = 60
    public static let defaultAlertLifetimeMinutes = 120
    public static let defaultFollowThresholdMinutes = 5
    /// The widest follow-threshold: two hours, in minutes.
    public static let longestFollowThreshold = 120
    public static let defaultHistoryDays = 400
    /// The longest retention: ten years.
    public static let longestHistoryDays = 3_650
    /// The most weeks typical times look back: a year.
    public static let longestTypicalWeeks = 52
    /// The longest stale-after: a week, in minutes.
    public static let longestStaleAfter = 10_080
    /// The longest lead and minimum interval: a day, in minutes.
    public static let longestProviderInterval = 1_440
    /// The largest daily budget that may be configured.
    public static let largestBudget = 1_000_000

    /// The key for a provider saved with `config set`, if any.
    public func key(for provider: RouteProvider) -> String? { providerKeys?[provider.rawValue] }

    /// The requests a day a provider may be sent.
    public func budget(for provider: RouteProvider) -> Int { budgets?[provider.rawValue] ?? provider.defaultBudget }

    public static let defaultStandardDailyCap = 20
    /// The largest daily cap that may be configured.
    public static let largestDailyCap = 1_000
    /// The most critical (delay watch) alerts per local day.
    public static let criticalDailyCap = 3

    public static let defaultGrace = 600

    public init(source: String? = nil, accessCode: String? = nil) {
        version = Self.currentVersion
        self.source = source
        self.accessCode = accessCode
    }

    /// How long after it fires an alert is cleared, in seconds.
    public var alertLifetime: Int { (alertLifetimeMinutes ?? Self.defaultAlertLifetimeMinutes) * 60 }

    /// The follow-threshold in force, in minutes; nil when following is off.
    public var followThreshold: Int? {
        let minutes = followThresholdMinutes ?? Self.defaultFollowThresholdMinutes
        return minutes > 0 ? minutes : nil
    }

    /// Days of history kept; 0 when none is recorded.
    public var historyRetentionDays: Int { historyDays ?? Self.defaultHistoryDays }
    /// Weeks typical times look back.
    public var typicalTimeWeeks: Int { typicalWeeks ?? TypicalTime.defaultWeeks }

    /// The configured notifiers, or stdout alone.
    public var effectiveNotifiers: [Notifier] {
        guard let notifiers, !notifiers.isEmpty else { return [Notifier(id: 0, kind: .stdout)] }
        return notifiers
    }

    public static var empty: Configuration { Configuration() }
}
