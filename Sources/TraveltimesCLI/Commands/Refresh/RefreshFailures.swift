import CommuteCore
import FoundationEssentials

/// Delay-watch alerts a notifier failed (each said above): the next refresh sends them again to
/// those notifiers, while the route stays as it is today.
struct WatchAlertsFailed: ProcessError, CustomStringConvertible {
    var count: Int

    var exitCode: ExitCode { .temporaryFailure }
    var description: String {
        "\(count == 1 ? "a watch alert" : "\(count) watch alerts") could not be sent; the next refresh sends \(count == 1 ? "it" : "them") again"
    }
}

/// Transit feeds with a file that could not be fetched or read (said as warnings, what was there
/// kept): try again later.
struct TransitFeedsFailed: ProcessError, CustomStringConvertible {
    var feeds: [String]
    var isQuietRepeat: Bool

    var exitCode: ExitCode { .temporaryFailure }
    var description: String {
        "transit feed\(feeds.count == 1 ? "" : "s") \(feeds.joined(separator: ", ")) not fully refreshed (see the warnings); what was there is kept"
    }
}

/// The same failure as the last run's, under `--quiet`: its exit status, and nothing said.
struct QuietRepeat: ProcessError {
    var exitCode: ExitCode
    var explanation: String
    var isQuietRepeat: Bool { true }
}

/// Custom routes held back because their engine failed within the hour (it is not hammered):
/// nothing of theirs was refreshed, and the refresh says so with 75.
struct EnginesResting: ProcessError, CustomStringConvertible {
    var outcomes: [CustomRoutes.CustomRouteOutcome]
    var failing: [String: RefreshLog.ProviderFailure]
    var commute: Commute
    var secrets: [String]

    var exitCode: ExitCode { .temporaryFailure }
    var description: String {
        let providers = Dictionary(grouping: outcomes, by: \.provider)
        let lines = providers.keys.sorted { $0.rawValue < $1.rawValue }.map { provider in
            let ids = (providers[provider] ?? []).map(\.routeID).joined(separator: ", ")
            let why = failing[provider.rawValue].map {
                " since \(TimeFormatting.moment($0.since, relativeTo: commute.now, calendar: commute.calendar)) (\($0.reason))"
            } ?? ""
            return "\(provider.displayName) has been failing\(why); asked again an hour after its last failure; kept as they were: \(ids)"
        }
        return FeedSource.redact(lines.joined(separator: "; "), secrets: secrets)
    }
}

/// Custom routes that could not be fetched: a line each, and the status of the worst: 69 for a
/// key or a refusal, 64 for a missing key, else 75 (try again later).
struct CustomRoutesFailed: ProcessError, CustomStringConvertible {
    var outcomes: [CustomRoutes.CustomRouteOutcome]
    var secrets: [String]

    var exitCode: ExitCode {
        let codes = outcomes.compactMap { $0.failure?.exitCode }
        for code in [ExitCode.unavailable, .usage, .failure] where codes.contains(code) { return code }
        return .temporaryFailure
    }

    /// The last line: what the command ends with (the others are printed before it).
    var description: String { lines.last ?? "custom routes failed" }

    var lines: [String] {
        // A provider-wide problem is said once, with the routes it held back.
        var lines: [String] = []
        var said = Set<String>()
        for outcome in outcomes {
            let reason = outcome.reason ?? "failed"
            guard outcome.failure?.isProviderWide == true else {
                lines.append("custom route \(outcome.routeID): \(reason)")
                continue
            }
            guard said.insert(reason).inserted else { continue }
            let ids = outcomes.filter { $0.reason == reason }.map(\.routeID)
            lines.append("\(reason); not refreshed: \(ids.joined(separator: ", "))")
        }
        return lines.map { FeedSource.redact($0, secrets: secrets) }
    }
}

/// A refresh that failed: what failed, and what is on disk now — the data kept in its place, or
/// the routes it saved before the alerts could not be re-planned.
struct RefreshFailed: ProcessError, CustomStringConvertible {
    var underlying: any Error
    var isQuietRepeat = false
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
