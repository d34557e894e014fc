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

/// Transit feeds not fully refreshed: try again later.
extension TransitFeedsFailed: ProcessError {
    var exitCode: ExitCode { .temporaryFailure }
}

/// The same failure as the last run's, under `--quiet`: its exit status, and nothing said.
struct QuietRepeat: ProcessError {
    var exitCode: ExitCode
    var explanation: String
    var isQuietRepeat: Bool { true }
}

/// Custom routes held back by a failing engine: 75, try again later.
extension EnginesResting: ProcessError {
    var exitCode: ExitCode { .temporaryFailure }
}

/// Custom routes that could not be fetched: the status of the worst — 69 for a key or a refusal,
/// 64 for a missing key, else 75 (try again later).
extension CustomRoutesFailed: ProcessError {
    var exitCode: ExitCode {
        let codes = outcomes.compactMap { $0.failure?.exitCode }
        for code in [ExitCode.unavailable, .usage, .failure] where codes.contains(code) { return code }
        return .temporaryFailure
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
