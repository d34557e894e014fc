import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// The process that holds a claim: its ID and when it started (from `/proc`), so that a
/// recycled process ID is never taken for the tick that wrote the claim. A claim whose process
/// is gone is a dead tick's, to be sent again; one whose process lives is left to it, however
/// long its sends take.
public enum Claimant {
    /// This process: `PID:STARTTIME`.
    public static let current: String = identity(of: getpid()) ?? "\(getpid())"

    /// Whether the process that wrote `claimant` still runs. An unreadable or unknown form is
    /// taken as alive only when it is this process.
    public static func isAlive(_ claimant: String) -> Bool {
        let parts = claimant.split(separator: ":")
        guard let first = parts.first, let pid = Int32(first), pid > 0 else { return false }
        guard kill(pid, 0) == 0 || errno == EPERM else { return false }
        // The process ID is in use: by the same process only when it started at the same time.
        guard parts.count == 2 else { return claimant == current }
        return identity(of: pid) == claimant
    }

    /// `PID:STARTTIME`, the start time in clock ticks since boot (field 22 of `/proc/PID/stat`).
    static func identity(of pid: Int32) -> String? {
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/stat"),
            let text = String(data: data, encoding: .utf8), let close = text.lastIndex(of: ")")
        else { return nil }
        // After the command name (which may hold spaces and parentheses): state is field 3.
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 19 else { return nil }
        return "\(pid):\(fields[19])"
    }
}

extension DeliveryLedger.Entry {
    /// How long a claim that names no process (an older version's) is taken to be in flight.
    public static let claimLifetime: TimeInterval = 120

    /// Whether it is a claim left by a tick that died: its process is gone (or, for a claim that
    /// names none, it is older than `claimLifetime`). A live tick's claim is never taken over,
    /// however long its sends take.
    public func isAbandoned(now: Date) -> Bool {
        guard outcome == .claimed else { return false }
        if let claimant { return !Claimant.isAlive(claimant) }
        return now.timeIntervalSince(at) > Self.claimLifetime
    }
}
