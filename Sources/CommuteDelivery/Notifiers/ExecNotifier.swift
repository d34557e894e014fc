import Basics
import FoundationEssentials

/// Runs an exec notifier: the program with its arguments (no shell), placeholders replaced, the
/// values in the environment too, 10 seconds at most. Success is exit status 0.
public enum ExecNotifier {
    public static let timeout: TimeInterval = 10

    /// Why `program` could not be run from a tick, or nil when it can: a name is looked up in
    /// `path` (as posix_spawnp will), a path with a slash must be absolute (a tick runs elsewhere)
    /// and name an executable file.
    public static func problem(program: String, path: String?) -> String? {
        guard program.contains("/") else {
            let directories = (path ?? "/usr/bin:/bin").split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
            let candidates = directories.map { "\($0)/\(program)" }.filter(isFile)
            if candidates.contains(where: isExecutable) { return nil }
            return candidates.isEmpty ? "no program of that name on PATH" : "\(candidates[0]) is not executable"
        }
        guard program.hasPrefix("/") else { return "a relative path, and ticks run from another directory" }
        guard isFile(program) else { return "no such file" }
        return isExecutable(program) ? nil : "not executable"
    }

    private static func isFile(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
    }

    private static func isExecutable(_ path: String) -> Bool { access(path, X_OK) == 0 }

    /// Runs the notifier for one alert. `environment` is the child's whole environment (secrets
    /// already removed); the alert's values are added to it.
    public static func send(
        _ message: AlertMessage, program: String, arguments: [String], environment: [String: String]
    ) -> DeliveryResult {
        var environment = environment
        environment["TRAVELTIMES_TITLE"] = message.title
        environment["TRAVELTIMES_BODY"] = message.body
        environment["TRAVELTIMES_URGENCY"] = message.urgency
        environment["TRAVELTIMES_ID"] = message.id.description
        do {
            let (status, errors) = try Subprocess.runForStatus(
                program, arguments: arguments.map { fill($0, message) }, environment: environment, timeout: timeout)
            guard status != 0 else { return .delivered }
            return .failed(.exited(program: program, status: status, errors: errors))
        } catch .timedOut {
            return .failed(.programTimedOut(program: program, seconds: Int(timeout)))
        } catch {
            return .failed(.couldNotRun(program: program, reason: String(describing: error)))
        }
    }

    /// Replaces `{title}`, `{body}`, `{urgency}` and `{id}` in one pass, so a title that itself
    /// contains `{body}` stays as written.
    static func fill(_ argument: String, _ message: AlertMessage) -> String {
        let values = ["title": message.title, "body": message.body, "urgency": message.urgency, "id": message.id.description]
        var result = ""
        var rest = Substring(argument)
        while let open = rest.firstIndex(of: "{") {
            result += rest[..<open]
            let afterOpen = rest.index(after: open)
            if let close = rest[afterOpen...].firstIndex(of: "}"), let value = values[String(rest[afterOpen..<close])] {
                result += value
                rest = rest[rest.index(after: close)...]
            } else {
                result += "{"
                rest = rest[afterOpen...]
            }
        }
        return result + rest
    }
}
