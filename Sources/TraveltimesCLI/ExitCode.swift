/// Process exit statuses, after `man sysexits`.
public enum ExitCode: Int32, Sendable, CaseIterable {
    /// Done.
    case success = 0
    /// Anything not covered below, including a declined confirmation.
    case failure = 1
    /// A bad command, flag or value (EX_USAGE).
    case usage = 64
    /// A corrupt store file or a malformed feed (EX_DATAERR).
    case dataError = 65
    /// The feed source cannot be reached or read (EX_UNAVAILABLE).
    case unavailable = 69
    /// Try again later: a deadline passed or a lock was held too long (EX_TEMPFAIL).
    case temporaryFailure = 75
}
