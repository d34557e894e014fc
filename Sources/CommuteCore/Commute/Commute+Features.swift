import Basics
import CommuteModel
@_spi(Store) import CommuteStore
import FoundationEssentials

/// The features the door hands out, each over the commute it was opened with: what a command
/// calls is `commute.schedules.add(…)`, `commute.alerts.tick(…)`.
extension Commute {
    /// Schedules, their pauses, and the alerts planned from them.
    public var schedules: Schedules { Schedules(commute: self) }
    /// The favorite routes and their groups.
    public var favorites: FavoriteRoutes { FavoriteRoutes(commute: self) }
    /// Every route as it is now: listings, one route's detail, the brief, each source's age.
    public var routes: Routes { Routes(commute: self) }
    /// Routes measured by a routing provider.
    public var customRoutes: CustomRoutes { CustomRoutes(commute: self) }
    /// Places saved by name, and finding them by text.
    public var places: Places { Places(commute: self) }
    /// Transit feeds, their stops, and transit routes.
    public var transit: Transit { Transit(commute: self) }
    /// Car routes' lines, and the incident feed's notices on them (Germany's Autobahn API).
    public var incidents: Incidents { Incidents(commute: self) }
    /// Fetching the feed, and what refreshes reported.
    public var refresh: Refresh { Refresh(commute: self) }
    /// Every travel time measured, what is usual, and the best time to leave.
    public var history: History { History(commute: self) }
    /// Commutes with several ways (drive, bus), and which is best now.
    public var ways: Ways { Ways(commute: self) }
    /// Delivering alerts: `tick`, delay watches, the ledger, and notifications already out there.
    public var alerts: Alerts { Alerts(commute: self) }
    /// The notifiers and the delay watches that use them.
    public var notifiers: Notifiers { Notifiers(commute: self) }
    /// Whether alerts can be trusted: health alerts, `doctor`'s checks, `status`.
    public var health: Health { Health(commute: self) }
    /// `config set` and `config unset`.
    public var settings: Settings { Settings(commute: self) }
    /// Calendars whose events are departures, or days off.
    public var calendars: Calendars { Calendars(commute: self) }
    /// Where the commute is published: Home Assistant, MQTT, an iCalendar file, Prometheus.
    public var exports: Exports { Exports(commute: self) }
}

/// A feature of the commute: its operations see the commute's store, configuration and clock.
public protocol CommuteFeature: Sendable {
    var commute: Commute { get }
}

extension CommuteFeature {
    var store: Store { commute.store }
    var configuration: Configuration { commute.configuration }
    var configurationError: StoreError? { commute.configurationError }
    var now: Date { commute.now }
    var timeZone: IANAZone { commute.timeZone }
    var calendar: ZonedCalendar { commute.calendar }
    var cap: Int { commute.cap }
    var grace: TimeInterval { commute.grace }
    var ledgerHorizon: Date { commute.ledgerHorizon }
    var today: CivilDate { commute.today }
    func current(_ route: Route) -> Route { commute.current(route) }
}

public struct Schedules: CommuteFeature { public let commute: Commute }
public struct FavoriteRoutes: CommuteFeature { public let commute: Commute }
public struct Routes: CommuteFeature { public let commute: Commute }
public struct CustomRoutes: CommuteFeature { public let commute: Commute }
public struct Transit: CommuteFeature { public let commute: Commute }
public struct Incidents: CommuteFeature { public let commute: Commute }
public struct Places: CommuteFeature { public let commute: Commute }
public struct Refresh: CommuteFeature { public let commute: Commute }
public struct History: CommuteFeature { public let commute: Commute }
public struct Ways: CommuteFeature { public let commute: Commute }
public struct Alerts: CommuteFeature { public let commute: Commute }
public struct Notifiers: CommuteFeature { public let commute: Commute }
public struct Health: CommuteFeature { public let commute: Commute }
public struct Settings: CommuteFeature { public let commute: Commute }
public struct Calendars: CommuteFeature { public let commute: Commute }
public struct Exports: CommuteFeature { public let commute: Commute }
