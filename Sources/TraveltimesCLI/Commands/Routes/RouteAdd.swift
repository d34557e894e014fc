import CommuteCore
import FoundationEssentials

extension Commands {
    enum RouteAddCommand {
        static let command = Command(
            name: "route add",
            summary: "Add a route of your own between two places: by car (\(names(RouteProvider.keyed)); \(names(RouteProvider.freeFlow)) with no key) or by public transport (\(names(RouteProvider.transit)), no key)",
            arguments: "ID",
            positionals: 1...1,
            options: [RouteOptions.from, RouteOptions.to, RouteOptions.provider, RouteOptions.name, fallback,
                transit,
                fromStop,
                toStop,
                line,
                walk,
                noCheck,
                timeout,
                Options.now],
            discussion: """
                ID: lowercase letters, digits and dashes with at least one letter (home-work), so it never
                collides with the feed's numeric IDs, and not beginning with cal- (calendars' routes).
                Unless --no-check, one request checks the route and prints its time now; a provider error
                or no route exits non-zero and saves nothing. The key comes from
                `config set \(RouteProvider.keyed.map(\.keySetting).joined(separator: "|"))` or its variable:
                \(RouteProvider.keyed.compactMap(\.keyVariable?.name).joined(separator: ", ")). A custom route then works wherever a
                route does: favorites, schedules, groups, watches, brief. What each provider is asked,
                and what its answer gives:
                \(askedLines)
                A free-flow estimate has no traffic and says so; it is asked for at most daily, and an
                arrive-by leaves with `config set free-flow-margin`. --fallback \(RouteProvider.freeFlow.map(\.rawValue).joined(separator: "|")) gives a
                keyed route an estimate that stands in when its provider fails or its budget is spent.
                The keyless services are asked at most once a second across processes, naming
                traveltimes and `config set contact`. Lengths give the distance. A time outside what
                the route can be is held back until a second reading confirms it.
                With --transit FEED --from-stop STOP --to-stop STOP it is a bus or train trip instead:
                every trip of the feed that calls at the first stop and then the second (any line, or
                --line's), with --walk the minutes to the first stop. Its times are the next
                departure's walk and ride; its alerts list the next departures, live from the
                realtime feed, and an arrive-by schedule leaves for the last bus predicted to arrive
                in time.
                """
        ) { invocation in
            let id = try newRouteID(invocation.arguments.positionals[0], invocation)
            if try invocation.value(Self.transit) != nil {
                try addTransitRoute(id, name: try invocation.value(RouteOptions.name) ?? nil, invocation: invocation)
                return
            }
            for option in [Self.fromStop.spec, Self.toStop.spec, Self.line.spec, Self.walk.spec] where invocation.isGiven(option) {
                throw invocation.usage("\(option.name) is for a transit route: give --transit FEED too.")
            }
            let provider = try required(RouteOptions.provider, invocation, missing: "Missing --provider: \(RouteProvider.keyed.map(\.rawValue).joined(separator: ", ")) (a key each), \(RouteProvider.spoken(RouteProvider.freeFlow)) (by car, no key) or \(RouteProvider.spoken(RouteProvider.transit)) (by bus, no key).")
            let fromArgument = try required(RouteOptions.from, invocation, missing: "Missing --from PLACE or LAT,LON (decimal degrees, such as 47.6062,-122.3321).")
            let toArgument = try required(RouteOptions.to, invocation, missing: "Missing --to PLACE or LAT,LON (decimal degrees, such as 47.6062,-122.3321).")
            let name = try invocation.value(RouteOptions.name)
            let commute = try invocation.commute()
            let from = try fromArgument.resolved(in: commute)
            let to = try toArgument.resolved(in: commute)
            var custom = Route.Custom(provider: provider, from: from, to: to)
            if let engine = try invocation.value(Self.fallback) {
                guard provider.needsKey else {
                    throw invocation.usage("--fallback is for a route with a keyed provider (\(RouteProvider.keyed.map(\.rawValue).joined(separator: ", "))): \(provider.rawValue) needs none.")
                }
                custom.fallback = engine
            }
            var route = CustomRoutes.customRoute(id: id, name: name ?? nil, custom: custom, at: commute.now)
            route.description = "\(commute.places.name(of: from) ?? from.description) → \(commute.places.name(of: to) ?? to.description) (\(provider.displayName))"
            if invocation.isSet(Self.noCheck) {
                _ = try commute.customRoutes.addCustomRoute(route, measurement: nil)
                invocation.io.out("Added route \(id): \(route.name), not checked; it is fetched at the next refresh that needs it.")
                return
            }
            let configuration = commute.configuration
            let access = try invocation.providerAccess(configuration)
            let timeout = try invocation.value(Self.timeout) ?? Options.defaultTimeout
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
                // The engine it falls back on is asked too: its estimate is there before it is needed.
                var route = route
                if let engine = custom.fallback {
                    let estimate = try commute.customRoutes.measure(
                        Route.Custom(provider: engine, from: from, to: to), access: access, budget: configuration.budget(for: engine),
                        deadline: access.clock() + timeout)
                    switch estimate {
                    case .success(let found):
                        route.custom?.estimateMinutes = found.currentMinutes
                        route.custom?.estimatedAt = commute.now
                    case .failure(let failure):
                        io.warn("\(engine.displayName), its fallback, has no estimate yet (\(failure)): it is asked again at the next refresh")
                    }
                }
                let added = try commute.customRoutes.addCustomRoute(route, measurement: measurement)
                let saved = added.route
                io.out("Added route \(id): \(saved.name): \(describeTimes(saved, units: commute.units)).")
                for warning in added.warnings { io.warn(warning) }
                if provider.isTransit { io.out(Transitous.attribution) }
                if provider.isFreeFlow { io.out(RoutingAPI.engineAttribution(provider)) }
                if let engine = saved.custom?.fallback, let estimate = saved.custom?.estimateMinutes {
                    io.out("When \(provider.displayName) cannot answer, \(engine.displayName)'s free-flow estimate stands in: \(estimate) min, no live traffic.")
                    io.out(RoutingAPI.engineAttribution(engine))
                }
            }
        }

        /// The route ID given, if a route added by hand may have it.
        private static func newRouteID(_ id: String, _ invocation: Invocation) throws -> RouteID {
            guard Route.isValidCustomID(id) else {
                throw invocation.usage(
                    "Invalid route ID '\(DisplayText.line(id))': use lowercase letters, digits and dashes with at least one letter, such as home-work (at most 40).")
            }
            guard !Route.isCalendarsID(id) else {
                throw invocation.usage(
                    "Invalid route ID '\(id)': IDs beginning with \(Route.calendarIDPrefix) are the routes calendars make; pick another, such as my-\(id).")
            }
            // A subcommand's word (`route add`, `history export`) could be read as the command
            // rather than the route where a group takes a route ID; a group's own name cannot.
            let words = Set(Commands.all.flatMap { $0.name.split(separator: " ").dropFirst().map(String.init) } + ["help", "version"])
            guard !words.contains(id) else {
                throw invocation.usage("Invalid route ID '\(id)': it is a command word; pick another, such as \(id)-route.")
            }
            return RouteID(id)
        }

        static let transit = Option<String>("--transit", value: "FEED", help: "A transit trip instead: the feed `transit add` named")
        static let fromStop = Option<String>("--from-stop", value: "STOP", help: "The stop (or station) you board at, as `transit stops` lists it")
        static let toStop = Option<String>("--to-stop", value: "STOP", help: "The stop (or station) you get off at")
        static let line = Option<String>("--line", value: "LINE", help: "Only this line (a route's short name or ID); default any line between the stops")
        /// `--walk 6m` (or `6`, `6min`): 0 to 180 minutes.
        static let walk = Option<Int>(
            "--walk", value: "MINUTES", help: "The walk to the first stop, such as 6m (default 0)",
            read: { text in
                var text = text.lowercased()
                for suffix in ["min", "m"] where text.hasSuffix(suffix) {
                    text.removeLast(suffix.count)
                    break
                }
                guard text.count <= 3, text.allSatisfy(\.isASCIIDigit), let minutes = Int(text), (0...Route.Transit.longestWalk).contains(minutes) else {
                    return nil
                }
                return minutes
            },
            invalid: { _ in "Invalid --walk: minutes from 0 to \(Route.Transit.longestWalk), such as 6m." })
        static let fallback = Option<RouteProvider>(
            "--fallback", value: "ENGINE",
            help: "\(RouteProvider.spoken(RouteProvider.freeFlow)): its free-flow estimate stands in when the provider fails or its budget is spent",
            values: .words(RouteProvider.freeFlow.map(\.rawValue)), read: { RouteProvider(rawValue: $0).flatMap { $0.isFreeFlow ? $0 : nil } },
            invalid: { "Unknown --fallback '\(DisplayText.line($0))': use \(RouteProvider.spoken(RouteProvider.freeFlow))." })
        /// What each provider is asked, from its descriptor: its name, then its lines.
        static var askedLines: String {
            RouteProvider.allCases.map { provider in
                let asked = provider.descriptor.asked
                let name = "  " + provider.rawValue + String(repeating: " ", count: max(1, 8 - provider.rawValue.count))
                return ([name + (asked.first ?? "")] + asked.dropFirst().map { String(repeating: " ", count: 10) + $0 }).joined(separator: "\n")
            }.joined(separator: "\n")
        }

        /// `TomTom, HERE, Google`.
        static func names(_ providers: [RouteProvider]) -> String { providers.map(\.displayName).joined(separator: ", ") }

        static let noCheck = Flag("--no-check", help: "Save it without asking the provider now (it is fetched at the next refresh)")
        static let timeout = Options.timeout(help: "Deadline for the check, retries included (default 25)")

        /// `route add ID --transit NAME --from-stop STOP --to-stop STOP [--line L] [--walk 6m]`.
        private static func addTransitRoute(_ id: RouteID, name: String?, invocation: Invocation) throws {
            guard let feed = try invocation.value(transit), let from = try invocation.value(fromStop), let to = try invocation.value(toStop) else {
                throw invocation.usage("A transit route needs --transit NAME, --from-stop STOP and --to-stop STOP (find them with `traveltimes transit stops`).")
            }
            for option in [RouteOptions.from.spec, RouteOptions.to.spec, RouteOptions.provider.spec] where invocation.isGiven(option) {
                throw invocation.usage("\(option.name) is for a driving route; a transit route takes --from-stop and --to-stop.")
            }
            for (option, stop) in [("--from-stop", from), ("--to-stop", to)] where stop.isEmpty || stop.utf8.count > 255 || DisplayText.line(stop) != stop {
                throw invocation.usage("Invalid \(option): a stop ID as `transit stops` lists it.")
            }
            let line = try invocation.value(Self.line)
            if let line, line.isEmpty || line.utf8.count > 64 || DisplayText.line(line) != line {
                throw invocation.usage("Invalid --line: a route's short name or ID, such as 545.")
            }
            let walk = try invocation.value(Self.walk) ?? 0
            let commute = try invocation.commute()
            let route: Route
            do {
                route = try commute.transit.addTransitRoute(Transit.TransitRequest(
                    id: id, name: name, feed: feed, fromStop: from, toStop: to, line: line, walkMinutes: walk))
            } catch let problem as TransitProblem {
                throw TransitFailed(problem: problem, context: "route \(id) was not added", secrets: [])
            }
            guard case .transitFeed(let transit) = route.kind else { return }
            invocation.io.out("Added route \(id): \(route.name).")
            invocation.io.out("Next: \(TransitText.departures(of: transit, at: commute.now, calendar: commute.calendar))")
        }
    }
}
