import Basics
@_spi(Store) import CommuteStore
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

extension Installation.SystemdPlan {
    /// Writes the units that differ into `directory` (made if missing), each atomically with mode
    /// 0644, calling `wrote` with each path once it is in place.
    public func write(wrote: (String) -> Void) throws(StoreError) {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw StoreError.io(path: directory, reason: "cannot create it: \(systemReason(error))")
        }
        for change in changes {
            try AtomicFile.write(Array(change.text.utf8), to: change.path, mode: 0o644)
            wrote(change.path)
        }
    }
}

extension Installation {
    /// Removes the units at `paths` (those `installedUnits(in:)` found), calling `removed` with
    /// each once it is gone; stops at the first that cannot be removed.
    public static func remove(units paths: [String], removed: (String) -> Void) throws(StoreError) {
        for path in paths {
            guard unlink(path) == 0 else { throw StoreError.io(path: path, reason: "cannot remove it: \(String(cString: strerror(errno)))") }
            removed(path)
        }
    }
}

/// Why the scheduler could not be told: its command failed, in its own words.
public struct SchedulerFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The command, as it was run (`systemctl --user daemon-reload`, `crontab -`).
    public var command: String
    public var reason: String
    public var description: String { "`\(command)` failed: \(reason)" }
}

extension Installation {
    /// The current crontab (empty when there is none yet), or nil when there is no crontab
    /// command: as a byte string (`byteString`), so that every byte comes back as it was.
    public static func readCrontab(environment: [String: String]) -> String? {
        guard SystemCommand.find("crontab", environment: environment) != nil,
            let result = try? SystemCommand.run("crontab", ["-l"], environment: ChildEnvironment(environment))
        else { return nil }
        // `crontab -l` fails when the user has no crontab yet: that is an empty one.
        return result.status == 0 ? byteString(result.output) : ""
    }

    /// Replaces the crontab with `table` (a byte string), through `crontab -`.
    public static func writeCrontab(_ table: String, environment: [String: String]) throws(SchedulerFailure) {
        let result: SystemCommand.Result
        do {
            result = try SystemCommand.run("crontab", ["-"], input: bytes(of: table), environment: ChildEnvironment(environment))
        } catch {
            throw SchedulerFailure(command: "crontab -", reason: error.reason)
        }
        guard result.status == 0 else {
            throw SchedulerFailure(command: "crontab -", reason: "it exited with status \(result.status); the table was not changed")
        }
    }

    /// Runs a `systemctl` command (`["systemctl", "--user", …]`), within 30 s.
    public static func systemctl(_ command: [String], environment: [String: String]) throws(SchedulerFailure) {
        let shown = command.joined(separator: " ")
        guard let program = command.first else { throw SchedulerFailure(command: shown, reason: "no command to run") }
        let result: SystemCommand.Result
        do {
            result = try SystemCommand.run(program, Array(command.dropFirst()), environment: ChildEnvironment(environment), timeout: 30, errorsToo: true)
        } catch {
            throw SchedulerFailure(command: shown, reason: error.reason)
        }
        guard result.status == 0 else {
            // Its own words, and what to check: most often there is no user session to talk to.
            let said = result.text.split(separator: "\n").first.map { ": \(DisplayText.line(String($0.prefix(200))))" } ?? ""
            throw SchedulerFailure(
                command: shown,
                reason: "it exited with status \(result.status)\(said) (is a user session running? `systemctl --user status` says; on a server, `loginctl enable-linger \"$USER\"` gives one)")
        }
    }
}
