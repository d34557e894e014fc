import CommuteCore
import FoundationEssentials

extension Commands {
    enum RefreshCommand {
        static let command = Command(
            name: "refresh",
            summary: "Fetch travel times, save them, and reschedule every alert with them",
            options: [
                source,
                all,
                route,
                timeout,
                dryRun,
                Options.quiet, Options.json, Options.now,
            ],
            discussion: """
                The feed is WSDOT's GetTravelTimesAsJson, from an http(s) URL or a file (a pipe such as
                /dev/stdin too). The access code comes from $WSDOT_ACCESS_CODE or `config set
                access-code`, and is added as the AccessCode query parameter when the URL has none. It
                never appears in any output or file but config.json, nor do a URL's user, password or
                query values.
                Connection failures and 5xx are retried after 1 s, 2 s, 4 s while the deadline allows;
                an unchanged feed (304) keeps the cache and still reschedules. Any failure before the
                routes are saved leaves the route cache and the pending alerts exactly as they were.
                A route holding an impossible value (a time over a day, a date past 9999) is left out,
                with a warning; the rest are saved.
                Custom routes (`route add`) on TomTom, HERE, Google and Transitous are asked when their
                alerts need it (`config set plan-requests`, on by default): once when an alert's window
                opens (3 h before an arrival, `lead` before a fixed time), about the moment you will
                leave — TomTom's departAt, HERE's and Google's departureTime predict it, and the question
                is asked once more when the answer moves the departure — then once 12 min before the
                alert goes out (a car route about now: today's traffic moves the prediction), and between
                only while its answers move 3 min or more (every 5 min); never twice in a minute, one
                answer serving every alert on the route. Other custom routes, watched ones and
                those never asked (and all with plan-requests off) are asked when in play: an alert
                that uses them within `lead` (60 min), a delay watch, or never fetched; never again
                within `min-interval` (10 min). Never past a provider's daily budget; each at most 3
                times (1 s, 2 s apart), and a provider whose every request failed is left alone for an
                hour. --dry-run says which custom routes would be asked now and why, and asks nothing. With no feed
                source, only the custom routes and transit feeds are refreshed, and the refresh is a
                success only when none failed or was held back (else it exits 75). A key that is missing or rejected names
                the setting to fix, keeps that provider's routes as they were, saves the others, and
                exits 69.
                Transit feeds (`transit add`, not with --route): each timetable at most daily, with its
                validators, and a new one taken only when it still serves every transit route; the
                realtime feeds every time, used only when dated within 15 minutes. A file that cannot be
                fetched or read is a warning (with --quiet, only when new), what was there is kept, the
                rest is refreshed, and the refresh exits 75.
                --json prints what was fetched, saved and rescheduled, each custom route fetched or
                skipped with the reason, and the warnings and delay-watch alerts, as one object
                (warnings still go to stderr as well).
                Run it every 15 minutes: `traveltimes install systemd` or `traveltimes install cron`.
                """,
            reportsPartialWork: true
        ) { invocation in
            let timeout = try invocation.value(Self.timeout) ?? Options.defaultTimeout
            let quiet = invocation.isSet(Options.quiet)
            let commute = try invocation.commute()
            let only = try invocation.values(Self.route)
            if invocation.isSet(Self.dryRun) { return try dryRunReport(invocation, commute, only: only) }
            let session = HelperSession(helperPath: invocation.fetchHelperPath(), workers: CustomRoutes.parallelRequests, environment: invocation.childEnvironment)
            defer { session.finish() }
            let access = try invocation.providerAccess(commute.configuration, session: session)
            let accessCode = Credentials(environment: invocation.environment, configuration: commute.configuration).accessCode?.value
            let source = FeedSource.effective(argument: try invocation.value(Self.source), environment: invocation.environment, saved: commute.configuration.source)
            let secrets = (accessCode.map { [$0] } ?? []) + (source.map(FeedSource.secrets) ?? []) + access.secrets
                + (commute.configuration.transitFeeds ?? []).flatMap(\.secrets)
            let io = invocation.io.redacting(secrets)
            var feed: (source: FeedSource, display: String)?
            if let source {
                let shown = FeedSource.display(source)
                if let parsed = FeedSource(source) {
                    feed = (parsed, shown)
                } else if only.isEmpty {
                    throw invocation.usage("Invalid source '\(shown)': a URL needs a host, such as https://wsdot.wa.gov/….")
                }
            }
            let display = only.isEmpty ? feed?.display : nil
            let printer = RefreshPrinter(invocation, commute, io: io, quiet: quiet, display: display)
            defer { printer.stopSpinner() }
            var request = RefreshRequest(
                feed: feed, accessCode: accessCode, only: only, selection: invocation.isSet(Self.all) ? .all : .inPlay, timeout: timeout, quiet: quiet,
                access: access, session: session, secrets: secrets, places: { try invocation.searchAccess(commute.configuration) },
                sender: invocation.sender(io))
            if let text = invocation.environment[AutobahnIncidents.baseURLVariable.name], !text.isEmpty {
                guard let base = RoutingAPI.baseURL(text) else {
                    throw invocation.usage("Invalid \(AutobahnIncidents.baseURLVariable.name) '\(FeedSource.display(text))': use http(s)://host[:port][/path].")
                }
                request.incidentsBase = base
            }
            let report: RefreshReport
            do {
                report = try commute.refresh(request, observer: printer)
            } catch is RefreshRequest.NothingToRefresh {
                throw invocation.usage(
                    "No feed source and no custom routes: pass --source URL|FILE, set TRAVELTIMES_SOURCE, run "
                        + "`traveltimes config set source \(FeedSource.wsdotURL)`, "
                        + "add a route of your own with `traveltimes route add`, or a transit feed with `traveltimes transit add`.")
            }
            if let problem = report.incidentProblem { io.warn("incidents not checked: \(problem)") }
            // A road the incident feed could not answer for keeps what was known: said, not an error.
            if !quiet {
                for (road, problem) in report.incidents.failed.sorted(by: { $0.key < $1.key }) {
                    io.warn("incidents on \(road) not read: \(problem); those known are kept")
                }
            }
            try Commands.finishRefresh(report, invocation, commute, io: io, display: display, secrets: secrets, quiet: quiet)
        }

        static let source = Option<String>("--source", value: "URL|FILE", help: "Feed to read (else $TRAVELTIMES_SOURCE, else `config set source`)", values: .file)
        static let all = Flag("--all", help: "Ask about every custom route, in play or not (the budget still applies)")
        static let route = Option<RouteID>(
            "--route", value: "ID", help: "Ask about this custom route only, and skip the feed (repeatable)", repeatable: true, values: .customRouteID,
            parse: { try ScheduleParsing.routeID($0) })
        static let timeout = Options.timeout(help: "Deadline for the whole fetch, retries included (default 25)")
        static let dryRun = Flag("--dry-run", help: "Say which custom routes a refresh would ask now, and why; ask nothing, change nothing")

        /// `refresh --dry-run`: what would be asked, and why; the feed and transit feeds named.
        static func dryRunReport(_ invocation: Invocation, _ commute: Commute, only: [RouteID]) throws {
            guard !invocation.isSet(Options.json) else { throw invocation.usage("--dry-run prints its plan as text: leave out --json.") }
            let credentials = Credentials(environment: invocation.environment, configuration: commute.configuration)
            let keys = Set(RouteProvider.allCases.filter { !$0.needsKey || credentials.key(for: $0) != nil })
            let selection: CustomRoutes.CustomSelection = !only.isEmpty ? .routes(only) : invocation.isSet(Self.all) ? .all : .inPlay
            let planned = try commute.customRoutes.plannedRequests(selection, policy: CustomRoutes.CustomPolicy(commute.configuration), keys: keys)
            let io = invocation.io
            if only.isEmpty, let source = FeedSource.effective(argument: try invocation.value(Self.source), environment: invocation.environment, saved: commute.configuration.source) {
                io.out("The feed would be read: \(FeedSource.display(source)) (one request for all its routes).")
            }
            let transit = commute.configuration.transitFeeds ?? []
            if only.isEmpty, !transit.isEmpty {
                io.out("Transit feeds would be read: \(transit.map(\.name).joined(separator: ", ")) (each realtime feed, the timetable at most daily).")
            }
            let asked = planned.filter(\.wouldAsk)
            let left = planned.filter { !$0.wouldAsk }
            func line(_ request: CustomRoutes.PlannedRequest) -> String { "  \(request.routeID) (\(request.provider.displayName)): \(request.reason)" }
            if planned.isEmpty { io.out("No custom routes.") }
            if !asked.isEmpty {
                io.out("Would ask \(asked.count) custom route\(asked.count == 1 ? "" : "s") now:")
                asked.forEach { io.out(line($0)) }
            }
            if !left.isEmpty {
                io.out("Would not ask \(left.count):")
                left.forEach { io.out(line($0)) }
            }
            io.out("Nothing was asked or changed (--dry-run).")
        }
    }
}
