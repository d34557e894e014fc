import CommuteCore
import FoundationEssentials

extension Commands {
    /// The options of install and uninstall, worded once.
    enum InstallOptions {
        static let refreshEvery = Option<Installation.Interval>(
            "--refresh-every", value: "INTERVAL", help: "How often refresh runs: 15m (default), 5m, 30m, 1h…", read: Installation.Interval.init,
            invalid: { "Invalid --refresh-every '\($0)': use minutes that divide an hour (5m, 15m, 30m) or hours that divide a day (1h, 2h)." })
        static let dryRun = Flag("--dry-run", help: "Print what would be written and run; change nothing")
        static let force = Flag("--force", help: "Replace what another hand wrote in its place")
        static let unitDirectory = Option<String>(
            "--unit-dir", value: "DIR", help: "Where the units go (default $XDG_CONFIG_HOME/systemd/user, else ~/.config/systemd/user)",
            values: .file)
    }

    /// What runs refresh and tick unattended, as this invocation's environment finds it.
    static func installed(_ invocation: Invocation) -> Installation.Installed {
        Installation.Installed(
            unitDirectory: try? unitDirectory(invocation), crontab: readCrontab(invocation),
            store: try? storeDirectory(invocation))
    }

    /// Warns of each variable set in this shell alone that changes what the unattended runs do:
    /// the timers and cron start without it (and the source, code or key it holds).
    static func warnOfShellOnlySettings(_ invocation: Invocation) {
        guard let commute = try? invocation.commute() else { return }
        let configuration = commute.configuration
        let environment = invocation.environment
        let routes = (try? commute.routes.all().routes) ?? []
        var found = Health.shellOnlySettings(environment, configuration: configuration, routes: routes)
        if environment.nonEmpty(.source) != nil, configuration.source == nil { found.insert((.source, Setting.source.name), at: 0) }
        if environment.nonEmpty(.accessCode) != nil, configuration.accessCode == nil { found.insert((.accessCode, Setting.accessCode.name + " -"), at: 0) }
        for provider in RouteProvider.allCases where routes.contains(where: { $0.provider == provider }) {
            guard let variable = provider.keyVariable, environment.nonEmpty(variable) != nil, configuration.key(for: provider) == nil else { continue }
            found.append((variable, provider.keySetting + " -"))
        }
        for (variable, setting) in found {
            invocation.io.warn("\(variable.name) is set only in this shell: the timers and cron will run without it; "
                + (setting.map { "save it with `traveltimes config set \($0)`" } ?? "it has no saved form, so give it to them yourself or unset it"))
        }
    }

    // MARK: Helpers

    static func interval(_ invocation: Invocation) throws -> Installation.Interval {
        try invocation.value(InstallOptions.refreshEvery) ?? .standard
    }

    /// `--unit-dir`, else `$XDG_CONFIG_HOME/systemd/user`, else `~/.config/systemd/user`.
    static func unitDirectory(_ invocation: Invocation) throws -> String {
        if let given = try invocation.value(InstallOptions.unitDirectory) { return absolute(given) }
        if let config = invocation.environment[.configHome], !config.isEmpty {
            // The XDG specification says a relative one is to be ignored: writing to ~/.config
            // instead would surprise whoever set it, so it is refused.
            guard config.hasPrefix("/") else {
                throw invocation.usage(
                    "XDG_CONFIG_HOME '\(DisplayText.line(String(config.prefix(80))))' is not an absolute path, which the XDG specification says to ignore: set it to a full path, unset it, or pass --unit-dir DIR.")
            }
            return config + "/systemd/user"
        }
        guard let home = invocation.environment[.userHome], !home.isEmpty else {
            throw invocation.usage("No unit directory: set HOME or XDG_CONFIG_HOME, or pass --unit-dir DIR.")
        }
        return home + "/.config/systemd/user"
    }

    /// The store, by its absolute path: what the timers and cron must find without this shell.
    static func storeDirectory(_ invocation: Invocation) throws -> String {
        try Commute.storeDirectory(environment: invocation.environment)
    }

    static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }

    /// Runs a `systemctl` command; `otherwise` tells the user where things stand if it fails.
    static func runSystemctl(_ command: [String], _ invocation: Invocation, otherwise: String) throws {
        do throws(SchedulerFailure) {
            try Installation.systemctl(command, environment: invocation.environment)
        } catch {
            throw SystemctlFailed(command: error.command, reason: error.reason, otherwise: otherwise)
        }
    }

    /// The plan `make` returns for this binary, the store and the options; its problems worded
    /// for the user, each with the exit status that fits it.
    static func planned<Plan>(
        _ invocation: Invocation, _ make: (String, String, Installation.Interval, Bool) throws(InstallProblem) -> Plan
    ) throws -> Plan {
        let binary = executablePath()
        let store = try storeDirectory(invocation)
        let interval = try interval(invocation)
        do {
            return try make(binary, store, interval, invocation.isSet(InstallOptions.force))
        } catch {
            switch error {
            case .storePath(let path, let problem):
                throw invocation.usage("Cannot install with the store at '\(path)': \(problem). Choose another with TRAVELTIMES_HOME.")
            case .binaryPath(let path, let problem):
                throw invocation.usage("Cannot install traveltimes from '\(path)': \(problem). Move the binary to a plainer path.")
            case .doesNotReadBack(let manager):
                throw UnwritablePaths(manager: manager)
            case .notOurs(let what) where what.hasPrefix("/"):
                throw NotOurs(what: what, remedy: "traveltimes did not write it: move it aside, or pass --force to replace it")
            case .notOurs(let what):
                throw NotOurs(what: what, remedy: "traveltimes did not write it: edit it with `crontab -e`, or pass --force to replace it")
            }
        }
    }

    /// Writes the units that differ, each atomically, saying so.
    static func write(_ plan: Installation.SystemdPlan, _ io: TerminalIO) throws {
        try plan.write { io.out("Wrote \($0)") }
        if plan.changes.isEmpty { io.out("The units in \(plan.directory) are already installed as they should be.") }
    }

    /// The current crontab (empty when there is none yet), or nil when there is no crontab command.
    static func readCrontab(_ invocation: Invocation) -> String? {
        Installation.readCrontab(environment: invocation.environment)
    }

    static func writeCrontab(_ table: String, _ invocation: Invocation) throws {
        do throws(SchedulerFailure) {
            try Installation.writeCrontab(table, environment: invocation.environment)
        } catch {
            throw CrontabFailed(reason: error.reason)
        }
    }
}

/// Something of the same name is in the way, and traveltimes did not write it. Exit 1.
struct NotOurs: ProcessError, CustomStringConvertible {
    var what: String
    var remedy: String
    var exitCode: ExitCode { .failure }
    var description: String { "\(what) is in the way: \(remedy)" }
}

/// No crontab command on this machine. Exit 69.
struct NoCrontab: ProcessError, CustomStringConvertible {
    var exitCode: ExitCode { .unavailable }
    var description: String { "no crontab command here: use `traveltimes install systemd`, or add the lines above by hand" }
}

/// The lines written would not read back as this binary and store: refused rather than installed.
struct UnwritablePaths: ProcessError, CustomStringConvertible {
    var manager: String
    var exitCode: ExitCode { .usage }
    var description: String { "what \(manager) would be given does not read back as this binary and store; nothing was written" }
}

struct CrontabFailed: ProcessError, CustomStringConvertible {
    var reason: String
    var exitCode: ExitCode { .unavailable }
    var description: String { "cannot write your crontab: \(reason)" }
}

struct SystemctlFailed: ProcessError, CustomStringConvertible {
    var command: String
    var reason: String
    var otherwise: String
    var exitCode: ExitCode { .unavailable }
    var description: String { "`\(command)` failed: \(reason); \(otherwise)" }
}
