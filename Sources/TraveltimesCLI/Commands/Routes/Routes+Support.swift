import CommuteCore
import FoundationEssentials

extension Commands {

    /// The options of `route add` and `route edit`, worded once.
    enum RouteOptions {
        static let from = point("--from", help: "Where the route starts: a place's name (place add), or 47.6062,-122.3321")
        static let to = point("--to", help: "Where it ends")
        static let provider = Option<RouteProvider>(
            "--provider", value: "NAME", help: "\(list(RouteProvider.keyed)) (keys, live traffic); \(list(RouteProvider.freeFlow)) (no key, free-flow); \(list(RouteProvider.transit)) (public transport, no key)",
            values: .words(RouteProvider.allCases.map(\.rawValue)),
            read: RouteProvider.init(rawValue:), invalid: { "Unknown --provider '\(DisplayText.line($0))': use \(RouteProvider.spoken(RouteProvider.keyed + RouteProvider.freeFlow + RouteProvider.transit))." })
        /// `tomtom, here, google`.
        static func list(_ providers: [RouteProvider]) -> String { providers.map(\.rawValue).joined(separator: ", ") }
        /// `--name ''` is nil: the default name.
        static let name = Option<String?>(
            "--name", value: "TEXT", help: "The name to show (default: its ends and provider)",
            read: { text in
                let trimmed = text.trimmingWhitespace()
                if trimmed.isEmpty { return .some(nil) }
                guard trimmed.count <= 80, DisplayText.line(trimmed) == trimmed else { return Optional<String?>.none }
                return .some(trimmed)
            },
            invalid: { _ in "Invalid --name: use at most 80 characters on one line, without control characters." })

        private static func point(_ name: String, help: String) -> Option<PointArgument> {
            Option(
                name, value: "PLACE", help: help, values: .placeName, read: PointArgument.init,
                invalid: {
                    "Invalid \(name) '\(DisplayText.line($0))': use a place's name (traveltimes place list) or LAT,LON in decimal degrees, "
                        + "such as 47.6062,-122.3321 (latitude -90 to 90, longitude -180 to 180)."
                })
        }
    }

    /// What `--from` and `--to` take: a point, or the name of a saved place.
    enum PointArgument: Sendable {
        case point(Coordinate)
        case place(String)

        init?(_ text: String) {
            if let point = Coordinate(text) {
                self = .point(point)
            } else if Place.isValidName(text) {
                self = .place(text)
            } else {
                return nil
            }
        }

        /// The point: a saved place's is read from the store.
        func resolved(in commute: Commute) throws -> Coordinate {
            switch self {
            case .point(let point): point
            case .place(let name): try commute.places.point(name)
            }
        }
    }

    /// `24 min now (usually 21 min; +3 min, SLOWING), 8.4 mi`, or why there is no time yet; the
    /// distance in `units`.
    static func describeTimes(_ route: Route, units: DistanceUnit) -> String {
        guard let current = route.currentMinutes else { return "no time yet; it is fetched at the next refresh that needs it" }
        if let provider = route.provider, provider.isFreeFlow {
            return "\(current) min, a free-flow estimate from \(provider.displayName) (no live traffic)"
                + (route.distanceMiles.map { ", \(units.format(miles: $0))" } ?? "")
        }
        let usual = route.provider?.usualIsFreeFlow == true ? "without traffic" : "usually"
        var text = "\(current) min now"
        if let average = route.averageMinutes {
            text += " (\(usual) \(average) min; \(route.delayMinutes.map(TimeFormatting.delay) ?? "-"), \(route.status.rawValue))"
        }
        if let distance = route.distanceMiles { text += ", \(units.format(miles: distance))" }
        return text
    }

    /// The option's value, which must be given: `missing` says what to give.
    static func required<Value>(_ option: Option<Value>, _ invocation: Invocation, missing: String) throws -> Value {
        guard let value = try invocation.value(option) else { throw invocation.usage(missing) }
        return value
    }

    /// What an unfavouriting cascade did, a line each.
    static func report(_ cascade: FavoriteRoutes.Cascade, _ invocation: Invocation) {
        for trimmed in cascade.trimmed {
            let before = trimmed.before
            invocation.io.out(
                "Schedule \(shortID(before)) at \(before.timeLabel) on \(before.daysLabel): "
                    + "now \(routeCount(trimmed.after.routeIDs.count)) (was \(before.routeIDs.count)).")
        }
        for schedule in cascade.deleted {
            invocation.io.out(
                "Deleted schedule \(shortID(schedule)) at \(schedule.timeLabel) on \(schedule.daysLabel): it had no routes left.")
        }
        for group in cascade.trimmedGroups {
            invocation.io.out("Group '\(group.name)': now \(group.routeIDs.joined(separator: ", ")).")
        }
        for group in cascade.deletedGroups {
            invocation.io.out("Deleted group '\(group.name)': it had no routes left.")
        }
    }
}

/// A custom route the provider could not time: what failed, and that nothing was saved.
struct CustomRouteFailed: ProcessError, CustomStringConvertible {
    var failure: CustomRoutes.CustomFetchFailure
    var context: String
    var secrets: [String]

    var exitCode: ExitCode { failure.exitCode }
    var description: String { FeedSource.redact("\(failure); \(context)", secrets: secrets) }
}

extension CustomRoutes.CustomFetchFailure {
    /// A setting to give: 64; a key refused or a provider's refusal: 69; no route: 1; the budget
    /// spent, no answer in time, or no time left to ask: 75.
    var exitCode: ExitCode {
        switch self {
        case .noKey: .usage
        case .keyRejected, .refused: .unavailable
        case .noRoute: .failure
        case .budgetSpent, .gaveUp, .notAsked: .temporaryFailure
        }
    }
}

extension Invocation {
    /// The keys (the environment's over `config.json`), each provider's base URL (an environment
    /// variable's over its own), and the fetch helper: `session`'s when given (a refresh's one
    /// helper for every request), else one helper run per request.
    /// What requests to the public services say they are: the contact, else this install's token.
    func userAgent(_ configuration: Configuration) -> String {
        let store = (try? Commute.storeDirectory(environment: environment)) ?? ""
        return Product.userAgent(contact: configuration.contact, install: Product.installToken(store: store, machineID: Product.machineID()))
    }

    /// How a search reaches the geocoders: `config set geocoder-url` / `transitous-url`, an
    /// environment variable's over either, this install's User-Agent.
    func searchAccess(_ configuration: Configuration, client: (any HTTPClient)? = nil) throws -> Places.SearchAccess {
        var bases: [Geocoder: String] = [:]
        if let base = configuration.geocoderURL { bases[.nominatim] = base }
        if let base = configuration.baseURL(for: .transitous) { bases[.transitous] = base }
        for coder in Geocoder.allCases {
            let variable = coder.baseURLVariable
            guard let text = environment[variable], !text.isEmpty else { continue }
            guard let base = RoutingAPI.baseURL(text) else {
                throw usage("Invalid \(variable) '\(FeedSource.display(text))': use http(s)://host[:port][/path].")
            }
            bases[coder] = base
        }
        return Places.SearchAccess(
            client: client ?? HelperHTTPClient(helperPath: fetchHelperPath(), maximumBodyBytes: Geocoder.maximumAnswerBytes, environment: childEnvironment),
            baseURLs: bases, userAgent: userAgent(configuration))
    }

    func providerAccess(_ configuration: Configuration, session: HelperSession? = nil) throws -> ProviderAccess {
        var keys: [RouteProvider: String] = [:]
        var bases: [RouteProvider: String] = [:]
        let credentials = Credentials(environment: environment, configuration: configuration)
        for provider in RouteProvider.allCases {
            if let key = credentials.key(for: provider) { keys[provider] = key.value }
            if let base = configuration.baseURL(for: provider) { bases[provider] = base }
            if let text = environment[provider.baseURLVariable], !text.isEmpty {
                guard let base = RoutingAPI.baseURL(text) else {
                    throw usage("Invalid \(provider.baseURLVariable) '\(FeedSource.display(text))': use http(s)://host[:port][/path].")
                }
                bases[provider] = base
            }
        }
        var access = ProviderAccess(
            keys: keys, baseURLs: bases,
            client: session.map { $0.limited(to: RoutingAPI.maximumAnswerBytes) }
                ?? HelperHTTPClient(helperPath: fetchHelperPath(), maximumBodyBytes: RoutingAPI.maximumAnswerBytes, environment: childEnvironment))
        access.userAgent = userAgent(configuration)
        return access
    }
}

extension Commands {

    /// `stale: refresh failed 3 times since 6:15 AM; the data is 3 h old`, naming the source when
    /// there are several (`stale: wsdot: …`).
    static func describe(_ staleness: Routes.Staleness, _ commute: Commute, source: Routes.RouteSource? = nil) -> String {
        let moment = { (date: Date) in TimeFormatting.moment(date, relativeTo: commute.now, calendar: commute.calendar) }
        let what: String = switch staleness {
        case .failing(let times, let since, let age):
            "refresh failed \(times == 1 ? "once" : "\(times) times") since \(moment(since)); the data is \(TimeFormatting.age(age)) old"
        case .providerFailing(let since, let age):
            "it has failed since \(moment(since)); the data is \(TimeFormatting.age(age)) old"
        case .noLiveData(let age):
            "its live data is \(TimeFormatting.age(age)) old; run `traveltimes refresh`"
        case .notRefreshed(let age):
            "the data is \(TimeFormatting.age(age)) old; run `traveltimes refresh`"
        }
        return "stale: " + (source.map { "\($0.label): " } ?? "") + what
    }

    static func describe(_ point: Route.Point) -> String {
        var parts = [point.description ?? "?"]
        if let road = point.roadName { parts.append("road \(road)") }
        if let direction = point.direction { parts.append("heading \(direction)") }
        if let milePost = point.milePost { parts.append("milepost \(milePost)") }
        return DisplayText.line(parts.joined(separator: ", "))
    }

    static func minutes(_ value: Int?) -> String { value.map { "\($0) min" } ?? "-" }
}

/// `routes --json`: a public contract.
struct RouteJSON: EveryKeyEncodable {
    var id: RouteID
    var name: String
    var description: String?
    var currentMinutes: Int?
    var averageMinutes: Int?
    var delayMinutes: Int?
    var status: String
    var distanceMiles: Double?
    var updatedAt: String
    /// `wsdot`, `tomtom`, `here` or `google`.
    var source: String
    /// A custom route's ends; null for the feed's.
    var from: Coordinate?
    var to: Coordinate?
    /// The source's latest reading lies outside what the route can be: it is held back (in
    /// `suspiciousMinutes`, not `currentMinutes`) until a second reading confirms it.
    var suspicious: Bool
    var suspiciousMinutes: Int?

    init(_ route: Route, calendar: ZonedCalendar) {
        id = route.id
        name = route.name
        description = route.description
        currentMinutes = route.currentMinutes
        averageMinutes = route.averageMinutes
        delayMinutes = route.delayMinutes
        status = route.status.rawValue
        distanceMiles = route.distanceMiles
        updatedAt = TimeFormatting.iso8601(route.updatedAt, calendar: calendar)
        source = route.sourceName
        from = route.custom?.from
        to = route.custom?.to
        suspicious = route.suspiciousMinutes != nil
        suspiciousMinutes = route.suspiciousMinutes
    }
}

/// `route ID --json`: the route's fields, plus where it runs, when you would arrive, and who uses it.
struct RouteDetailJSON: Encodable {
    var route: RouteJSON
    var startPoint: Route.Point?
    var endPoint: Route.Point?
    var estimatedArrival: String?
    var favorite: Bool
    var scheduleIDs: [String]
    /// A transit route's stops, and its next departures; absent for other routes.
    var transit: TransitJSON?
    /// A planner's (Transitous) next itineraries; absent for other routes.
    var itineraries: [ItineraryJSON]?
    /// An open engine's estimate; absent for other routes.
    var estimate: FreeFlowJSON?

    private enum CodingKeys: String, CodingKey {
        case startPoint, endPoint, estimatedArrival, favorite, scheduleIDs, transit, departures, itineraries, freeFlowMinutes, distanceKm, live
    }

    func encode(to encoder: any Encoder) throws {
        try route.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(startPoint, forKey: .startPoint)
        try container.encode(endPoint, forKey: .endPoint)
        try container.encode(estimatedArrival, forKey: .estimatedArrival)
        try container.encode(favorite, forKey: .favorite)
        try container.encode(scheduleIDs, forKey: .scheduleIDs)
        if let transit {
            try container.encode(transit, forKey: .transit)
            try container.encode(transit.departures, forKey: .departures)
        }
        if let itineraries { try container.encode(itineraries, forKey: .itineraries) }
        if let estimate {
            try container.encode(estimate.freeFlowMinutes, forKey: .freeFlowMinutes)
            try container.encode(estimate.distanceKm, forKey: .distanceKm)
            try container.encode(false, forKey: .live)
        }
    }
}

/// A transit route in `route ID --json`: the stops, the line, the walk, whether the times are
/// live; and (beside it, as `departures`) the next departures, soonest first.
struct TransitJSON: Encodable {
    struct Departure: EveryKeyEncodable {
        var trip: String
        var line: String
        var headsign: String
        var scheduled: String
        var predicted: String?
        var delayMinutes: Int?
        var canceled: Bool
        var skipped: Bool
        /// At the second stop: predicted when known, else scheduled.
        var arrival: String
    }

    var feed: String
    var fromStop: String
    var fromName: String?
    var toStop: String
    var toName: String?
    var line: String?
    var walkMinutes: Int
    /// When the realtime feed the predictions come from was produced; null for timetable times.
    var realtimeAt: String?
    var realtimeProblem: String?
    var notices: [String]
    let departures: [Departure]

    private enum CodingKeys: String, CodingKey {
        case feed, fromStop, fromName, toStop, toName, line, walkMinutes, realtimeAt, realtimeProblem, notices
    }

    /// The most departures listed.
    static let listed = 10

    init(_ transit: Route.Transit, at moment: Date, calendar: ZonedCalendar) {
        feed = transit.feed
        fromStop = transit.fromStop
        fromName = transit.fromName
        toStop = transit.toStop
        toName = transit.toName
        line = transit.line
        walkMinutes = transit.walkMinutes
        realtimeAt = transit.realtimeAt.map { TimeFormatting.iso8601($0, calendar: calendar) }
        realtimeProblem = transit.realtimeProblem
        notices = transit.notices ?? []
        departures = transit.departures(after: moment).prefix(Self.listed).map { departure in
            Departure(
                trip: departure.tripID, line: departure.line, headsign: departure.headsign,
                scheduled: TimeFormatting.iso8601(departure.scheduled, calendar: calendar),
                predicted: departure.predicted.map { TimeFormatting.iso8601($0, calendar: calendar) },
                delayMinutes: departure.delaySeconds.map { Int((Double($0) / 60).rounded()) }, canceled: departure.canceled,
                skipped: departure.skipped, arrival: TimeFormatting.iso8601(departure.arrival, calendar: calendar))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(feed, forKey: .feed)
        try container.encode(fromStop, forKey: .fromStop)
        try container.encode(fromName, forKey: .fromName)
        try container.encode(toStop, forKey: .toStop)
        try container.encode(toName, forKey: .toName)
        try container.encode(line, forKey: .line)
        try container.encode(walkMinutes, forKey: .walkMinutes)
        try container.encode(realtimeAt, forKey: .realtimeAt)
        try container.encode(realtimeProblem, forKey: .realtimeProblem)
        try container.encode(notices, forKey: .notices)
    }
}

/// An open engine's route in `route ID --json`: its free-flow time and its length; never live.
struct FreeFlowJSON {
    var freeFlowMinutes: Int?
    var distanceKm: Double?

    init(_ route: Route) {
        freeFlowMinutes = route.currentMinutes
        distanceKm = route.distanceMiles.map { ($0 * 1.609344 * 10).rounded() / 10 }
    }
}
