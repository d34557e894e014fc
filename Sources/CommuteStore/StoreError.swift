/// Why the store could not do what was asked. Nothing is written when any of these is thrown.
public enum StoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A file that is not valid JSON, has the wrong shape, or has an unknown version. It is left
    /// byte-for-byte as it was, and the command that met it changed nothing (a refresh that had
    /// saved part of its work says which part, apart).
    case unreadable(path: String, reason: String)
    /// Another process held a lock for longer than the bounded wait.
    case lockTimeout(lock: String, path: String, seconds: Double)
    /// The file system refused (permissions, disk full, missing directory).
    case io(path: String, reason: String)
    /// No store directory can be chosen.
    case noLocation(String)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason):
            "\(path): \(reason); the file was left untouched — fix or move it aside, then try again"
        case .lockTimeout(let lock, let path, let seconds):
            "timed out after \(Self.format(seconds)) s waiting for the \(lock) lock (\(path)); "
                + "another traveltimes process is holding it — try again"
        case .io(let path, let reason):
            "\(path): \(reason)"
        case .noLocation(let reason):
            reason
        }
    }

    private static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() && abs(seconds) < 1e15 ? String(Int(seconds)) : String(seconds)
    }
}
