import CommuteCore
import FoundationEssentials

extension Commands {
    enum RouteAddCommand {
        static let command = Command(
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
    }
}
