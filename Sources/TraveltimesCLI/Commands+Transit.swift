import CommuteCore
import FoundationEssentials

extension Commands {
    static let transitAdd = Command(
        name: "transit add",
        summary: "Add a transit agency's GTFS feeds: its timetable zip, and its realtime trip updates and service alerts",
        arguments: "NAME",
        positionals: 1...1,
        options: [
            OptionSpec(name: "--static", value: "URL|FILE", help: "The timetable: a GTFS zip (http(s) URL, file:// URL or path)", values: .file,
                required: true),
            OptionSpec(name: "--realtime", value: "URL|FILE", help: "GTFS-realtime trip updates (delays, cancellations)", values: .file),
            OptionSpec(name: "--alerts", value: "URL|FILE", help: "GTFS-realtime service alerts", values: .file),
            OptionSpec(
                name: "--header", value: "'Name: value'", help: "Sent with every request, for an agency that wants a key (repeatable; - reads lines from stdin)",
                repeatable: true),
            OptionSpec(name: "--timeout", value: "SECONDS", help: "Deadline for fetching the timetable, retries included (default 25)"),
            Options.now,
        ],
        discussion: """
            NAME: lowercase letters, digits and dashes, starting with a letter (metro). A relative
            path is kept as a full one, for timers and cron. The timetable is fetched now and must be
            a GTFS feed (agency.txt with a time zone, stops, trips, a calendar; every file whole);
            nothing is saved otherwise. `refresh` asks for it again at most daily, with its ETag and
            Last-Modified, and reads the realtime feeds every time. The URLs and the header values
            are secrets, kept only in config.json (mode 0600) and shown without their keys: give
            --header - to read 'Name: value' lines from standard input, out of argv.
            Then find your stops with `transit stops NAME --search TEXT` and add the trip with
            `route add ID --transit NAME --from-stop STOP --to-stop STOP`.
            """
    ) { invocation in
        let name = invocation.arguments.positionals[0]
        guard TransitFeed.isValidName(name) else {
            throw invocation.usage(
                "Invalid feed name '\(DisplayText.line(String(name.prefix(40))))': use lowercase letters, digits and dashes, starting with a letter (metro).")
        }
        guard let staticURL = invocation.arguments.value("--static") else { throw invocation.usage("Missing --static URL|FILE: the GTFS zip.") }
        // A relative path is kept as a full one: timers and cron run in another directory.
        func located(_ text: String) -> String {
            guard case .file(let path) = TransitLocation(text), !path.hasPrefix("/") else { return text }
            return URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true))
                .standardizedFileURL.path
        }
        let feed = TransitFeed(
            name: name, staticURL: located(staticURL), realtimeURL: invocation.arguments.value("--realtime").map(located),
            alertsURL: invocation.arguments.value("--alerts").map(located), headers: try transitHeaders(invocation))
        let io = invocation.io.redacting(feed.secrets)
        for location in feed.locations where TransitLocation(location.text) == nil {
            throw invocation.usage("Invalid --\(location.kind) '\(TransitFeed.shown(location.text))': give an http(s) URL, a file:// URL or a path.")
        }
        let commute = try invocation.commute()
        let timeout = try invocation.timeout()
        let client = HelperHTTPClient(
            helperPath: invocation.fetchHelperPath(), maximumBodyBytes: Transit.largestTimetableZip, environment: invocation.environment)
        let contents: TransitTimetable.Contents
        do {
            let spinner = Spinner(io: io, message: "Fetching \(TransitFeed.shown(staticURL))")
            defer { spinner.stop() }
            contents = try commute.transit.addTransitFeed(feed, client: client, timeout: timeout)
        } catch let problem as TransitProblem {
            throw TransitFailed(problem: problem, context: "feed \(name) was not added", secrets: feed.secrets)
        }
        io.out("Added transit feed \(name): \(contents.stops) stops, \(contents.lines) lines, \(contents.trips) trips in \(contents.timeZone), from \(TransitFeed.shown(staticURL))"
            + (feed.realtimeURL == nil ? "; no realtime feed, so departures are the timetable's." : "; realtime read at every refresh."))
        io.out("Find your stops: traveltimes transit stops \(name) --search NAME")
    }

    static let transitList = Command(
        name: "transit list",
        summary: "List the transit feeds: their URLs (keys hidden), when fetched, and the routes that use them",
        options: [Options.json, Options.now]
    ) { invocation in
        let commute = try invocation.commute()
        let feeds = try commute.transit.transitFeeds()
        let secrets = feeds.flatMap(\.feed.secrets)
        let io = invocation.io.redacting(secrets)
        if invocation.wantsJSON {
            try invocation.printJSON(feeds.map { TransitFeedJSON($0.feed, state: $0.state, routes: $0.routes, calendar: commute.calendar) }, through: io)
            return
        }
        guard !feeds.isEmpty else {
            io.out("No transit feeds. Add one: traveltimes transit add NAME --static URL [--realtime URL] [--alerts URL]")
            return
        }
        for (feed, state, routes) in feeds {
            io.out("\(feed.name)")
            for location in feed.locations { io.out("  \(location.kind.padded(to: 9)) \(TransitFeed.shown(location.text))") }
            if let headers = feed.headers, !headers.isEmpty { io.out("  headers   \(headers.map { "\($0.name): …" }.joined(separator: ", "))") }
            let moment = { (date: Date?) in date.map { TimeFormatting.moment($0, relativeTo: commute.now, calendar: commute.calendar) } ?? "never" }
            io.out("  timetable fetched \(moment(state?.fetchedAt)), checked \(moment(state?.checkedAt))\(state?.timeZone.map { "; zone \($0)" } ?? "")")
            if feed.realtimeURL != nil || feed.alertsURL != nil { io.out("  realtime  read \(moment(state?.realtimeFetchedAt ?? state?.alertsFetchedAt))") }
            io.out("  routes    \(routes.isEmpty ? "none" : routes.joined(separator: ", "))")
            for problem in state?.problemList ?? [] { io.out("  problem   \(problem)") }
        }
    }

    static let transitRemove = Command(
        name: "transit remove",
        summary: "Remove a transit feed no route uses, with its saved timetable",
        arguments: "NAME",
        positionals: 1...1,
        options: [Options.now]
    ) { invocation in
        let name = invocation.arguments.positionals[0]
        let commute = try invocation.commute()
        do {
            try commute.transit.removeTransitFeed(name)
        } catch let problem as TransitProblem {
            throw TransitFailed(problem: problem, context: "nothing was removed", secrets: [])
        }
        invocation.io.out("Removed transit feed \(name).")
    }

    static let transitStops = Command(
        name: "transit stops",
        summary: "Find a feed's stop IDs by name, or near a point",
        arguments: "NAME",
        positionals: 1...1,
        options: [
            OptionSpec(name: "--search", value: "TEXT", help: "Stops whose name holds TEXT (any case), or whose ID is TEXT"),
            OptionSpec(name: "--near", value: "LAT,LON", help: "The 20 stops nearest this point, nearest first"),
            Options.json, Options.now,
        ],
        discussion: "A station (with platforms) can be given as --from-stop or --to-stop: it stands for all its platforms."
    ) { invocation in
        let name = invocation.arguments.positionals[0]
        let search = invocation.arguments.value("--search").map { $0.trimmingWhitespace() }
        var near: Coordinate?
        if let text = invocation.arguments.value("--near") {
            guard let point = Coordinate(text) else {
                throw invocation.usage("Invalid --near '\(DisplayText.line(String(text.prefix(60))))': use LAT,LON in decimal degrees, such as 47.6062,-122.3321.")
            }
            near = point
        }
        guard search?.isEmpty == false || near != nil else { throw invocation.usage("Give --search TEXT or --near LAT,LON.") }
        let commute = try invocation.commute()
        let stops: [Transit.TransitStop]
        do {
            stops = try commute.transit.transitStops(name, search: search, near: near)
        } catch let problem as TransitProblem {
            throw TransitFailed(problem: problem, context: "no stops were read", secrets: [])
        }
        if invocation.wantsJSON {
            try invocation.printJSON(stops.map(TransitStopJSON.init))
            return
        }
        guard !stops.isEmpty else {
            invocation.io.out("No stop of \(name) matches.")
            return
        }
        var table = Table([.left, .left, .left])
        table.add(["STOP", "NAME", near == nil ? "" : "DISTANCE"])
        for stop in stops {
            var name = stop.name
            if stop.isStation { name += " (station: stands for its platforms)" }
            if let parent = stop.parent { name += " (platform of \(parent))" }
            table.add([stop.id, name, stop.metres.map { "\(Int($0.rounded())) m" } ?? ""])
        }
        invocation.io.out(table.render().map { $0.trimmingWhitespace() }.joined(separator: "\n"))
    }

    /// `--header 'Name: value'`, repeatable; `--header -` reads such lines from standard input.
    private static func transitHeaders(_ invocation: Invocation) throws -> [TransitFeed.Header]? {
        var texts: [String] = []
        for text in invocation.arguments.all("--header") {
            if text == "-" {
                guard let input = StandardInput.line(maximumBytes: 4_096) else {
                    throw invocation.usage("No header on standard input: give one line 'Name: value'.")
                }
                texts.append(input)
            } else {
                texts.append(text)
            }
        }
        let headers = try texts.map { text in
            guard let header = TransitFeed.Header(text) else {
                throw invocation.usage("--header takes one line 'Name: value', such as 'X-Api-Key: …'.")
            }
            return header
        }
        return headers.isEmpty ? nil : headers
    }

    /// `route add ID --transit NAME --from-stop STOP --to-stop STOP [--line L] [--walk 6m]`.
    static func addTransitRoute(_ id: String, name: String?, invocation: Invocation) throws {
        guard let feed = invocation.arguments.value("--transit"), let from = invocation.arguments.value("--from-stop"),
            let to = invocation.arguments.value("--to-stop")
        else { throw invocation.usage("A transit route needs --transit NAME, --from-stop STOP and --to-stop STOP (find them with `traveltimes transit stops`).") }
        for option in ["--from", "--to", "--provider"] where invocation.arguments.value(option) != nil {
            throw invocation.usage("\(option) is for a driving route; a transit route takes --from-stop and --to-stop.")
        }
        for (option, stop) in [("--from-stop", from), ("--to-stop", to)] where stop.isEmpty || stop.utf8.count > 255 || DisplayText.line(stop) != stop {
            throw invocation.usage("Invalid \(option): a stop ID as `transit stops` lists it.")
        }
        let line = invocation.arguments.value("--line")
        if let line, line.isEmpty || line.utf8.count > 64 || DisplayText.line(line) != line {
            throw invocation.usage("Invalid --line: a route's short name or ID, such as 545.")
        }
        let walk = try walkMinutes(invocation)
        let commute = try invocation.commute()
        let route: Route
        do {
            route = try commute.transit.addTransitRoute(Transit.TransitRequest(
                id: id, name: name, feed: feed, fromStop: from, toStop: to, line: line, walkMinutes: walk))
        } catch let problem as TransitProblem {
            throw TransitFailed(problem: problem, context: "route \(id) was not added", secrets: [])
        }
        guard let transit = route.transit else { return }
        invocation.io.out("Added route \(id): \(route.name).")
        invocation.io.out("Next: \(TransitText.departures(of: transit, at: commute.now, calendar: commute.calendar))")
    }

    /// `--walk 6m` (or `6`, `6min`): 0 to 180 minutes; 0 when not given.
    private static func walkMinutes(_ invocation: Invocation) throws -> Int {
        guard var text = invocation.arguments.value("--walk")?.lowercased() else { return 0 }
        for suffix in ["min", "m"] where text.hasSuffix(suffix) {
            text.removeLast(suffix.count)
            break
        }
        guard text.count <= 3, text.allSatisfy(\.isASCIIDigit), let minutes = Int(text), (0...Route.Transit.longestWalk).contains(minutes) else {
            throw invocation.usage("Invalid --walk: minutes from 0 to \(Route.Transit.longestWalk), such as 6m.")
        }
        return minutes
    }
}

/// A transit feed or route that could not be used: the reason, and what was left as it was.
struct TransitFailed: ProcessError, CustomStringConvertible {
    var problem: TransitProblem
    var context: String
    var secrets: [String]

    /// The outside's fault (a server, a file): 69; a bad timetable or request: 65 or 1.
    var exitCode: ExitCode { problem.isTemporary ? .unavailable : .failure }
    var description: String { FeedSource.redact("\(problem.message); \(context)", secrets: secrets) }
}

/// `transit list --json`: a feed, its URLs shown without their keys, and its state.
struct TransitFeedJSON: EveryKeyEncodable {
    var name: String
    var staticURL: String
    var realtimeURL: String?
    var alertsURL: String?
    /// Header names only: their values are secrets.
    var headers: [String]
    var timeZone: String?
    var fetchedAt: String?
    var checkedAt: String?
    var realtimeFetchedAt: String?
    var alertsFetchedAt: String?
    var routes: [String]
    var problems: [String]

    init(_ feed: TransitFeed, state: TransitState.FeedState?, routes: [String], calendar: ZonedCalendar) {
        let iso = { (date: Date?) in date.map { TimeFormatting.iso8601($0, calendar: calendar) } }
        name = feed.name
        staticURL = TransitFeed.shown(feed.staticURL)
        realtimeURL = feed.realtimeURL.map(TransitFeed.shown)
        alertsURL = feed.alertsURL.map(TransitFeed.shown)
        headers = (feed.headers ?? []).map(\.name)
        timeZone = state?.timeZone
        fetchedAt = iso(state?.fetchedAt)
        checkedAt = iso(state?.checkedAt)
        realtimeFetchedAt = iso(state?.realtimeFetchedAt)
        alertsFetchedAt = iso(state?.alertsFetchedAt)
        self.routes = routes
        problems = state?.problemList ?? []
    }
}

/// `transit stops --json`: one stop.
struct TransitStopJSON: EveryKeyEncodable {
    var id: String
    var name: String
    var parent: String?
    var station: Bool
    var latitude: Double?
    var longitude: Double?
    var metres: Int?

    init(_ stop: Transit.TransitStop) {
        id = stop.id
        name = stop.name
        parent = stop.parent
        station = stop.isStation
        latitude = stop.point?.latitude
        longitude = stop.point?.longitude
        metres = stop.metres.map { Int($0.rounded()) }
    }
}
