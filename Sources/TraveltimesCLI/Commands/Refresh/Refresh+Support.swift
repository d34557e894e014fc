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
                let list = result.fetched.map { outcome in
                    let time = outcome.prediction.map { "\(minutes($0.minutes)) leaving \(commute.calendar.local($0.departure).time.label)" }
                    return "\(outcome.routeID) \(time ?? minutes(outcome.route.currentMinutes)) (\(outcome.provider.displayName))"
                }
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
                    case .planned: "not needed now by the request plan"
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

/// How `refresh` says what each step did as it ends (`Commute.refresh` runs them): the lines,
/// the warnings, a spinner while a long step runs. Under `--quiet` only what is news; with
/// `--json`, the object says the rest.
final class RefreshPrinter: RefreshObserver {
    let invocation: Invocation
    let commute: Commute
    let io: TerminalIO
    let quiet: Bool
    /// The feed as it is shown (its secrets hidden), when there is one.
    let display: String?
    private var spinner: Spinner?

    init(_ invocation: Invocation, _ commute: Commute, io: TerminalIO, quiet: Bool, display: String?) {
        self.invocation = invocation
        self.commute = commute
        self.io = io
        self.quiet = quiet
        self.display = display
    }

    func stopSpinner() {
        spinner?.stop()
        spinner = nil
    }

    func starting(_ step: RefreshStep) {
        let message: String? = switch step {
        case .feed: "Fetching \(display ?? "the feed")"
        case .customRoutes: "Asking the routing providers"
        case .transit: "Reading the transit feeds"
        case .calendars, .planned, .watches, .exports: nil
        }
        guard let message else { return }
        spinner = Spinner(io: quiet || invocation.wantsJSON ? nil : io, message: message)
    }

    func finished(_ step: RefreshStep, _ report: RefreshReport) {
        stopSpinner()
        let json = invocation.wantsJSON
        switch step {
        case .feed:
            if let feed = report.feed, let display, !quiet, !json { Commands.reportFeed(feed, display: display, io) }
            // Calm under cron, loud once: a failure is said when it starts or changes, and its end.
            if report.feed != nil, let before = report.before, before.failuresSinceSuccess > 0 {
                let since = before.failingSince.map { " since \(TimeFormatting.moment($0, relativeTo: commute.now, calendar: commute.calendar))" } ?? ""
                io.err("traveltimes: refresh works again, after \(before.failuresSinceSuccess) failed \(before.failuresSinceSuccess == 1 ? "try" : "tries")\(since)")
            }
        case .customRoutes:
            guard let result = report.custom else { return }
            Commands.reportCustom(result, quiet: quiet || json, commute, io)
            if !json { for warning in result.warnings { io.warn(warning.description) } }
        case .transit:
            for outcome in report.transit {
                if !quiet, !json {
                    let timetable = outcome.timetable.map { "timetable \($0.rawValue)" } ?? "timetable not fetched"
                    let live = outcome.realtime ? "realtime read" : "no realtime data"
                    io.out("Transit \(outcome.feed): \(timetable); \(live); \(outcome.routes.count) route\(outcome.routes.count == 1 ? "" : "s") planned.")
                }
                for problem in quiet ? outcome.newProblems : outcome.problems where !json { io.warn(problem) }
                for warning in outcome.warnings where !json { io.warn(warning.description) }
            }
        case .calendars:
            for problem in report.calendarProblems where !json { io.warn(problem) }
        case .planned:
            // The feed's warnings (quiet, a warning is news only once), and how the alerts were planned.
            if let feed = report.feed {
                for warning in feed.warnings where !quiet || !warning.isRepeat {
                    io.warn(warning.description)
                }
                invocation.report(feed.reschedule)
            } else if let summary = report.custom?.reschedule ?? report.transitPlan {
                invocation.report(summary)
            }
        case .watches:
            for event in report.events {
                if let problem = event.problem { io.err("traveltimes: watch alert \"\(event.message.title)\": \(problem)") }
            }
            if let problem = report.watchProblem { io.warn("delay watches were not checked: \(problem)") }
        case .exports:
            if !json { Commands.reportExportFailures(report.exports, io) }
            if let problem = report.exportProblem { io.warn("exports not sent: \(problem)") }
        }
    }
}

extension Commands {
    /// `--json`'s object, then the error to end with: the feed's, else the custom routes' (a line
    /// each; the last is the error itself), else the engines resting or the transit feeds; then
    /// any watch alert that could not be sent.
    static func finishRefresh(
        _ report: RefreshReport, _ invocation: Invocation, _ commute: Commute, io: TerminalIO, display: String?, secrets: [String], quiet: Bool
    ) throws {
        let feedFailure = report.feedError.map { error in
            var failure = report.feedSaved.map { RefreshFailed(underlying: error, saved: $0, secrets: secrets) }
                ?? RefreshFailed(underlying: error, kept: report.feedKept, secrets: secrets)
            failure.isQuietRepeat = report.feedIsQuietRepeat
            return failure
        }
        if invocation.wantsJSON {
            let json = RefreshJSON(
                report.feed, custom: report.custom, source: display, at: TimeFormatting.iso8601(commute.now, calendar: commute.calendar),
                events: report.events, watchProblem: report.watchProblem,
                providers: ProviderUsageJSON.all(
                    try? commute.refresh.log(), commute.configuration, day: commute.customRoutes.budgetDay,
                    custom: report.custom?.outcomes.map(\.route) ?? ((try? commute.routes.all().routes.filter(\.isProviderRoute)) ?? [])),
                feedError: feedFailure.map { FeedSource.redact($0.description, secrets: secrets) }, calendar: commute.calendar,
                transit: report.transit)
            try invocation.printJSON(json, through: io)
        }
        let shortfall = report.shortfall(commute, secrets: secrets, quiet: quiet).flatMap { $0 as? any ProcessError & CustomStringConvertible }
        if let failure: any ProcessError & CustomStringConvertible = feedFailure ?? shortfall {
            // Under --quiet a failure is said when it starts or changes (the feed's says so itself).
            if quiet, !(failure is RefreshFailed), !(failure is TransitFeedsFailed), let before = report.before, before.failuresSinceSuccess > 0,
                before.lastResult == report.recorded(failure)
            {
                throw QuietRepeat(exitCode: failure.exitCode, explanation: failure.explanation)
            }
            if let custom = failure as? CustomRoutesFailed {
                for line in custom.lines.dropLast() { io.err("traveltimes: \(DisplayText.line(line))") }
            }
            throw failure
        }
        let unsent = report.events.filter { if case .failed = $0.outcome { true } else { false } }
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
