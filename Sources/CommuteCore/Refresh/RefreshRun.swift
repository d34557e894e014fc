import Basics
import CommuteDelivery
import CommuteModel
@_spi(Store) import CommuteSources
import FoundationEssentials
@_spi(Store) import CommuteStore

/// The steps of a refresh, in the order they run.
public enum RefreshStep: Sendable, Equatable {
    /// WSDOT's feed, when there is a source.
    case feed
    /// The custom routes in play (or those asked for).
    case customRoutes
    /// The transit feeds: timetables when due, realtime every time.
    case transit
    /// The calendars: each read again and planned.
    case calendars
    /// Every re-plan done: the alerts as they now stand.
    case planned
    /// The delay watches, over the routes just refreshed.
    case watches
    /// The exports, sent what changed.
    case exports
}

/// What a front end hears of a refresh as it goes: a long step beginning (for a spinner), and
/// each step's end with the report so far (for its lines). Called on the refresh's thread.
public protocol RefreshObserver: AnyObject {
    func starting(_ step: RefreshStep)
    func finished(_ step: RefreshStep, _ report: RefreshReport)
}

/// What one refresh is asked to do, and with what.
public struct RefreshRequest {
    /// The feed and how to show it, when there is a source.
    public var feed: (source: FeedSource, display: String)?
    public var accessCode: String?
    /// `--route`: only these custom routes, and nothing else (no feed, transit or calendar).
    public var only: [RouteID]
    /// Which custom routes are asked about.
    public var selection: CustomRoutes.CustomSelection
    /// The deadline for the whole refresh, retries included.
    public var timeout: TimeInterval
    /// `--quiet`: a failure is news only when it starts or changes.
    public var quiet: Bool
    public var access: ProviderAccess
    /// The one fetch helper every request of the run goes through.
    public var session: HelperSession
    /// Every secret in hand, taken out of whatever is said.
    public var secrets: [String]
    /// Place search, for calendars whose events' routes start from a place: made only then.
    public var places: () throws -> Places.SearchAccess?
    /// Where delay-watch alerts go.
    public var sender: NotifierSender
    /// The Autobahn API's address in place of its own (`TRAVELTIMES_AUTOBAHN_URL`, a test server).
    public var incidentsBase: String?

    public init(
        feed: (source: FeedSource, display: String)?, accessCode: String?, only: [RouteID], selection: CustomRoutes.CustomSelection,
        timeout: TimeInterval, quiet: Bool, access: ProviderAccess, session: HelperSession, secrets: [String],
        places: @escaping () throws -> Places.SearchAccess?, sender: NotifierSender
    ) {
        self.feed = feed
        self.accessCode = accessCode
        self.only = only
        self.selection = selection
        self.timeout = timeout
        self.quiet = quiet
        self.access = access
        self.session = session
        self.secrets = secrets
        self.places = places
        self.sender = sender
    }

    /// No feed source, no custom route and no transit feed: nothing to refresh.
    public struct NothingToRefresh: Error, Sendable {}
}

/// What one refresh did, step by step.
public struct RefreshReport {
    /// What the last refresh left: a failure said then is not said again under `--quiet`.
    public var before: RefreshLog?
    public var feed: Refresh.RefreshResult?
    /// Why the feed could not be refreshed.
    public var feedError: (any Error)?
    /// Routes the feed saved before the alerts could not be re-planned; nil when none were.
    public var feedSaved: Int?
    /// What is kept in place of a feed that failed before saving.
    public var feedKept: String?
    /// Under `--quiet`, the feed failed as the last refresh did: nothing new to say.
    public var feedIsQuietRepeat = false
    public var custom: CustomRoutes.CustomRefreshResult?
    public var transit: [Transit.TransitRefreshOutcome] = []
    /// The alerts re-planned with the transit routes' new departures.
    public var transitPlan: Commute.RescheduleSummary?
    /// The incident feed's roads asked, and why any failed.
    public var incidents = Incidents.IncidentOutcome()
    /// Why the incident feed was not asked (`incidents.json` cannot be read).
    public var incidentProblem: String?
    /// Each calendar that could not be read, once.
    public var calendarProblems: [String] = []
    public var events: [Alerts.WatchEvent] = []
    /// Why the delay watches were not checked.
    public var watchProblem: String?
    public var exports: [Exports.Outcome] = []
    /// Why the exports were not sent.
    public var exportProblem: String?

    /// What the run could not refresh beyond the feed, as the error it ends with: the custom routes
    /// that failed, else those a failing engine held back, else the transit feeds.
    public func shortfall(_ commute: Commute, secrets: [String], quiet: Bool) -> (any Error & CustomStringConvertible)? {
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

    /// A failure as the refresh log keeps it: a transit feed's own words, not "see the warnings".
    public func recorded(_ failure: any Error & CustomStringConvertible) -> String {
        guard failure is TransitFeedsFailed, let problem = transit.flatMap(\.problems).first else { return failure.description }
        return problem
    }
}

extension Commute {
    /// One refresh: the feed, the custom routes, the transit feeds, the record of a run with no
    /// feed, the calendars, the delay watches and the exports, in that order, each told to
    /// `observer` as it ends. A step that fails is in the report (`feedError`, `shortfall`); a store
    /// that cannot be read or written ends the run with its error.
    public func refresh(_ request: RefreshRequest, observer: any RefreshObserver) throws -> RefreshReport {
        // The exports are sent at the end: the re-plans on the way leave their files to it.
        var commute = self
        commute.exportsFollow = !(configuration.exports ?? []).isEmpty
        var run = RefreshSteps(commute: commute, request: request, observer: observer, started: request.access.clock())
        run.report.before = try? commute.refresh.log()
        run.feed()
        try run.customRoutes()
        try run.transit()
        try run.incidents()
        run.record()
        try run.calendars()
        observer.finished(.planned, run.report)
        run.watches()
        run.exports()
        return run.report
    }
}

/// The steps of `Commute.refresh`, sharing the report and the deadline.
private struct RefreshSteps {
    let commute: Commute
    let request: RefreshRequest
    let observer: any RefreshObserver
    let started: TimeInterval
    var report = RefreshReport()

    /// What is left of the deadline, never nothing.
    func remaining(atLeast least: TimeInterval = 0.1) -> TimeInterval {
        max(least, request.timeout - (request.access.clock() - started))
    }

    /// The feed, when there is a source and not just some custom routes were asked for.
    mutating func feed() {
        guard let feed = request.feed, request.only.isEmpty else { return }
        observer.starting(.feed)
        do {
            report.feed = try commute.refresh.run(
                from: feed.source, display: feed.display, secrets: request.secrets, accessCode: request.accessCode,
                fetcher: FeedFetcher(client: request.session), timeout: request.timeout)
        } catch let error as Refresh.SavedButNotPlanned {
            report.feedError = error.underlying
            report.feedSaved = error.routeCount
        } catch {
            report.feedError = error
            report.feedKept = commute.refresh.keptDataDescription()
        }
        // Calm under cron: a failure is news when it starts or changes.
        if report.feed == nil, request.quiet, let before = report.before, before.failuresSinceSuccess > 0,
            let after = try? commute.refresh.log(), after.failuresSinceSuccess > before.failuresSinceSuccess, after.lastResult == before.lastResult
        {
            report.feedIsQuietRepeat = true
        }
        observer.finished(.feed, report)
    }

    /// The custom routes in play (or those asked for): the feed's refresh has them in hand;
    /// otherwise the cache is read. (After a failed feed, a cache that cannot be read has none:
    /// the feed's error is the one to tell.)
    mutating func customRoutes() throws {
        let hasCustom = try report.feed.map { !$0.customRoutes.isEmpty }
            ?? (report.feedError == nil ? commute.routes.all() : (try? commute.routes.all()) ?? .empty).routes.contains(where: \.isProviderRoute)
        if request.feed == nil, !hasCustom, commute.configuration.transitFeeds?.isEmpty ?? true { throw RefreshRequest.NothingToRefresh() }
        guard hasCustom || !request.only.isEmpty else { return }
        observer.starting(.customRoutes)
        report.custom = try commute.customRoutes.refreshCustomRoutes(
            request.only.isEmpty ? request.selection : .routes(request.only), access: request.access,
            policy: CustomRoutes.CustomPolicy(commute.configuration), timeout: remaining(), custom: report.feed?.customRoutes)
        observer.finished(.customRoutes, report)
    }

    /// The transit feeds (not with `--route`): timetables when due, realtime every time, then
    /// every transit route's departures, and the alerts re-planned with them.
    mutating func transit() throws {
        guard request.only.isEmpty, !(commute.configuration.transitFeeds ?? []).isEmpty else { return }
        observer.starting(.transit)
        report.transit = try commute.transit.refreshTransit(client: request.session.limited(to: Transit.largestTimetableZip), timeout: remaining())
        if report.transit.contains(where: { !$0.routes.isEmpty }) { report.transitPlan = try commute.reschedule() }
        observer.finished(.transit, report)
    }

    /// The incident feed, for the motorways the car routes' lines use (not with `--route`).
    mutating func incidents() throws {
        guard request.only.isEmpty else { return }
        do {
            report.incidents = try commute.incidents.refreshIncidents(
                client: request.session.limited(to: AutobahnIncidents.maximumAnswerBytes), userAgent: request.access.userAgent,
                base: request.incidentsBase, timeout: min(20, remaining()), access: request.access,
                custom: report.custom?.outcomes.map(\.route) ?? [])
        } catch let error as StoreError {
            // The rest of the refresh is not lost to it: said, and the file left as it is.
            report.incidentProblem = error.description
        }
    }

    /// Without a feed this run is the refresh: recorded as a success only when every custom route
    /// asked answered, none was held back by a failing engine and every transit feed was read;
    /// else as the failure it ends with. (With a feed, the feed's outcome is the refresh's; a
    /// provider's failures are its own health, said apart.)
    func record() {
        guard request.feed == nil, request.only.isEmpty else { return }
        let fetched = report.custom?.fetched.count ?? 0
        let kept = (report.custom?.outcomes.count ?? 0) - fetched - (report.custom?.failed.count ?? 0)
        var parts = report.custom.map { _ in ["custom routes: \(fetched) fetched, \(kept) kept"] } ?? []
        if !report.transit.isEmpty { parts.append("transit feeds: \(report.transit.count) read") }
        let failure = report.shortfall(commute, secrets: request.secrets, quiet: request.quiet).map(report.recorded)
        try? commute.refresh.recordRun(result: parts.joined(separator: "; "), failure: failure)
    }

    /// The calendars (not with `--route`): each read again and its departures or days off planned
    /// again. A calendar that cannot be read keeps its last good copy, said once.
    mutating func calendars() throws {
        let sources = commute.configuration.calendars ?? []
        guard request.only.isEmpty, !sources.isEmpty else { return }
        let places = sources.contains { $0.from != nil } ? try request.places() : nil
        report.calendarProblems = try commute.calendars.refresh(
            client: request.session.limited(to: ICSReader.maximumBytes), access: places, timeout: remaining())
        try commute.reschedule()
        observer.finished(.calendars, report)
    }

    /// Delay watches look at the routes just refreshed, passed forward. The refresh itself is
    /// done: a watch that cannot be checked is a problem said, not the run's failure.
    mutating func watches() {
        let refreshed = (report.feed?.routesByID ?? [:]).merging(report.custom?.fetched.map { ($0.routeID, $0.route) } ?? []) { _, new in new }
            .merging(report.transit.flatMap(\.planned).map { ($0.id, $0) }) { _, new in new }
        guard !refreshed.isEmpty else { return }
        do {
            report.events = try commute.alerts.checkWatches(
                routes: refreshed, notifiers: commute.configuration.effectiveNotifiers, quietHours: commute.configuration.quietHours,
                sender: request.sender)
        } catch {
            report.watchProblem = DisplayText.line(String(describing: error))
        }
        observer.finished(.watches, report)
    }

    /// What changed, sent to each export (`export add`). An export that fails is tried again at
    /// the next run.
    mutating func exports() {
        guard !(commute.configuration.exports ?? []).isEmpty else { return }
        do {
            report.exports = try commute.exports.publish(client: request.session.limited(to: 1 << 20), timeout: min(10, remaining(atLeast: 1)))
        } catch {
            report.exportProblem = DisplayText.line(String(describing: error))
        }
        observer.finished(.exports, report)
    }
}
