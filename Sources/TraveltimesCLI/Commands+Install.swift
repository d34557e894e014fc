import CommuteCore
import Foundation

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
        let binary = executablePath()
        let store = try storeDirectory(invocation)
        try checkPaths(binary: binary, store: store, forSystemd: true, invocation)
        let units = Installation.systemdUnits(binary: binary, store: store, refreshEvery: try interval(invocation))
        guard Installation.unitsReadBack(units, binary: binary, store: store) else { throw UnwritablePaths(manager: "systemd") }
        let io = invocation.io
        var changes: [(path: String, text: String)] = []
        for (name, text) in units {
            let path = "\(directory)/\(name)"
            guard let existing = try? String(contentsOfFile: path, encoding: .utf8) else {
                changes.append((path, text))
                continue
            }
            guard existing != text else { continue }
            guard Installation.isOurs(unit: existing) || invocation.arguments.has("--force") else {
                throw NotOurs(what: path, remedy: "traveltimes did not write it: move it aside, or pass --force to replace it")
            }
            changes.append((path, text))
        }
        let commands = [["systemctl", "--user", "daemon-reload"], ["systemctl", "--user", "enable", "--now"] + Installation.timers]
        if invocation.arguments.has("--dry-run") {
            for (path, text) in changes {
                io.out("Would write \(path):")
                io.out(text)
            }
            if changes.isEmpty { io.out("The units in \(directory) are already as they would be written.") }
            io.out("Would then run:")
            for command in commands { io.out("  " + command.joined(separator: " ")) }
            return
        }
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw StoreError.io(path: directory, reason: "cannot create it: \(error.localizedDescription)")
        }
        for (path, text) in changes {
            try AtomicFile.write(Array(text.utf8), to: path, mode: 0o644)
            io.out("Wrote \(path)")
        }
        if changes.isEmpty { io.out("The units in \(directory) are already installed as they should be.") }
        if invocation.arguments.has("--enable") {
            for command in commands { try runSystemctl(command, invocation, otherwise: "the units are written; run it by hand") }
            io.out("Started \(Installation.timers.joined(separator: " and ")).")
        } else {
            io.out("To start them:")
            for command in commands { io.out("  " + command.joined(separator: " ")) }
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
            a crontab command it prints the lines to paste, and exits 69.
            """
    ) { invocation in
        let binary = executablePath()
        let store = try storeDirectory(invocation)
        try checkPaths(binary: binary, store: store, forSystemd: false, invocation)
        let block = Installation.cronBlock(binary: binary, store: store, refreshEvery: try interval(invocation))
        guard Installation.cronBlockReadsBack(block, binary: binary, store: store) else { throw UnwritablePaths(manager: "cron") }
        let io = invocation.io
        guard let table = try readCrontab(invocation) else {
            io.err("traveltimes: there is no crontab command here; add these lines with your scheduler:")
            for line in block { io.err("  " + Installation.text(ofByteString: line)) }
            throw NoCrontab()
        }
        guard let merged = Installation.merging(block, into: table, replacingForeign: invocation.arguments.has("--force")) else {
            throw NotOurs(what: "your crontab's `# BEGIN traveltimes` block", remedy: "traveltimes did not write it: edit it with `crontab -e`, or pass --force to replace it")
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
        let ours = Installation.systemdUnits(binary: "", store: "", refreshEvery: .standard).map { "\(directory)/\($0.name)" }
            .filter { (try? String(contentsOfFile: $0, encoding: .utf8)).map(Installation.isOurs) ?? false }
        guard !ours.isEmpty else {
            invocation.io.out("No traveltimes units in \(directory): nothing to remove.")
            return
        }
        try invocation.confirm("This will stop the timers that deliver your alerts and remove \(ours.count) units from \(directory).", question: "Remove them?")
        if !enabledTimers(directory).isEmpty {
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

    /// What runs refresh and tick unattended: the units traveltimes wrote and which timers are
    /// enabled, and whether the crontab has its block (nil when there is no crontab command).
    struct Installed {
        var unitDirectory: String?
        var units: [String]
        var enabledTimers: [String]
        var cronBlock: Bool?
        /// What the installed services run, and the crontab block.
        var servicePins: [Installation.Pinned] = []
        var cronPin: Installation.Pinned?

        var isScheduled: Bool { enabledTimers.count == Installation.timers.count || cronBlock == true }

        /// One line for `status`.
        var summary: String {
            var parts: [String] = []
            if let unitDirectory, !units.isEmpty {
                let state = enabledTimers.count == Installation.timers.count ? "enabled"
                    : enabledTimers.isEmpty ? "not enabled: systemctl --user enable --now \(Installation.timers.joined(separator: " "))"
                    : "only \(enabledTimers.joined(separator: ", ")) enabled"
                parts.append("systemd timers in \(unitDirectory) (\(state))")
            }
            if cronBlock == true { parts.append("the traveltimes block in your crontab") }
            return parts.isEmpty
                ? "nothing runs refresh and tick: `traveltimes install systemd` or `traveltimes install cron`"
                : parts.joined(separator: "; ")
        }
    }

    static func installed(_ invocation: Invocation) -> Installed {
        let directory = try? unitDirectory(invocation)
        var units: [String] = []
        var servicePins: [Installation.Pinned] = []
        if let directory {
            for (name, _) in Installation.systemdUnits(binary: "", store: "", refreshEvery: .standard) {
                guard let text = try? String(contentsOfFile: "\(directory)/\(name)", encoding: .utf8), Installation.isOurs(unit: text)
                else { continue }
                units.append(name)
                if let pinned = Installation.pinned(service: text) { servicePins.append(pinned) }
            }
        }
        var cronPin: Installation.Pinned?
        let cron = (try? readCrontab(invocation)).flatMap { $0 }.map { table -> Bool in
            guard case .ours(let block) = Installation.cronState(of: table) else { return false }
            cronPin = Installation.pinned(cronBlock: block)
            return true
        }
        return Installed(
            unitDirectory: directory, units: units, enabledTimers: directory.map(enabledTimers) ?? [], cronBlock: cron,
            servicePins: servicePins, cronPin: cronPin)
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
        if let config = invocation.environment["XDG_CONFIG_HOME"], config.hasPrefix("/") { return config + "/systemd/user" }
        guard let home = invocation.environment["HOME"], !home.isEmpty else {
            throw invocation.usage("No unit directory: set HOME or XDG_CONFIG_HOME, or pass --unit-dir DIR.")
        }
        return home + "/.config/systemd/user"
    }

    /// The store, by its absolute path: what the timers and cron must find without this shell.
    private static func storeDirectory(_ invocation: Invocation) throws -> String {
        absolute(try StoreLocation.directory(environment: invocation.environment))
    }

    private static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }

    /// Timers whose enabling link exists (what `systemctl enable` writes).
    static func enabledTimers(_ directory: String) -> [String] {
        Installation.timers.filter { FileManager.default.fileExists(atPath: "\(directory)/timers.target.wants/\($0)") }
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

    /// Refuses (exit 64, naming the character) a binary or store path the service manager cannot
    /// be given as it is.
    private static func checkPaths(binary: String, store: String, forSystemd: Bool, _ invocation: Invocation) throws {
        if let problem = Installation.problem(withPath: store, isExecutable: false, forSystemd: forSystemd) {
            throw invocation.usage("Cannot install with the store at '\(store)': \(problem). Choose another with TRAVELTIMES_HOME.")
        }
        if let problem = Installation.problem(withPath: binary, isExecutable: true, forSystemd: forSystemd) {
            throw invocation.usage("Cannot install traveltimes from '\(binary)': \(problem). Move the binary to a plainer path.")
        }
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
