import CommuteCore
import FoundationEssentials

extension Commands {
    static let routes = Command(
        name: "routes",
        summary: "List cached routes with current and average times and delay status",
        options: [
            OptionSpec(name: "--search", value: "TEXT", help: "Only routes whose name or description contains TEXT (any case)"),
            OptionSpec(name: "--favorites", help: "Only favorites, in favorites order"),
            OptionSpec(name: "--sort", value: "ORDER", help: "delay: the worst delay first (default: feed order)", values: .words(["delay"])),
            Options.json, Options.now,
        ],
        discussion: "Favorites are marked *. A line warns when the data is more than an hour old."
    ) { invocation in
        var order = Routes.RouteOrder.feed
        if let text = invocation.arguments.value("--sort") {
            guard text == "delay" else { throw invocation.usage("Unknown --sort '\(text)': use delay.") }
            order = .delay
        }
        let commute = try invocation.commute()
        let listing = try commute.routes.routeListing(
            search: invocation.arguments.value("--search"), favoritesOnly: invocation.arguments.has("--favorites"), order: order)
        if invocation.wantsJSON {
            try invocation.printJSON(listing.routes.map { RouteJSON($0, calendar: commute.calendar) })
            return
        }
        let io = invocation.io
        for line in ageLines(listing.sources, newest: listing.newestUpdate, commute) { io.out(line) }
        guard !listing.entries.isEmpty else {
            if let text = invocation.arguments.value("--search") {
                io.out("No routes match '\(text)'.")
            } else {
                io.out("No favorites yet: add routes with `traveltimes favorites add ID...`.")
            }
            return
        }
        io.out(routeTable(listing, commute))
        if listing.routes.contains(where: { $0.suspiciousMinutes != nil }) {
            io.out("? Outside what the route can be: ignored until a second reading confirms it.")
        }
        if listing.routes.contains(where: { $0.custom?.provider.usualIsFreeFlow == true }) {
            io.out("† Google gives no usual time: its AVG is the time without traffic, so its delays run high.")
        }
    }

    /// The `routes` table: favorites marked *, unavailable favorites in their place.
    private static func routeTable(_ listing: Routes.RouteListing, _ commute: Commute) -> String {
        var table = Table([.left, .right, .left, .right, .right, .right, .left, .left, .left])
        table.add(["", "ID", "NAME", "NOW", "AVG", "DELAY", "STATUS", "SOURCE", "UPDATED"])
        for entry in listing.entries {
            switch entry {
            case .unavailable(let id):
                table.add(["*", id, "Route \(id)", "-", "-", "-", "UNAVAILABLE", "-", "not in the latest feed"])
            case .route(let route):
                table.add([
                    listing.favorites.contains(route.id) ? "*" : "", route.id, route.name,
                    route.suspiciousMinutes.map { "\($0)?" } ?? minutes(route.currentMinutes),
                    minutes(route.averageMinutes) + (route.custom?.provider.usualIsFreeFlow == true ? "†" : ""),
                    route.delayMinutes.map(TimeFormatting.delay) ?? "-", route.suspiciousMinutes == nil ? route.status.rawValue : "SUSPICIOUS",
                    route.sourceName,
                    route.custom?.fetchedAt == nil && route.custom != nil
                        ? "not fetched yet" : TimeFormatting.moment(route.updatedAt, relativeTo: commute.now, calendar: commute.calendar),
                ])
            }
        }
        return table.render().joined(separator: "\n")
    }

    static let route = Command(
        name: "route",
        summary: "Show one route: its ends, times, delay, estimated arrival, and the schedules that use it",
        arguments: "ID",
        positionals: 1...1,
        argumentValues: [.routeID],
        options: [Options.json, Options.now]
    ) { invocation in
        let id = try ScheduleParsing.routeID(invocation.arguments.positionals[0])
        let commute = try invocation.commute()
        let detail = try commute.routes.routeDetail(id)
        if invocation.wantsJSON {
            let route = detail.route
            try invocation.printJSON(RouteDetailJSON(
                route: RouteJSON(route, calendar: commute.calendar), startPoint: route.startPoint, endPoint: route.endPoint,
                estimatedArrival: detail.estimatedArrival.map { TimeFormatting.iso8601($0, calendar: commute.calendar) },
                favorite: detail.isFavorite, scheduleIDs: detail.schedules.map { $0.id.lowercasedString },
                transit: route.transit.map { TransitJSON($0, at: commute.now, calendar: commute.calendar) }))
            return
        }
        printDetail(detail, commute, invocation.io)
    }

    /// A route's card: its name, ends, source, times, arrival, age, and the schedules using it.
    private static func printDetail(_ detail: Routes.RouteDetail, _ commute: Commute, _ io: TerminalIO) {
        let (route, schedules, arrival) = (detail.route, detail.schedules, detail.estimatedArrival)
        let calendar = commute.calendar
        io.out("\(route.name) (route \(route.id))\(detail.isFavorite ? "  * favorite" : "")")
        if let description = route.description.map(DisplayText.line), description != route.name { io.out("  \(description)") }
        if let start = route.startPoint { io.out("  From:     \(describe(start))") }
        if let end = route.endPoint { io.out("  To:       \(describe(end))") }
        if let custom = route.custom {
            io.out("  From:     \(custom.from)")
            io.out("  To:       \(custom.to)")
            io.out("  Source:   \(custom.provider.displayName) (a custom route)")
        }
        if let transit = route.transit {
            io.out("  From:     \(transit.fromName ?? "?") (stop \(transit.fromStop))")
            io.out("  To:       \(transit.toName ?? "?") (stop \(transit.toStop))")
            io.out("  Source:   transit feed \(transit.feed), \(transit.line.map { "line \($0)" } ?? "any line")")
            io.out("  Next:     \(TransitText.departures(of: transit, at: commute.now, calendar: calendar))")
            for notice in TransitText.notices(of: transit) { io.out("  \(notice)") }
        }
        if let distance = route.distanceMiles { io.out("  Distance: \(distance) mi") }
        let usual = route.custom?.provider.usualIsFreeFlow == true ? "without traffic" : "usually"
        if let transit = route.transit {
            // Walk and ride of the next bus: its delay only when the realtime feed gives one.
            io.out("  Trip:     \(minutes(route.currentMinutes)) (walk \(transit.walkMinutes) min, then the ride; timetable \(minutes(route.averageMinutes)))")
            let next = transit.next(at: commute.now)
            let known = next.map { $0.chosen.delaySeconds != nil || $0.plannedIsLost } ?? false
            io.out("  Delay:    " + (known ? "\(route.delayMinutes.map(TimeFormatting.delay) ?? "-"), \(route.status.rawValue)"
                : transit.realtimeAt == nil ? "unknown: timetable times, no live data" : "unknown: the realtime feed says nothing of the next bus"))
        } else {
            io.out("  Now:      \(minutes(route.currentMinutes)) (\(usual) \(minutes(route.averageMinutes)))")
            if route.suspiciousMinutes != nil { io.out("  Held back: \(route.suspicionText()); ignored until confirmed") }
            io.out("  Delay:    \(route.delayMinutes.map(TimeFormatting.delay) ?? "-"), \(route.status.rawValue)")
        }
        if let arrival {
            io.out("  Arrive:   \(TimeFormatting.moment(arrival, relativeTo: commute.now, calendar: calendar)) if you leave now")
        }
        if let custom = route.custom, custom.fetchedAt == nil {
            io.out("  Updated:  not fetched yet; the next refresh that needs it asks \(custom.provider.displayName)")
        } else {
            io.out("  Updated:  \(TimeFormatting.moment(route.updatedAt, relativeTo: commute.now, calendar: calendar)) "
                + "(\(TimeFormatting.age(commute.now.timeIntervalSince(route.updatedAt))) ago)")
        }
        if let staleness = detail.source?.staleness { io.out("  \(describe(staleness, commute))") }
        if schedules.isEmpty {
            io.out("  Schedules: none")
        } else {
            io.out("  Schedules:")
            for schedule in schedules {
                io.out("    \(shortID(schedule))  \(schedule.timeLabel) on \(schedule.daysLabel)\(schedule.isEnabled ? "" : " (disabled)")")
            }
        }
    }

    /// When the data shown was updated, and a line for each source whose data is stale. One
    /// source: `Updated at 4:00 PM`; several: `Updated: wsdot Tue, Nov 4, 4:00 PM; transit metro
    /// 7:15 AM`, each stale one named on its own line, so one fresh source never hides another's age.
    static func ageLines(_ sources: [Routes.SourceAge], newest: Date, _ commute: Commute) -> [String] {
        let moment = { (date: Date) in TimeFormatting.moment(date, relativeTo: commute.now, calendar: commute.calendar) }
        guard sources.count > 1 else {
            return ["Updated at \(moment(sources.first?.updatedAt ?? newest))"] + sources.compactMap { $0.staleness.map { describe($0, commute) } }
        }
        let updated = sources.map { source in
            "\(source.source.label) " + (source.updatedAt.map(moment) ?? (source.source.isTransit ? "timetable only" : "not fetched yet"))
        }
        return ["Updated: " + updated.joined(separator: "; ")]
            + sources.compactMap { source in source.staleness.map { describe($0, commute, source: source.source) } }
    }

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
    var id: String
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

    private enum CodingKeys: String, CodingKey { case startPoint, endPoint, estimatedArrival, favorite, scheduleIDs, transit, departures }

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
