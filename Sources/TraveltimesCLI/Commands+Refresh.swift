import CommuteCore
import Foundation

extension Commands {
    static let refresh = Command(
        name: "refresh",
        summary: "Fetch travel times, save them, and reschedule every alert with them",
        options: [
            OptionSpec(name: "--source", value: "URL|FILE", help: "Feed to read (else $TRAVELTIMES_SOURCE, else `config set source`)"),
            OptionSpec(name: "--timeout", value: "SECONDS", help: "Deadline for the whole fetch, retries included (default 25)"),
            Options.now,
        ],
        discussion: """
            The feed is WSDOT's GetTravelTimesAsJson, from an http(s) URL or a file. The access code
            comes from $WSDOT_ACCESS_CODE or `config set access-code`, and is added as the AccessCode
            query parameter when the URL has none; it never appears in any output.
            Connection failures and 5xx are retried after 1 s, 2 s, 4 s while the deadline allows;
            an unchanged feed (304) keeps the cache and still reschedules. Any failure leaves the
            route cache and the pending alerts exactly as they were.
            Run it from cron every 15 minutes:  */15 * * * * traveltimes refresh
            """
    ) { invocation in
        let timeout = try invocation.timeout()
        let commute = try invocation.commute()
        let configuration = try commute.store.configuration()
        let accessCode = invocation.environment["WSDOT_ACCESS_CODE"].flatMap { $0.isEmpty ? nil : $0 }
            ?? configuration.accessCode
        let io = invocation.io.redacting(accessCode.map { [$0] } ?? [])
        guard let text = invocation.arguments.value("--source") ?? invocation.environment["TRAVELTIMES_SOURCE"]
            ?? configuration.source, !text.isEmpty
        else {
            throw invocation.usage(
                "No feed source: pass --source URL|FILE, set TRAVELTIMES_SOURCE, or run "
                    + "`traveltimes config set source https://wsdot.wa.gov/Traffic/api/TravelTimes/TravelTimesREST.svc/GetTravelTimesAsJson`.")
        }
        let source = FeedSource(text)
        let display = FeedSource.redact(text, secrets: accessCode.map { [$0] } ?? [])
        let spinner = Spinner(io: io, message: "Fetching \(display)")
        let result: Commute.RefreshResult
        do {
            defer { spinner.stop() }
            result = try commute.refresh(
                from: source, display: display, accessCode: accessCode,
                fetcher: FeedFetcher(client: HelperHTTPClient(helperPath: invocation.environment["TRAVELTIMES_FETCH_HELPER"] ?? HelperHTTPClient.besideExecutable())), timeout: timeout)
        } catch {
            throw RefreshFailed(underlying: error, kept: commute.keptDataDescription(), secrets: accessCode.map { [$0] } ?? [])
        }
        let summary = result.reschedule
        if result.notModified {
            io.out("Feed unchanged since the last refresh (HTTP 304); \(result.routeCount) routes kept; "
                + "\(summary.scheduled) alerts scheduled (cap \(summary.cap)).")
        } else {
            var line = "Refreshed \(result.routeCount) routes from \(display)"
            if result.noData > 0 { line += " (\(result.noData) without data)" }
            io.out(line + "; \(summary.scheduled) alerts scheduled (cap \(summary.cap)).")
        }
        for id in result.missingFavorites {
            io.warn("favourite \(id) is not in this feed: it stays a favourite and shows as unavailable")
        }
        // Counts only: nothing to redact.
        invocation.report(summary)
        // Delay watches look at the routes just refreshed, passed forward.
        let events = try commute.checkWatches(routes: result.routesByID, notifiers: configuration.effectiveNotifiers) {
            message, notifier in send(message, through: notifier, io)
        }
        for event in events {
            if let problem = event.problem { io.err("traveltimes: watch alert \"\(event.message.title)\": \(problem)") }
        }
    }
}

/// A refresh that failed: what failed, and how old the data kept in its place is.
struct RefreshFailed: ProcessError, CustomStringConvertible {
    var underlying: any Error
    var exitCode: ExitCode { (underlying as? any ProcessError)?.exitCode ?? .failure }
    var kept: String?
    var secrets: [String]

    var description: String {
        FeedSource.redact("refresh failed: \(underlying)" + (kept.map { "; \($0)" } ?? ""), secrets: secrets)
    }
}

extension Invocation {
    /// `--timeout SECONDS`, default 25.
    func timeout() throws(UsageError) -> TimeInterval {
        guard let text = arguments.value("--timeout") else { return 25 }
        guard let seconds = Double(text), seconds > 0, seconds <= 600 else {
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
    private let io: TerminalIO

    init(io: TerminalIO, message: String) {
        self.io = io
        guard io.errorIsTerminal else {
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
        if lock.withLock({ shown }) { io.writeError("\r\u{1B}[K") }
    }
}
