import CommuteCore
import FoundationEssentials

extension Commands {
    static let refreshEvery = OptionSpec(
        name: "--refresh-every", value: "INTERVAL", help: "How often refresh runs: 15m (default), 5m, 30m, 1h…")
    static let dryRun = OptionSpec(name: "--dry-run", help: "Print what would be written and run; change nothing")
    static let force = OptionSpec(name: "--force", help: "Replace what another hand wrote in its place")
    static let unitDirectory = OptionSpec(
        name: "--unit-dir", value: "DIR", help: "Where the units go (default $XDG_CONFIG_HOME/systemd/user, else ~/.config/systemd/user)",
        values: .file)

    static let installSystemd = Command(
        name: "install systemd",
        summary: "Write systemd user timers that run refresh and tick",
        options: [unitDirectory, refreshEvery, OptionSpec(name: "--enable", help: "Also reload systemd and start both timers now"), dryRun, force],
        discussion: """
            Writes traveltimes-tick.service and .timer (every minute, at second 0, to the second) and
            traveltimes-refresh.service and .timer (every 15 minutes; a run missed while the machine
            slept runs at wake). The services run this binary, by its absolute path, with --quiet and
            TRAVELTIMES_HOME set to this store. Running it again changes only what differs; a unit of
            the same name that traveltimes did not write is left alone unless --force.
            On a server without a login session, user timers run only with lingering on:
              loginctl enable-linger "$USER"
            """
    ) { invocation in
        let directory = try unitDirectory(invocation)
        let plan = try planned(invocation) { binary, store, interval, force throws(InstallProblem) in
            try Installation.systemdPlan(directory: directory, binary: binary, store: store, refreshEvery: interval, force: force)
        }
        let io = invocation.io
        if invocation.arguments.has("--dry-run") {
            for change in plan.changes {
                io.out("Would write \(change.path):")
                io.out(change.text)
            }
            if plan.changes.isEmpty { io.out("The units in \(plan.directory) are already as they would be written.") }
            io.out("Would then run:")
            for command in plan.commands { io.out("  " + command.joined(separator: " ")) }
            return
        }
        try write(plan, io)
        if invocation.arguments.has("--enable") {
            for command in plan.commands { try runSystemctl(command, invocation, otherwise: "the units are written; run it by hand") }
            io.out("Started \(Installation.timers.joined(separator: " and ")).")
        } else {
            io.out("To start them:")
            for command in plan.commands { io.out("  " + command.joined(separator: " ")) }
        }
        io.out("On a server without a login session, also run: loginctl enable-linger \"$USER\"")
    }

    static let installCron = Command(
        name: "install cron",
        summary: "Add the refresh and tick lines to your crontab",
        options: [refreshEvery, dryRun, force],
        discussion: """
            Reads `crontab -l`, puts the lines between `# BEGIN traveltimes` and `# END traveltimes`
            (replacing the block written before), and writes the table back with `crontab -`. Every
            other line stays byte for byte. The lines run this binary by its absolute path, with
            --quiet and TRAVELTIMES_HOME set to this store; running it again changes nothing. Without
            a crontab command it prints the lines to paste, and exits 69 (with --dry-run, it says
            so and exits 0).
            """
    ) { invocation in
        let io = invocation.io
        let table = try readCrontab(invocation)
        let plan = try planned(invocation) { binary, store, interval, force throws(InstallProblem) in
            try Installation.cronPlan(table: table, binary: binary, store: store, refreshEvery: interval, force: force)
        }
        let block = plan.block
        guard let table, let merged = plan.table else {
            // A dry run says what it would do, and succeeds: it was asked to change nothing.
            if invocation.arguments.has("--dry-run") {
                io.out("There is no crontab command here: install cron would print these lines to add with your scheduler, and exit 69:")
                for line in block { io.out("  " + Installation.text(ofByteString: line)) }
                return
            }
            io.err("traveltimes: there is no crontab command here; add these lines with your scheduler:")
            for line in block { io.err("  " + Installation.text(ofByteString: line)) }
            throw NoCrontab()
        }
        if merged == table {
            io.out("Your crontab already has the traveltimes block, as it should be.")
            return
        }
        if invocation.arguments.has("--dry-run") {
            io.out("Would write this crontab:")
            io.writeOut(DisplayText.terminal(Installation.text(ofByteString: merged)))
            return
        }
        try writeCrontab(merged, invocation)
        io.out("Added to your crontab:")
        for line in block { io.out("  " + Installation.text(ofByteString: line)) }
    }

    static let uninstallSystemd = Command(
        name: "uninstall systemd",
        summary: "Stop the traveltimes timers and remove the units install wrote",
        options: [unitDirectory, Options.yes],
        discussion: "Removes only units traveltimes wrote. Asks first on a terminal; otherwise needs --yes."
    ) { invocation in
        let directory = try unitDirectory(invocation)
        let ours = Installation.installedUnits(in: directory)
        guard !ours.isEmpty else {
            invocation.io.out("No traveltimes units in \(directory): nothing to remove.")
            return
        }
        try invocation.confirm("This will stop the timers that deliver your alerts and remove \(ours.count) units from \(directory).", question: "Remove them?")
        if !Installation.enabledTimers(in: directory).isEmpty {
            try runSystemctl(["systemctl", "--user", "disable", "--now"] + Installation.timers, invocation, otherwise: "nothing was removed; run it by hand, then uninstall again")
        }
        for path in ours {
            guard unlink(path) == 0 else { throw StoreError.io(path: path, reason: "cannot remove it: \(String(cString: strerror(errno)))") }
            invocation.io.out("Removed \(path)")
        }
        if SystemCommand.find("systemctl", environment: invocation.environment) != nil {
            try runSystemctl(["systemctl", "--user", "daemon-reload"], invocation, otherwise: "the units are removed; run it by hand")
        }
    }

    static let uninstallCron = Command(
        name: "uninstall cron",
        summary: "Remove the traveltimes block from your crontab",
        options: [Options.yes],
        discussion: "Every other line stays byte for byte. Asks first on a terminal; otherwise needs --yes."
    ) { invocation in
        guard let table = try readCrontab(invocation) else { throw NoCrontab() }
        guard let removed = Installation.removingBlock(from: table) else {
            throw NotOurs(what: "your crontab's `# BEGIN traveltimes` block", remedy: "traveltimes did not write it: edit it with `crontab -e`")
        }
        guard removed != table else {
            invocation.io.out("Your crontab has no traveltimes block: nothing to remove.")
            return
        }
        try invocation.confirm("This will remove the lines that run refresh and tick from your crontab.", question: "Remove them?")
        // Nothing left: the table traveltimes made is removed, not left empty.
        if removed.isEmpty { try removeCrontab(invocation) } else { try writeCrontab(removed, invocation) }
        invocation.io.out("Removed the traveltimes block from your crontab.")
    }

    /// What runs refresh and tick unattended, as this invocation's environment finds it.
    static func installed(_ invocation: Invocation) -> Installation.Installed {
        Installation.Installed(
            unitDirectory: try? unitDirectory(invocation), crontab: (try? readCrontab(invocation)).flatMap { $0 },
            store: try? storeDirectory(invocation))
    }

    // MARK: Helpers

    private static func interval(_ invocation: Invocation) throws -> Installation.Interval {
        guard let text = invocation.arguments.value("--refresh-every") else { return .standard }
        guard let interval = Installation.Interval(text) else {
            throw invocation.usage("Invalid --refresh-every '\(text)': use minutes that divide an hour (5m, 15m, 30m) or hours that divide a day (1h, 2h).")
        }
        return interval
    }

    /// `--unit-dir`, else `$XDG_CONFIG_HOME/systemd/user`, else `~/.config/systemd/user`.
    static func unitDirectory(_ invocation: Invocation) throws -> String {
        if let given = invocation.arguments.value("--unit-dir") { return absolute(given) }
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
    private static func storeDirectory(_ invocation: Invocation) throws -> String {
        try StoreDirectory(environment: invocation.environment).path
    }

    private static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }

    /// Runs a `systemctl` command; `otherwise` tells the user where things stand if it fails.
    private static func runSystemctl(_ command: [String], _ invocation: Invocation, otherwise: String) throws {
        let result: SystemCommand.Result
        do {
            result = try SystemCommand.run(command[0], Array(command.dropFirst()), environment: invocation.environment, timeout: 30)
        } catch {
            throw SystemctlFailed(command: command.joined(separator: " "), reason: error.reason, otherwise: otherwise)
        }
        guard result.status == 0 else {
            throw SystemctlFailed(command: command.joined(separator: " "), reason: "it exited with status \(result.status)", otherwise: otherwise)
        }
    }

    /// The plan `make` returns for this binary, the store and the options; its problems worded
    /// for the user, each with the exit status that fits it.
    private static func planned<Plan>(
        _ invocation: Invocation, _ make: (String, String, Installation.Interval, Bool) throws(InstallProblem) -> Plan
    ) throws -> Plan {
        let binary = executablePath()
        let store = try storeDirectory(invocation)
        let interval = try interval(invocation)
        do {
            return try make(binary, store, interval, invocation.arguments.has("--force"))
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
    private static func write(_ plan: Installation.SystemdPlan, _ io: TerminalIO) throws {
        do {
            try FileManager.default.createDirectory(atPath: plan.directory, withIntermediateDirectories: true)
        } catch {
            throw StoreError.io(path: plan.directory, reason: "cannot create it: \(systemReason(error))")
        }
        for change in plan.changes {
            try AtomicFile.write(Array(change.text.utf8), to: change.path, mode: 0o644)
            io.out("Wrote \(change.path)")
        }
        if plan.changes.isEmpty { io.out("The units in \(plan.directory) are already installed as they should be.") }
    }

    /// The current crontab (empty when there is none yet), or nil when there is no crontab command:
    /// as a byte string (`Installation.byteString`), so that every byte comes back as it was.
    static func readCrontab(_ invocation: Invocation) throws -> String? {
        guard SystemCommand.find("crontab", environment: invocation.environment) != nil else { return nil }
        let result: SystemCommand.Result
        do {
            result = try SystemCommand.run("crontab", ["-l"], environment: invocation.environment)
        } catch {
            return nil
        }
        // `crontab -l` fails when the user has no crontab yet: that is an empty one.
        return result.status == 0 ? Installation.byteString(result.output) : ""
    }

    private static func removeCrontab(_ invocation: Invocation) throws {
        let result: SystemCommand.Result
        do {
            result = try SystemCommand.run("crontab", ["-r"], environment: invocation.environment)
        } catch {
            throw CrontabFailed(reason: error.reason)
        }
        guard result.status == 0 else { throw CrontabFailed(reason: "`crontab -r` exited with status \(result.status); the table was not changed") }
    }

    private static func writeCrontab(_ table: String, _ invocation: Invocation) throws {
        let result: SystemCommand.Result
        do {
            result = try SystemCommand.run("crontab", ["-"], input: Installation.bytes(of: table), environment: invocation.environment)
        } catch {
            throw CrontabFailed(reason: error.reason)
        }
        guard result.status == 0 else { throw CrontabFailed(reason: "`crontab -` exited with status \(result.status); the table was not changed") }
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
