import FoundationEssentials

/// A program of the system's (`crontab`, `systemctl`), run with arguments and input, its output and
/// exit status collected, within a deadline, with this process's environment less its secrets.
public enum SystemCommand {
    public struct Result: Sendable {
        public var status: Int32
        public var output: Data

        public var text: String { String(decoding: output, as: UTF8.self) }
    }

    /// Why a program could not be run at all.
    public struct Unavailable: Error, CustomStringConvertible {
        public var program: String
        public var reason: String

        public var description: String { "cannot run \(program): \(reason)" }
    }

    /// Runs it; with `errorsToo`, what it says on stderr is in the output too.
    public static func run(
        _ program: String, _ arguments: [String], input: Data = Data(), environment: ChildEnvironment, timeout: TimeInterval = 10,
        errorsToo: Bool = false
    ) throws(Unavailable) -> Result {
        do {
            let (output, status) = try Subprocess.exchange(
                program, arguments: arguments, environment: environment.variables, input: input, timeout: timeout,
                maximumOutput: 4 << 20, errorsToo: errorsToo)
            return Result(status: status, output: output)
        } catch {
            throw Unavailable(program: program, reason: error.description)
        }
    }

    /// Whether `name` is a program on `PATH` (as the shell would find it).
    public static func find(_ name: String, environment: [String: String]) -> String? {
        let directories = (environment[.path] ?? "/usr/bin:/bin").split(separator: ":").map(String.init)
        return directories.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
