import FoundationEssentials
@_spi(Store) import CommuteStore

/// Why an installation cannot go ahead as asked. Nothing has been written.
public enum InstallProblem: Error, Sendable, Equatable {
    /// The store's path cannot be given to a service manager (the reason names the character).
    case storePath(String, problem: String)
    /// The binary's path cannot be given to a service manager.
    case binaryPath(String, problem: String)
    /// What the manager would be given does not read back as this binary and store.
    case doesNotReadBack(manager: String)
    /// A unit file of the same name, or a crontab block, that this program did not write.
    case notOurs(String)
}

extension Installation {
    /// Refuses a binary or store path that a service manager cannot be given as it is.
    public static func checkPaths(binary: String, store: String, forSystemd: Bool) throws(InstallProblem) {
        if let problem = problem(withPath: store, isExecutable: false, forSystemd: forSystemd) {
            throw .storePath(store, problem: problem)
        }
        if let problem = problem(withPath: binary, isExecutable: true, forSystemd: forSystemd) {
            throw .binaryPath(binary, problem: problem)
        }
    }

    /// A unit file to write, by its path.
    public struct UnitFile: Sendable, Equatable {
        public var path: String
        public var text: String
    }

    /// What `install systemd` does in a unit directory: the units that are missing or differ, and
    /// the commands that start the timers.
    public struct SystemdPlan: Sendable, Equatable {
        public var directory: String
        /// Only what differs from what is there: empty when the units are already as written.
        public var changes: [UnitFile]
        public var commands: [[String]] {
            [["systemctl", "--user", "daemon-reload"], ["systemctl", "--user", "enable", "--now"] + Installation.timers]
        }
    }

    /// Plans the units for `binary` and `store` in `directory`, reading what is there: a unit of
    /// the same name that this program did not write is in the way unless `force`.
    public static func systemdPlan(
        directory: String, binary: String, store: String, refreshEvery: Interval, force: Bool
    ) throws(InstallProblem) -> SystemdPlan {
        try checkPaths(binary: binary, store: store, forSystemd: true)
        let units = systemdUnits(binary: binary, store: store, refreshEvery: refreshEvery)
        guard unitsReadBack(units, binary: binary, store: store) else { throw .doesNotReadBack(manager: "systemd") }
        var changes: [UnitFile] = []
        for (name, text) in units {
            let path = "\(directory)/\(name)"
            if let existing = try? String(contentsOfFile: path, encoding: .utf8) {
                guard existing != text else { continue }
                guard isOurs(unit: existing) || force else { throw .notOurs(path) }
            }
            changes.append(UnitFile(path: path, text: text))
        }
        return SystemdPlan(directory: directory, changes: changes)
    }

    /// What `install cron` does: the block's lines, and the crontab to write.
    public struct CronPlan: Sendable, Equatable {
        /// The lines between the begin and end marks, as byte strings (`byteString`).
        public var block: [String]
        /// The table with the block in place of the one written before (the same table when it is
        /// already there); nil when there is no table to write (no crontab command).
        public var table: String?
    }

    /// Plans the block for `binary` and `store` in `table` (nil when there is no crontab command):
    /// a block this program did not write is in the way unless `force`.
    public static func cronPlan(
        table: String?, binary: String, store: String, refreshEvery: Interval, force: Bool
    ) throws(InstallProblem) -> CronPlan {
        try checkPaths(binary: binary, store: store, forSystemd: false)
        let block = cronBlock(binary: binary, store: store, refreshEvery: refreshEvery)
        guard cronBlockReadsBack(block, binary: binary, store: store) else { throw .doesNotReadBack(manager: "cron") }
        guard let table else { return CronPlan(block: block, table: nil) }
        guard let merged = merging(block, into: table, replacingForeign: force) else {
            throw .notOurs("your crontab's `\(cronBegin)` block")
        }
        return CronPlan(block: block, table: merged)
    }

    /// The unit files in `directory` that this program wrote, by path.
    public static func installedUnits(in directory: String) -> [String] {
        systemdUnits(binary: "", store: "", refreshEvery: .standard).map { "\(directory)/\($0.name)" }
            .filter { (try? String(contentsOfFile: $0, encoding: .utf8)).map(isOurs) ?? false }
    }

    /// Timers whose enabling link exists (what `systemctl enable` writes).
    public static func enabledTimers(in directory: String) -> [String] {
        timers.filter { FileManager.default.fileExists(atPath: "\(directory)/timers.target.wants/\($0)") }
    }

    /// What runs refresh and tick unattended: the units this program wrote and which timers are
    /// enabled, and whether the crontab has its block (nil when there is no crontab command).
    public struct Installed: Sendable, Equatable {
        public var unitDirectory: String?
        public var units: [String]
        public var enabledTimers: [String]
        public var cronBlock: Bool?
        /// What the installed services run, and the crontab block.
        public var servicePins: [Pinned] = []
        public var cronPin: Pinned?
        /// The store the asking command uses: a block or units pinned to another are said to be.
        public var store: String?

        /// Reads the units in `unitDirectory` and looks for the block in `crontab` (nil when there
        /// is no crontab command).
        public init(unitDirectory: String?, crontab: String?, store: String? = nil) {
            self.unitDirectory = unitDirectory
            self.store = store
            units = []
            if let unitDirectory {
                for (name, _) in systemdUnits(binary: "", store: "", refreshEvery: .standard) {
                    guard let text = try? String(contentsOfFile: "\(unitDirectory)/\(name)", encoding: .utf8), isOurs(unit: text)
                    else { continue }
                    units.append(name)
                    if let pinned = pinned(service: text) { servicePins.append(pinned) }
                }
            }
            enabledTimers = unitDirectory.map(Installation.enabledTimers(in:)) ?? []
            if let crontab, case .ours(let block) = cronState(of: crontab) {
                cronBlock = true
                cronPin = pinned(cronBlock: block)
            } else {
                cronBlock = crontab == nil ? nil : false
            }
        }

        /// `, for the store /x, not this one`: what pins another store than the one asked about.
        private func otherStore(_ pin: Pinned?) -> String {
            guard let store, let pin, pin.store != store else { return "" }
            return ", for the store \(pin.store), not this one"
        }

        /// Both timers enabled, or the crontab block in place.
        public var isScheduled: Bool { enabledTimers.count == timers.count || cronBlock == true }

        /// Units are written but neither timer setup nor cron will run them.
        public var unitsNotEnabled: Bool { !units.isEmpty && enabledTimers.count < timers.count && cronBlock != true }

        /// One line for `status`.
        public var summary: String {
            var parts: [String] = []
            if let unitDirectory, !units.isEmpty {
                let state = enabledTimers.count == timers.count ? "enabled"
                    : enabledTimers.isEmpty ? "not enabled: systemctl --user enable --now \(timers.joined(separator: " "))"
                    : "only \(enabledTimers.joined(separator: ", ")) enabled"
                parts.append("systemd timers in \(unitDirectory) (\(state))" + otherStore(servicePins.first))
            }
            if cronBlock == true { parts.append("the traveltimes block in your crontab" + otherStore(cronPin)) }
            return parts.isEmpty
                ? "nothing runs refresh and tick: `traveltimes install systemd` or `traveltimes install cron`"
                : parts.joined(separator: "; ")
        }
    }
}
