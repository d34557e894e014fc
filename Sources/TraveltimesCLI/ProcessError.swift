import CommuteCore

/// An error a command can end with: the exit status it stands for and the one line that explains
/// it. Every error type a command can throw adopts it here, in the layer that decides exit
/// statuses; `CLI.fail` asks it, and never guesses.
protocol ProcessError: Error {
    var exitCode: ExitCode { get }
    /// One line for stderr, after `traveltimes: `.
    var explanation: String { get }
    /// The same failure as the last run's, under `--quiet`: the exit status says it, and nothing
    /// is printed, so cron does not mail it again every run (`status` and `doctor` still show it).
    var isQuietRepeat: Bool { get }
}

extension ProcessError {
    var isQuietRepeat: Bool { false }
}

extension ProcessError where Self: CustomStringConvertible {
    var explanation: String { description }
}

extension UsageError: ProcessError {
    var exitCode: ExitCode { .usage }
    var explanation: String {
        description + (command.isEmpty ? "" : " See 'traveltimes \(command) --help'.")
    }
}

extension ModelError: ProcessError {
    var exitCode: ExitCode { .usage }
}

extension CommuteError: ProcessError {
    var exitCode: ExitCode {
        switch self {
        case .noRouteData, .nothingToBrief: .failure
        case .unknownSchedule, .ambiguousSchedule, .notFavorite, .badPosition, .duplicateRoute, .unknownGroup,
            .duplicateGroup, .badGroupName, .routeExists, .notCustom, .unknownPause, .notifierNameTaken, .unknownNotifier, .notArriveBy,
            .unknownCommute, .duplicateCommute, .commuteWays:
            .usage
        }
    }
}

extension FeedError: ProcessError {
    var exitCode: ExitCode {
        switch self {
        case .unreadable: .unavailable
        case .timedOut: .temporaryFailure
        case .notJSON, .wrongShape, .empty, .badRoute, .tooManyRoutes: .dataError
        }
    }
}

extension StoreError: ProcessError {
    var exitCode: ExitCode {
        switch self {
        case .unreadable: .dataError
        case .lockTimeout: .temporaryFailure
        case .io, .noLocation: .failure
        }
    }
}

/// A store file a command met unreadable before it changed anything — every command but
/// `refresh`, which says itself which part of its work it saved.
struct NothingChanged: ProcessError {
    var error: StoreError

    var exitCode: ExitCode { error.exitCode }
    var explanation: String {
        guard case .unreadable(let path, let reason) = error else { return error.description }
        return "\(path): \(reason); nothing was changed (the file was left untouched) — fix or move it aside, then try again"
    }
}

/// `tick` handled the alerts due, then met a store file it could not read or write while checking
/// the alerts' health.
struct HealthNotChecked: ProcessError {
    var error: StoreError

    var exitCode: ExitCode { error.exitCode }
    var explanation: String {
        let problem = if case .unreadable(let path, let reason) = error { "\(path): \(reason)" } else { error.description }
        return "\(problem); the alerts due were handled, but health alerts cannot be checked until it is fixed or moved aside"
    }
}

extension FetchError: ProcessError {
    var exitCode: ExitCode {
        switch self {
        case .timedOut, .gaveUp: .temporaryFailure
        case .notJSON: .dataError
        case .http, .html, .tooLarge, .unreachable, .refused, .helperMissing: .unavailable
        }
    }
}

extension Places.PlaceProblem: ProcessError {
    var exitCode: ExitCode {
        switch self {
        case .invalidName, .exists, .unknown, .tooMany, .noSuchCandidate: .usage
        case .nothingFound: .failure
        case .geocoderFailed: .unavailable
        case .noTurn: .temporaryFailure
        }
    }
}

extension TransitProblem: ProcessError {
    /// A server or file that failed: 69; a timetable or request that cannot be used: 1.
    var exitCode: ExitCode { isTemporary ? .unavailable : .failure }
}
