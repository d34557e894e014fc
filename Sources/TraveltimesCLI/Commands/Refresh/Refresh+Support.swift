import CommuteCore
import FoundationEssentials
import Synchronization

extension Commands {
    /// `Refreshed 163 routes from …; 12 alerts scheduled (cap 64).`
    static func reportFeed(_ result: Refresh.RefreshResult, display: String, _ io: TerminalIO) {
        let summary = result.reschedule
        if result.notModified {
            io.out("Feed unchanged since the last refresh (HTTP 304); \(result.routeCount) routes kept; "
                + "\(summary.scheduled) alerts scheduled (cap \(summary.cap)).")
        } else {
            var line = "Refreshed \(result.routeCount) routes from \(display)"
            if result.noData > 0 { line += " (\(result.noData) without data)" }
            io.out(line + "; \(summary.scheduled) alerts scheduled (cap \(summary.cap)).")
        }
    }

    /// What was fetched and what was left as it was; a spent budget as a warning (once a day when
    /// quiet). Failures are the error the command ends with.
    static func reportCustom(_ result: CustomRoutes.CustomRefreshResult, quiet: Bool, _ commute: Commute, _ io: TerminalIO) {
        let skipped = result.outcomes.filter { $0.result == .skipped && !($0.failure?.isBudget ?? false) && $0.skip != .notAskedFor }
        if !quiet {
            if !result.fetched.isEmpty {
                let list = result.fetched.map { "\($0.routeID) \(minutes($0.route.currentMinutes)) (\($0.provider.displayName))" }
                var line = "Fetched \(result.fetched.count) custom route\(result.fetched.count == 1 ? "" : "s"): \(list.joined(separator: ", "))"
                if let summary = result.reschedule { line += "; \(summary.scheduled) alerts scheduled (cap \(summary.cap))" }
                io.out(line + ".")
            }
            if !skipped.isEmpty {
                let reasons = Dictionary(grouping: skipped) { outcome in
                    switch outcome.skip {
                    case .notInPlay: "not in play"
                    case .askedRecently: "asked within min-interval"
                    case .estimatedToday: "free-flow estimate asked today"
                    case .engineFailing: "its engine failed within the hour"
                    // A skip that is a failure: the time ran out before its turn (a missing key
                    // or a spent budget is said as a failure or a warning instead).
                    case .notAskedFor, nil: "not asked: the time ran out first"
                    }
                }
                let parts = reasons.keys.sorted().map { "\(reasons[$0]?.count ?? 0) \($0)" }
                io.out("Kept \(skipped.count) custom route\(skipped.count == 1 ? "" : "s") as \(skipped.count == 1 ? "it was" : "they were") (\(parts.joined(separator: ", "))).")
            }
        }
        let overBudget = Dictionary(grouping: result.outcomes.filter { $0.failure?.isBudget ?? false }, by: \.provider)
        for provider in overBudget.keys.sorted() {
            guard let outcomes = overBudget[provider], let failure = outcomes.first?.failure else { continue }
            let isNews = (try? commute.customRoutes.noteBudgetSpent(provider)) ?? true
            guard !quiet || isNews else { continue }
            let kept = outcomes.map { outcome in
                outcome.route.custom?.fetchedAt.map {
                    "\(outcome.routeID) keeps its time from \(TimeFormatting.age(commute.now.timeIntervalSince($0))) ago"
                } ?? "\(outcome.routeID) has no time yet"
            }
            io.warn("\(failure); \(kept.joined(separator: ", "))")
        }
    }
}

/// One `refresh`, step by step: the feed, then the custom routes, then the delay watches, then
/// what to print and the error to end with. Every request goes through one fetch helper.
struct RefreshRun {
    let invocation: Invocation
    let commute: Commute
    let session: HelperSession
    let access: ProviderAccess
    let accessCode: String?
    /// The feed source in force (the flag's, the environment's, or the saved one).
    let source: String?
    let secrets: [String]
    let io: TerminalIO
    let quiet: Bool
    let timeout: TimeInterval
    let start: TimeInterval
    /// The custom routes asked for by `--route`: then the feed is skipped.
    let only: [String]
    /// What the last refresh left: a failure said then is not said again under --quiet.
    let before: RefreshLog?

    var feed: Refresh.RefreshResult?
    var feedFailure: RefreshFailed?
    var display: String?
    var custom: CustomRoutes.CustomRefreshResult?
    var transit: [Transit.TransitRefreshOutcome] = []
    /// The alerts re-planned with the transit routes' new departures.
    var transitPlan: Commute.RescheduleSummary?
    var events: [Alerts.WatchEvent] = []
    var watchProblem: String?

    init(_ invocation: Invocation) throws {
        self.invocation = invocation
        timeout = try invocation.value(Commands.RefreshCommand.timeout) ?? Options.defaultTimeout
        quiet = invocation.isSet(Options.quiet)
        commute = try invocation.commute()
        only = try invocation.values(Commands.RefreshCommand.route)
        session = HelperSession(helperPath: invocation.fetchHelperPath(), workers: CustomRoutes.parallelRequests, environment: invocation.environment)
        do {
            access = try invocation.providerAccess(commute.configuration, session: session)
        } catch {
            session.finish()
            throw error
        }
        accessCode = Credentials(environment: invocation.environment, configuration: commute.configuration).accessCode?.value
        source = FeedSource.effective(
            argument: try invocation.value(Commands.RefreshCommand.source), environment: invocation.environment, saved: commute.configuration.source)
        secrets = (accessCode.map { [$0] } ?? []) + (source.map(FeedSource.secrets) ?? []) + access.secrets
            + (commute.configuration.transitFeeds ?? []).flatMap(\.secrets)
        io = invocation.io.redacting(secrets)
        start = access.clock()
        before = try? commute.refresh.log()
    }

    /// The feed, when there is a source and not just some custom routes were asked for.
    mutating func refreshFeed() throws {
        guard let source, only.isEmpty else { return }
        let shown = FeedSource.display(source)
        display = shown
        guard let feedSource = FeedSource(source) else {
            throw invocation.usage("Invalid source '\(shown)': a URL needs a host, such as https://wsdot.wa.gov/….")
        }
        let spinner = Spinner(io: quiet || invocation.wantsJSON ? nil : io, message: "Fetching \(shown)")
        do {
            defer { spinner.stop() }
            feed = try commute.refresh.run(
                from: feedSource, display: shown, secrets: secrets, accessCode: accessCode,
                fetcher: FeedFetcher(client: session), timeout: timeout)
        } catch let error as Refresh.SavedButNotPlanned {
            feedFailure = RefreshFailed(underlying: error.underlying, saved: error.routeCount, secrets: secrets)
        } catch {
            feedFailure = RefreshFailed(underlying: error, kept: commute.refresh.keptDataDescription(), secrets: secrets)
        }
        if let feed, !quiet, !invocation.wantsJSON { Commands.reportFeed(feed, display: shown, io) }
        // Calm under cron, loud once: a failure is said when it starts or changes, and its end.
        guard let before, before.failuresSinceSuccess > 0 else { return }
        if feed != nil {
            let since = before.failingSince.map { " since \(TimeFormatting.moment($0, relativeTo: commute.now, calendar: commute.calendar))" } ?? ""
            io.err("traveltimes: refresh works again, after \(before.failuresSinceSuccess) failed \(before.failuresSinceSuccess == 1 ? "try" : "tries")\(since)")
        } else if quiet, let after = try? commute.refresh.log(), after.failuresSinceSuccess > before.failuresSinceSuccess,
            after.lastResult == before.lastResult
        {
            feedFailure?.isQuietRepeat = true
        }
    }

    /// The custom routes in play (or those asked for): the feed's refresh has them in hand;
    /// otherwise the cache is read. (After a failed feed, a cache that cannot be read has none:
    /// the feed's error is the one to tell.)
    mutating func refreshCustomRoutes() throws {
        let hasCustom = try feed.map { !$0.customRoutes.isEmpty }
            ?? (feedFailure == nil ? commute.routes.all() : (try? commute.routes.all()) ?? .empty).routes.contains(where: \.isProviderRoute)
        if source == nil, !hasCustom, commute.configuration.transitFeeds?.isEmpty ?? true {
            throw invocation.usage(
                "No feed source and no custom routes: pass --source URL|FILE, set TRAVELTIMES_SOURCE, run "
                    + "`traveltimes config set source \(FeedSource.wsdotURL)`, "
                    + "add a route of your own with `traveltimes route add`, or a transit feed with `traveltimes transit add`.")
        }
        guard hasCustom || !only.isEmpty else { return }
        let selection: CustomRoutes.CustomSelection = !only.isEmpty ? .routes(only) : invocation.isSet(Commands.RefreshCommand.all) ? .all : .inPlay
        let spinner = Spinner(io: quiet || invocation.wantsJSON ? nil : io, message: "Asking the routing providers")
        let result: CustomRoutes.CustomRefreshResult
        do {
            defer { spinner.stop() }
            result = try commute.customRoutes.refreshCustomRoutes(
                selection, access: access, policy: CustomRoutes.CustomPolicy(commute.configuration),
                timeout: max(0.1, timeout - (access.clock() - start)), custom: feed?.customRoutes)
        }
        custom = result
        Commands.reportCustom(result, quiet: quiet || invocation.wantsJSON, commute, io)
        if !invocation.wantsJSON { for warning in result.warnings { io.warn(warning.description) } }
    }

    /// The calendars (not with `--route`): each read again and its departures or days off planned
    /// again. A calendar that cannot be read keeps its last good copy, said once.
    mutating func refreshCalendars() throws {
        guard only.isEmpty, !(commute.configuration.calendars ?? []).isEmpty else { return }
        let places = (commute.configuration.calendars ?? []).contains { $0.from != nil } ? try invocation.searchAccess(commute.configuration) : nil
        let problems = try commute.calendars.refresh(
            client: session.limited(to: ICSReader.maximumBytes), access: places, timeout: max(0.1, timeout - (access.clock() - start)))
        try commute.reschedule()
        for problem in problems where !invocation.wantsJSON { io.warn(problem) }
    }

    /// The transit feeds (not with `--route`): timetables when due, realtime every time, then
    /// every transit route's departures, and the alerts re-planned with them. A feed's problem
    /// is a warning (quiet, only when new), and the refresh ends with 75.
    mutating func refreshTransit() throws {
        guard only.isEmpty, !(commute.configuration.transitFeeds ?? []).isEmpty else { return }
        let spinner = Spinner(io: quiet || invocation.wantsJSON ? nil : io, message: "Reading the transit feeds")
        do {
            defer { spinner.stop() }
            transit = try commute.transit.refreshTransit(
                client: session.limited(to: Transit.largestTimetableZip), timeout: max(0.1, timeout - (access.clock() - start)))
        }
        if transit.contains(where: { !$0.routes.isEmpty }) { transitPlan = try commute.reschedule() }
        for outcome in transit {
            if !quiet, !invocation.wantsJSON {
                let timetable = outcome.timetable.map { "timetable \($0.rawValue)" } ?? "timetable not fetched"
                let live = outcome.realtime ? "realtime read" : "no realtime data"
                io.out("Transit \(outcome.feed): \(timetable); \(live); \(outcome.routes.count) route\(outcome.routes.count == 1 ? "" : "s") planned.")
            }
            for problem in quiet ? outcome.newProblems : outcome.problems where !invocation.wantsJSON { io.warn(problem) }
            for warning in outcome.warnings where !invocation.wantsJSON { io.warn(warning.description) }
        }
    }

    /// Without a feed this run is the refresh: recorded as a success only when every custom route
    /// asked answered, none was held back by a failing engine and every transit feed was read;
    /// else as the failure it ends with. (With a feed, the feed's outcome is the refresh's; a
    /// provider's failures are its own health, said apart.)
    func recordRun() {
        guard source == nil, only.isEmpty else { return }
        let fetched = custom?.fetched.count ?? 0
        let kept = (custom?.outcomes.count ?? 0) - fetched - (custom?.failed.count ?? 0)
        var parts = custom.map { _ in ["custom routes: \(fetched) fetched, \(kept) kept"] } ?? []
        if !transit.isEmpty { parts.append("transit feeds: \(transit.count) read") }
        try? commute.refresh.recordRun(result: parts.joined(separator: "; "), failure: refreshFailure().map(recorded))
    }

    /// A failure as the refresh log keeps it: a transit feed's own words, not "see the warnings".
    func recorded(_ failure: any ProcessError & CustomStringConvertible) -> String {
        guard failure is TransitFeedsFailed, let problem = transit.flatMap(\.problems).first else { return failure.description }
        return problem
    }

    /// What this run could not refresh, as the error it ends with: the feed, else the custom routes
    /// that failed, else those a failing engine held back, else the transit feeds.
    func refreshFailure() -> (any ProcessError & CustomStringConvertible)? {
        if let feedFailure { return feedFailure }
        if let custom, !custom.failed.isEmpty { return CustomRoutesFailed(outcomes: custom.failed, secrets: secrets) }
        if let custom, case let resting = custom.outcomes.filter({ if case .engineFailing = $0.skip { true } else { false } }), !resting.isEmpty {
            return EnginesResting(outcomes: resting, failing: (try? commute.refresh.log())?.failingProviders ?? [:], commute: commute, secrets: secrets)
        }
        let failing = transit.filter { !$0.problems.isEmpty }
        if !failing.isEmpty {
            return TransitFeedsFailed(feeds: failing.map(\.feed), isQuietRepeat: quiet && failing.allSatisfy { $0.newProblems.isEmpty })
        }
        return nil
    }

    /// The feed's warnings (quiet, a warning is news only once), and how the alerts were planned.
    func reportPlans() {
        if let feed {
            for warning in feed.warnings where !quiet || !warning.isRepeat {
                io.warn(warning.description)
            }
            invocation.report(feed.reschedule)
        } else if let summary = custom?.reschedule ?? transitPlan {
            invocation.report(summary)
        }
    }

    /// Delay watches look at the routes just refreshed, passed forward. The refresh itself is
    /// done: a watch that cannot be checked is a warning.
    mutating func checkWatches() {
        let refreshed = (feed?.routesByID ?? [:]).merging(custom?.fetched.map { ($0.routeID, $0.route) } ?? []) { _, new in new }
            .merging(transit.flatMap(\.planned).map { ($0.id, $0) }) { _, new in new }
        guard !refreshed.isEmpty else { return }
        do {
            events = try commute.alerts.checkWatches(
                routes: refreshed, notifiers: commute.configuration.effectiveNotifiers, quietHours: commute.configuration.quietHours,
                sender: invocation.sender(io))
            for event in events {
                if let problem = event.problem { io.err("traveltimes: watch alert \"\(event.message.title)\": \(problem)") }
            }
        } catch {
            watchProblem = DisplayText.line(String(describing: error))
            io.warn("delay watches were not checked: \(watchProblem ?? "")")
        }
    }

    /// What changed, sent to each export (`export add`). The refresh itself is done: an export
    /// that fails is a warning, said once, and tried again at the next run.
    func publishExports() {
        guard !(commute.configuration.exports ?? []).isEmpty else { return }
        do {
            let outcomes = try commute.exports.publish(client: session.limited(to: 1 << 20), timeout: max(1, min(10, timeout - (access.clock() - start))))
            for outcome in outcomes {
                if case .failed(let problem, let isNew) = outcome.result, isNew, !invocation.wantsJSON {
                    io.warn("export \(outcome.target.id) (\(outcome.target.shownLocation)) failed: \(problem); tried again at the next run")
                }
            }
        } catch {
            io.warn("exports not sent: \(DisplayText.line(String(describing: error)))")
        }
    }

    /// `--json`'s object, then the error to end with: the feed's, else the custom routes' (a
    /// line each; the last is the error itself).
    func finish() throws {
        if invocation.wantsJSON {
            let json = RefreshJSON(
                feed, custom: custom, source: display, at: TimeFormatting.iso8601(commute.now, calendar: commute.calendar), events: events,
                watchProblem: watchProblem,
                providers: ProviderUsageJSON.all(
                    try? commute.refresh.log(), commute.configuration, day: commute.customRoutes.budgetDay,
                    custom: custom?.outcomes.map(\.route) ?? ((try? commute.routes.all().routes.filter(\.isProviderRoute)) ?? [])),
                feedError: feedFailure.map { FeedSource.redact($0.description, secrets: secrets) }, calendar: commute.calendar,
                transit: transit)
            try invocation.printJSON(json, through: io)
        }
        if let failure = refreshFailure() {
            // Under --quiet a failure is said when it starts or changes (the feed's says so itself).
            if quiet, !(failure is RefreshFailed), !(failure is TransitFeedsFailed), let before, before.failuresSinceSuccess > 0,
                before.lastResult == recorded(failure)
            {
                throw QuietRepeat(exitCode: failure.exitCode, explanation: failure.explanation)
            }
            if let custom = failure as? CustomRoutesFailed {
                for line in custom.lines.dropLast() { io.err("traveltimes: \(DisplayText.line(line))") }
            }
            throw failure
        }
        let unsent = events.filter { if case .failed = $0.outcome { true } else { false } }
        if !unsent.isEmpty { throw WatchAlertsFailed(count: unsent.count) }
    }
}

extension Options {
    /// `--timeout SECONDS` (default 25), worded for what it bounds.
    static func timeout(help: String) -> Option<TimeInterval> {
        Option(
            "--timeout", value: "SECONDS", help: help, read: { NumberParsing.decimal($0).flatMap { $0 > 0 && $0 <= 600 ? $0 : nil } },
            invalid: { "Invalid --timeout '\($0)': use seconds from 0.1 to 600." })
    }

    static let defaultTimeout: TimeInterval = 25
}
