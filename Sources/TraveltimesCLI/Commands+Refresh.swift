import CommuteCore
import Foundation

extension Commands {
    static let refresh = Command(
        name: "refresh",
        summary: "Fetch travel times, save them, and reschedule every alert with them",
        options: [
            OptionSpec(name: "--source", value: "URL|FILE", help: "Feed to read (else $TRAVELTIMES_SOURCE, else `config set source`)", values: .file),
            OptionSpec(name: "--timeout", value: "SECONDS", help: "Deadline for the whole fetch, retries included (default 25)"),
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
            --json prints what was fetched, saved and rescheduled, and the warnings and delay-watch
            alerts, as one object (warnings still go to stderr as well).
            Run it every 15 minutes: `traveltimes install systemd` or `traveltimes install cron`.
            """
    ) { invocation in
        let timeout = try invocation.timeout()
        let quiet = invocation.arguments.has("--quiet")
        let commute = try invocation.commute()
        let configuration = try commute.store.configuration()
        let accessCode = invocation.environment["WSDOT_ACCESS_CODE"].flatMap { $0.isEmpty ? nil : $0 }
            ?? configuration.accessCode
        guard let text = invocation.arguments.value("--source") ?? invocation.environment["TRAVELTIMES_SOURCE"]
            ?? configuration.source, !text.isEmpty
        else {
            throw invocation.usage(
                "No feed source: pass --source URL|FILE, set TRAVELTIMES_SOURCE, or run "
                    + "`traveltimes config set source https://wsdot.wa.gov/Traffic/api/TravelTimes/TravelTimesREST.svc/GetTravelTimesAsJson`.")
        }
        let secrets = (accessCode.map { [$0] } ?? []) + FeedSource.secrets(in: text)
        let display = FeedSource.display(text)
        guard let source = FeedSource(text) else {
            throw invocation.usage("Invalid source '\(display)': a URL needs a host, such as https://wsdot.wa.gov/….")
        }
        let io = invocation.io.redacting(secrets)
        let spinner = Spinner(io: quiet || invocation.wantsJSON ? nil : io, message: "Fetching \(display)")
        let result: Commute.RefreshResult
        do {
            defer { spinner.stop() }
            result = try commute.refresh(
                from: source, display: display, secrets: secrets, accessCode: accessCode,
                fetcher: FeedFetcher(client: HelperHTTPClient(helperPath: invocation.fetchHelperPath())), timeout: timeout)
        } catch let error as Commute.SavedButNotPlanned {
            throw RefreshFailed(underlying: error.underlying, saved: error.routeCount, secrets: secrets)
        } catch {
            throw RefreshFailed(underlying: error, kept: commute.keptDataDescription(), secrets: secrets)
        }
        let summary = result.reschedule
        if !quiet && !invocation.wantsJSON {
            if result.notModified {
                io.out("Feed unchanged since the last refresh (HTTP 304); \(result.routeCount) routes kept; "
                    + "\(summary.scheduled) alerts scheduled (cap \(summary.cap)).")
            } else {
                var line = "Refreshed \(result.routeCount) routes from \(display)"
                if result.noData > 0 { line += " (\(result.noData) without data)" }
                io.out(line + "; \(summary.scheduled) alerts scheduled (cap \(summary.cap)).")
            }
        }
        // Quiet, a warning is news only once: what the last refresh said is not said again.
        for warning in result.warnings where !quiet || !warning.isRepeat {
            io.warn(warning.description)
        }
        invocation.report(summary)
        // Delay watches look at the routes just refreshed, passed forward. The refresh itself is
        // done: a watch that cannot be checked is a warning.
        var events: [Commute.WatchEvent] = []
        var watchProblem: String?
        do {
            events = try commute.checkWatches(
                routes: result.routesByID, notifiers: configuration.effectiveNotifiers, quietHours: configuration.quietHours,
                sender: invocation.sender(io))
            for event in events {
                if let problem = event.problem { io.err("traveltimes: watch alert \"\(event.message.title)\": \(problem)") }
            }
        } catch {
            watchProblem = DisplayText.line(String(describing: error))
            io.warn("delay watches were not checked: \(watchProblem ?? "")")
        }
        if invocation.wantsJSON {
            let json = RefreshJSON(
                result, source: display, at: TimeFormatting.iso8601(commute.now, calendar: commute.calendar), events: events,
                watchProblem: watchProblem)
            try invocation.printJSON(json, through: io)
        }
    }
}

/// `refresh --json`: a public contract. Secrets are already out of every string (the source is
/// shown as `display` shows it; messages went through the same redaction as stderr).
struct RefreshJSON: EveryKeyEncodable {
    struct Routes: EveryKeyEncodable {
        var saved: Int
        var withoutData: Int
        var leftOut: [LeftOut]
    }

    struct LeftOut: EveryKeyEncodable {
        var id: String
        var reason: String
    }

    struct Rescheduled: EveryKeyEncodable {
        var requested: Int
        var scheduled: Int
        var deferred: Int
        var cap: Int
    }

    struct Warning: EveryKeyEncodable {
        var message: String
        /// The last successful refresh said it too (a quiet refresh does not repeat it).
        var isRepeat: Bool
    }

    struct WatchAlert: EveryKeyEncodable {
        var routeID: String
        var direction: String
        var title: String
        /// Why it was held back or failed; nil when it was sent.
        var problem: String?
    }

    var source: String
    var refreshedAt: String
    /// The server answered 304: the saved routes are current, and were kept.
    var notModified: Bool
    var routes: Routes
    var missingFavorites: [String]
    var rescheduled: Rescheduled
    var warnings: [Warning]
    var watchAlerts: [WatchAlert]
    /// Why the delay watches could not be checked; nil when they were.
    var watchProblem: String?

    init(_ result: Commute.RefreshResult, source: String, at moment: String, events: [Commute.WatchEvent], watchProblem: String?) {
        self.source = source
        refreshedAt = moment
        notModified = result.notModified
        routes = Routes(
            saved: result.routeCount, withoutData: result.noData,
            leftOut: result.droppedRoutes.map { LeftOut(id: $0.id, reason: $0.reason) })
        missingFavorites = result.missingFavorites
        let summary = result.reschedule
        rescheduled = Rescheduled(requested: summary.requested, scheduled: summary.scheduled, deferred: summary.deferred, cap: summary.cap)
        warnings = result.warnings.map { Warning(message: $0.description, isRepeat: $0.isRepeat) }
        watchAlerts = events.map {
            WatchAlert(routeID: $0.routeID, direction: $0.direction.rawValue, title: $0.message.title, problem: $0.problem)
        }
        self.watchProblem = watchProblem
    }
}

/// A refresh that failed: what failed, and what is on disk now — the data kept in its place, or
/// the routes it saved before the alerts could not be re-planned.
struct RefreshFailed: ProcessError, CustomStringConvertible {
    var underlying: any Error
    var kept: String? = nil
    /// Routes saved to routes.json before the failure; nil when nothing was replaced.
    var saved: Int? = nil
    var secrets: [String]

    var exitCode: ExitCode { (underlying as? any ProcessError)?.exitCode ?? .failure }

    var description: String {
        let text = saved.map { "saved \($0) routes to routes.json, but could not re-plan the alerts: \(underlying)" }
            ?? "refresh failed: \(underlying)" + (kept.map { "; \($0)" } ?? "")
        return FeedSource.redact(text, secrets: secrets)
    }
}

extension Invocation {
    /// `--timeout SECONDS`, default 25.
    func timeout() throws(UsageError) -> TimeInterval {
        guard let text = arguments.value("--timeout") else { return 25 }
        guard let seconds = NumberParsing.decimal(text), seconds > 0, seconds <= 600 else {
            throw usage("Invalid --timeout '\(text)': use seconds from 0.1 to 600.")
        }
        return seconds
    }
}

/// A one-line progress message on a terminal's stderr for fetches longer than half a second.
/// Prints nothing when stderr is not a terminal (cron).
final class Spinner: @unchecked Sendable {
    private let timer: DispatchSourceTimer?
    /// Protects `frame` and `shown`, touched by the timer's queue and by `stop()`.
    private let lock = NSLock()
    private var frame = 0
    private var shown = false
    private let io: TerminalIO?

    /// Shows nothing when `io` is nil (quiet) or stderr is not a terminal.
    init(io: TerminalIO?, message: String) {
        self.io = io
        guard let io, io.errorIsTerminal else {
            timer = nil
            return
        }
        let timer = DispatchSource.makeTimerSource(queue: .global())
        self.timer = timer
        let frames = ["|", "/", "-", "\\"]
        timer.schedule(deadline: .now() + 0.5, repeating: 0.1)
        timer.setEventHandler { [weak self] in
            guard let self else { return }
            let text = self.lock.withLock { () -> String in
                self.shown = true
                self.frame += 1
                return "\r\(frames[self.frame % frames.count]) \(message)…"
            }
            io.writeError(text)
        }
        timer.resume()
    }

    func stop() {
        timer?.cancel()
        if lock.withLock({ shown }) { io?.writeError("\r\u{1B}[K") }
    }
}
