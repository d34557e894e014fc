import CommuteCore
import FoundationEssentials

extension Commands {
    /// `route add`, `route edit`, `route remove`: the words that follow `route` and are not IDs.
    static let routeSubcommands = ["add", "edit", "remove"]

    private static let fromOption = OptionSpec(name: "--from", value: "LAT,LON", help: "Where the route starts, in decimal degrees: 47.6062,-122.3321")
    private static let toOption = OptionSpec(name: "--to", value: "LAT,LON", help: "Where it ends")
    private static let providerOption = OptionSpec(
        name: "--provider", value: "NAME", help: "tomtom, here or google", values: .words(RouteProvider.allCases.map(\.rawValue)))
    private static let nameOption = OptionSpec(name: "--name", value: "TEXT", help: "The name to show (default: its ends and provider)")

    static let routeAdd = Command(
        name: "route add",
        summary: "Add a custom route: your own origin and destination, timed by TomTom, HERE or Google",
        arguments: "ID",
        positionals: 1...1,
        options: [fromOption, toOption, providerOption, nameOption,
            OptionSpec(name: "--transit", value: "FEED", help: "A transit trip instead: the feed `transit add` named"),
            OptionSpec(name: "--from-stop", value: "STOP", help: "The stop (or station) you board at, as `transit stops` lists it"),
            OptionSpec(name: "--to-stop", value: "STOP", help: "The stop (or station) you get off at"),
            OptionSpec(name: "--line", value: "LINE", help: "Only this line (a route's short name or ID); default any line between the stops"),
            OptionSpec(name: "--walk", value: "MINUTES", help: "The walk to the first stop, such as 6m (default 0)"),
            OptionSpec(name: "--no-check", help: "Save it without asking the provider now (it is fetched at the next refresh)"),
            OptionSpec(name: "--timeout", value: "SECONDS", help: "Deadline for the check, retries included (default 25)"),
            Options.now],
        discussion: """
            ID: lowercase letters, digits and dashes with at least one letter (home-work), so it never
            collides with the feed's numeric IDs. Unless --no-check, one request checks the route and
            prints its time now; a provider error or no route exits non-zero and saves nothing. The
            key comes from `config set tomtom-key|here-key|google-key` or TOMTOM_API_KEY,
            HERE_API_KEY, GOOGLE_MAPS_API_KEY. A custom route then works wherever a route does:
            favorites, schedules, groups, watches, brief. What each provider is asked, and what its
            answer gives:
              tomtom  GET /routing/1/calculateRoute/FROM:TO/json?traffic=true&travelMode=car
                      &computeTravelTimeFor=all: travelTimeInSeconds now; usual is
                      historicTrafficTravelTimeInSeconds (else noTrafficTravelTimeInSeconds)
              here    GET /v8/routes?transportMode=car&return=summary,typicalDuration: each
                      section's duration and typicalDuration, summed; each checked on its own
              google  POST /directions/v2:computeRoutes, TRAFFIC_AWARE, the key in X-Goog-Api-Key:
                      duration now; usual is staticDuration, the time without traffic (marked †)
            Lengths give the distance. A time outside what the route can be is held back until a
            second reading confirms it.
            With --transit FEED --from-stop STOP --to-stop STOP it is a bus or train trip instead:
            every trip of the feed that calls at the first stop and then the second (any line, or
            --line's), with --walk the minutes to the first stop. Its times are the next
            departure's walk and ride; its alerts list the next departures, live from the
            realtime feed, and an arrive-by schedule leaves for the last bus predicted to arrive
            in time.
            """
    ) { invocation in
        let id = invocation.arguments.positionals[0]
        try checkNewRouteID(id, invocation)
        if invocation.arguments.value("--transit") != nil {
            try addTransitRoute(id, name: try routeName(invocation) ?? nil, invocation: invocation)
            return
        }
        for option in ["--from-stop", "--to-stop", "--line", "--walk"] where invocation.arguments.value(option) != nil {
            throw invocation.usage("\(option) is for a transit route: give --transit FEED too.")
        }
        guard let provider = try provider(invocation, required: true), let from = try coordinate("--from", invocation, required: true),
            let to = try coordinate("--to", invocation, required: true)
        else { return }
        let custom = Route.Custom(provider: provider, from: from, to: to)
        let name = try routeName(invocation)
        let commute = try invocation.commute()
        let route = CustomRoutes.customRoute(id: id, name: name ?? nil, custom: custom, at: commute.now)
        if invocation.arguments.has("--no-check") {
            _ = try commute.customRoutes.addCustomRoute(route, measurement: nil)
            invocation.io.out("Added route \(id): \(route.name), not checked; it is fetched at the next refresh that needs it.")
            return
        }
        let configuration = commute.configuration
        let access = try invocation.providerAccess(configuration)
        let timeout = try invocation.timeout()
        let io = invocation.io.redacting(access.secrets)
        let result: Result<RoutingAPI.Measurement, CustomRoutes.CustomFetchFailure>
        do {
            let spinner = Spinner(io: io, message: "Asking \(custom.provider.displayName)")
            defer { spinner.stop() }
            result = try commute.customRoutes.measure(
                custom, access: access, budget: configuration.budget(for: custom.provider), deadline: access.clock() + timeout)
        }
        switch result {
        case .failure(let failure):
            throw CustomRouteFailed(failure: failure, context: "route \(id) was not added", secrets: access.secrets)
        case .success(let measurement):
            let added = try commute.customRoutes.addCustomRoute(route, measurement: measurement)
            let saved = added.route
            io.out("Added route \(id): \(saved.name): \(describeTimes(saved)).")
            for warning in added.warnings { io.warn(warning) }
        }
    }

    static let routeEdit = Command(
        name: "route edit",
        summary: "Change a custom route's name, ends or provider",
        arguments: "ID",
        positionals: 1...1,
        argumentValues: [.customRouteID],
        options: [nameOption, fromOption, toOption, providerOption, Options.now],
        discussion: "New ends or a new provider drop the old times: the route is fetched again at the next refresh that needs it. --name '' goes back to the default name."
    ) { invocation in
        let id = try ScheduleParsing.routeID(invocation.arguments.positionals[0])
        let name = try routeName(invocation)
        let from = try coordinate("--from", invocation, required: false)
        let to = try coordinate("--to", invocation, required: false)
        let provider = try provider(invocation, required: false)
        guard name != nil || from != nil || to != nil || provider != nil else {
            throw invocation.usage("Nothing to change: give --name, --from, --to or --provider.")
        }
        let commute = try invocation.commute()
        _ = try commute.customRoutes.customRoute(id)
        let route = try commute.customRoutes.editCustomRoute(id, name: name, from: from, to: to, provider: provider)
        invocation.io.out("Route \(id): \(route.name); \(describeTimes(route)).")
    }

    static let routeRemove = Command(
        name: "route remove",
        summary: "Remove a custom or transit route, and take it out of favorites, schedules, groups and watches",
        arguments: "ID",
        positionals: 1...1,
        argumentValues: [.customRouteID],
        options: [Options.yes, Options.now],
        discussion: "A schedule or group left with no route is deleted, as when unfavouriting. Asks first on a terminal; otherwise needs --yes."
    ) { invocation in
        let id = try ScheduleParsing.routeID(invocation.arguments.positionals[0])
        let commute = try invocation.commute()
        let routes = try commute.routes.all().byID
        let preview = try commute.customRoutes.previewRemovingCustomRoute(id)
        let kind = routes[id]?.transit != nil ? "transit" : "custom"
        var consequence = "This will remove the \(kind) route \(describe([id], routes))."
        if let cascade = preview.cascade { consequence += " " + Commands.consequence(of: cascade, routes) }
        if preview.wasWatched { consequence += " Its delay watch will stop." }
        try invocation.confirm(consequence, question: "Remove?")
        let removed = try commute.customRoutes.removeCustomRoute(id)
        if let cascade = removed.change.cascade { report(cascade, invocation) }
        if removed.change.wasWatched { invocation.io.out("Stopped watching \(id).") }
        invocation.io.out("Removed route \(describe([id], routes)).")
        invocation.report(removed.summary)
    }

    /// `24 min now (usually 21 min; +3 min, SLOWING), 8.4 mi`, or why there is no time yet.
    static func describeTimes(_ route: Route) -> String {
        guard let current = route.currentMinutes else { return "no time yet; it is fetched at the next refresh that needs it" }
        let usual = route.custom?.provider.usualIsFreeFlow == true ? "without traffic" : "usually"
        var text = "\(current) min now"
        if let average = route.averageMinutes {
            text += " (\(usual) \(average) min; \(route.delayMinutes.map(TimeFormatting.delay) ?? "-"), \(route.status.rawValue))"
        }
        if let distance = route.distanceMiles { text += ", \(distance) mi" }
        return text
    }

    private static func checkNewRouteID(_ id: String, _ invocation: Invocation) throws {
        guard Route.isValidCustomID(id) else {
            throw invocation.usage(
                "Invalid route ID '\(DisplayText.line(id))': use lowercase letters, digits and dashes with at least one letter, such as home-work (at most 40).")
        }
        let words = Set(Commands.all.flatMap { $0.name.split(separator: " ").map(String.init) } + ["help", "version"])
        guard !words.contains(id) else {
            throw invocation.usage("Invalid route ID '\(id)': it is a command word; pick another, such as \(id)-route.")
        }
    }

    /// The option's point; nil when it is not given and not `required` (else a usage error).
    private static func coordinate(_ option: String, _ invocation: Invocation, required: Bool) throws -> Coordinate? {
        guard let text = invocation.arguments.value(option) else {
            if required { throw invocation.usage("Missing \(option) LAT,LON (decimal degrees, such as 47.6062,-122.3321).") }
            return nil
        }
        guard let point = Coordinate(text) else {
            throw invocation.usage(
                "Invalid \(option) '\(DisplayText.line(text))': use LAT,LON in decimal degrees, such as 47.6062,-122.3321 (latitude -90 to 90, longitude -180 to 180).")
        }
        return point
    }

    private static func provider(_ invocation: Invocation, required: Bool) throws -> RouteProvider? {
        guard let text = invocation.arguments.value("--provider") else {
            if required { throw invocation.usage("Missing --provider: tomtom, here or google.") }
            return nil
        }
        guard let provider = RouteProvider(rawValue: text) else {
            throw invocation.usage("Unknown --provider '\(DisplayText.line(text))': use tomtom, here or google.")
        }
        return provider
    }

    /// `--name`: nil when not given, `.some(nil)` for `--name ''` (the default name).
    private static func routeName(_ invocation: Invocation) throws -> String?? {
        guard let text = invocation.arguments.value("--name") else { return nil }
        let trimmed = text.trimmingWhitespace()
        if trimmed.isEmpty { return .some(nil) }
        guard trimmed.count <= 80, DisplayText.line(trimmed) == trimmed else {
            throw invocation.usage("Invalid --name: use at most 80 characters on one line, without control characters.")
        }
        return .some(trimmed)
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
    func providerAccess(_ configuration: Configuration, session: HelperSession? = nil) throws -> ProviderAccess {
        var keys: [RouteProvider: String] = [:]
        var bases: [RouteProvider: String] = [:]
        for provider in RouteProvider.allCases {
            if let key = environment[provider.keyVariable].flatMap({ $0.isEmpty ? nil : $0 }) ?? configuration.key(for: provider) {
                keys[provider] = key
            }
            if let text = environment[provider.baseURLVariable], !text.isEmpty {
                guard let base = RoutingAPI.baseURL(text) else {
                    throw usage("Invalid \(provider.baseURLVariable) '\(FeedSource.display(text))': use http(s)://host[:port][/path].")
                }
                bases[provider] = base
            }
        }
        return ProviderAccess(
            keys: keys, baseURLs: bases,
            client: session.map { $0.limited(to: RoutingAPI.maximumAnswerBytes) }
                ?? HelperHTTPClient(helperPath: fetchHelperPath(), maximumBodyBytes: RoutingAPI.maximumAnswerBytes, environment: environment))
    }
}
