import CommuteCore
import FoundationEssentials


/// `doctor`'s report; `doctor --json` prints it as it is.
struct Checkup: EveryKeyEncodable {
    struct Finding: EveryKeyEncodable {
        enum Status: String, Encodable {
            case ok, warning, problem
        }

        var check: String
        var status: Status
        var detail: String
        /// What to do; nil when nothing needs doing.
        var fix: String?
        /// A problem that stops alerts going out; false for one that leaves them going out with
        /// old travel times (and for every warning).
        var stopsAlerts: Bool
    }

    var store: String
    /// No problem stops them: tick will send them.
    var alertsWillGoOut: Bool
    /// No problem at all: they will carry current travel times too.
    var alertsCurrent: Bool
    var checks: [Finding]
}

/// The checks, each read from what an unattended run would see. Reads only; runs
/// `traveltimes fetch-helper --check` and `crontab -l`.
struct Doctor {
    typealias Finding = Checkup.Finding

    let invocation: Invocation
    var findings: [Finding] = []

    init(_ invocation: Invocation) { self.invocation = invocation }

    /// Cron runs jobs with this PATH, whatever the login shell has.
    static let cronPath = "/usr/bin:/bin"

    mutating func run() throws -> Checkup {
        let directory = try Commute.storeDirectory(environment: invocation.environment)
        let installed = Commands.installed(invocation)
        let commute = checkStore(directory)
        var configuration: Configuration?
        var custom: [Route] = []
        if let commute {
            configuration = commute.configurationError == nil ? commute.configuration : nil
            custom = ((try? commute.routes.all())?.routes ?? []).filter(\.isProviderRoute)
            for finding in commute.health.checkup(environment: invocation.environment) { add(finding, commute) }
        }
        checkHelper(needed: configuration.map(needsHelper) ?? true || !custom.isEmpty)
        let ledger = try? commute?.alerts.ledger()
        for notifier in (configuration ?? .empty).effectiveNotifiers {
            checkNotifier(notifier, installed: installed)
            if let commute, let ledger, let failure = Health.lastDeliveryFailure(of: notifier, in: ledger) { add(failure, commute) }
        }
        checkScheduler(installed, store: directory)
        return Checkup(
            store: directory, alertsWillGoOut: !findings.contains { $0.stopsAlerts },
            alertsCurrent: !findings.contains { $0.status == .problem }, checks: findings)
    }

    private mutating func add(_ check: String, _ status: Finding.Status, _ detail: String, fix: String? = nil, stopsAlerts: Bool? = nil) {
        findings.append(Finding(check: check, status: status, detail: detail, fix: fix, stopsAlerts: stopsAlerts ?? (status == .problem)))
    }

    // MARK: The store

    /// The store directory readable and writable, and every file in it readable.
    private mutating func checkStore(_ directory: String) -> Commute? {
        var status = stat()
        guard stat(directory, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR else {
            add("store", .problem, "\(directory) does not exist yet",
                fix: "traveltimes config set source URL (or try traveltimes demo), then traveltimes refresh, favorites add and schedule add")
            return nil
        }
        guard access(directory, R_OK | W_OK | X_OK) == 0 else {
            add("store", .problem, "\(directory) is not readable and writable by this user", fix: "chown or chmod it, or set TRAVELTIMES_HOME")
            return nil
        }
        let commute: Commute
        do {
            commute = try invocation.commute(unreadableConfiguration: .readsAsDefaults)
        } catch {
            add("store", .problem, "\(directory) cannot be opened: \(DisplayText.line(String(describing: error)))",
                fix: "check its permissions, or set TRAVELTIMES_HOME")
            return nil
        }
        let check = commute.health.checkStore()
        if let first = check.unreadable.first {
            add("store", .problem, String(describing: first),
                fix: "move the file aside or restore it from a backup (`traveltimes status` names every unreadable file)")
        } else if !check.unwritable.isEmpty {
            add("store", .problem, "\(check.unwritable.joined(separator: ", ")) in \(directory) cannot be written",
                fix: "chmod u+rw the files, or chown them to this user")
        } else {
            add("store", .ok, "\(directory): readable and writable")
        }
        return commute
    }

    /// A finding of the core's, in words: the check it belongs to, what was found, and what to do.
    private mutating func add(_ finding: Health.Finding, _ commute: Commute) {
        let (check, detail, fix) = Self.words(finding, commute)
        let status: Finding.Status = switch finding.severity {
        case .ok: .ok
        case .warning: .warning
        case .problem: .problem
        }
        add(check, status, detail, fix: fix, stopsAlerts: finding.stopsAlerts)
    }

    static func words(_ finding: Health.Finding, _ commute: Commute) -> (check: String, detail: String, fix: String?) {
        func moment(_ date: Date) -> String { TimeFormatting.moment(date, relativeTo: commute.now, calendar: commute.calendar) }
        func enabled(_ count: Int, _ watches: Int) -> String {
            "\(count) enabled" + (watches > 0 ? ", \(watches) delay \(watches == 1 ? "watch" : "watches")" : "")
        }
        let keyFix = " (kept only in config.json, mode 0600)"
        switch finding {
        case .customRoutesOnly(let count, let feeds):
            let parts = [count > 0 ? "\(count) custom route\(count == 1 ? "" : "s")" : nil, feeds > 0 ? "\(feeds) transit feed\(feeds == 1 ? "" : "s")" : nil]
            return ("source", "none: \(parts.compactMap { $0 }.joined(separator: " and ")) only", nil)
        case .noSource(let onlyInShell):
            return ("source", onlyInShell ? "set only in TRAVELTIMES_SOURCE, which timers and cron do not see" : "not set",
                    "traveltimes config set source URL (the WSDOT URL, or a file's full path)")
        case .sourceNotUsable(let shown):
            return ("source", "\(shown) is not a usable URL", "traveltimes config set source URL")
        case .sourceIsRelativePath(let shown):
            return ("source", "\(shown) is a relative path, and timers and cron run elsewhere", "traveltimes config set source /full/path/to/feed.json")
        case .sourceFileUnreadable(let shown):
            return ("source", "\(shown) cannot be read", "check the file, or traveltimes config set source URL")
        case .sourceFile(let shown):
            return ("source", "\(shown) (a file)", nil)
        case .sourceNeedsAccessCode(let shown, let onlyInShell):
            return ("source",
                    "\(shown) needs an access code" + (onlyInShell ? ", and WSDOT_ACCESS_CODE is set only in this shell, which timers and cron do not see" : ""),
                    "traveltimes config set access-code CODE" + keyFix)
        case .sourceURL(let shown):
            return ("source", shown, nil)
        case .zoneSaved(let saved):
            return ("time zone", "\(saved) (saved)", nil)
        case .zoneDiffers(let saved, let source, let zone):
            return ("time zone", "\(saved) (saved), but \(source) keeps \(zone)'s clocks: a 7:00 alert fires at 7:00 in \(saved)",
                    "if you live by \(zone)'s clocks: traveltimes config set timezone \(zone)")
        case .zoneOverridden(let saved, let override):
            return ("time zone", "\(saved) (saved); TRAVELTIMES_TZ=\(override) in this shell changes it for these commands only",
                    "timers and cron use the saved zone; change it with traveltimes config set timezone")
        case .zoneNotSaved:
            return ("time zone", "none saved: timers and cron would use the host's zone",
                    "traveltimes config set timezone Area/City (such as America/Los_Angeles)")
        case .schedulesUnreadable(let reason):
            return ("schedules", "unreadable: \(reason)", "move schedules.json aside or restore it from a backup")
        case .noSchedules:
            return ("schedules", "none: nothing will be sent", "traveltimes schedule add --preset morning")
        case .allSchedulesDisabled(let count):
            return ("schedules", "all \(count) are disabled: nothing will be sent", "traveltimes schedule enable ID")
        case .planUnreadable:
            return ("schedules", "the pending alerts cannot be read", "traveltimes refresh (it plans them again)")
        case .planned(let count, let watches, let pending, let next):
            return ("schedules",
                    enabled(count, watches) + "; \(pending) alerts pending, the next \(TimeFormatting.dayAndTime(next, calendar: commute.calendar))", nil)
        case .onlyWatches(let watches):
            return ("schedules", enabled(0, watches) + "; alerts only when a watched route is delayed", nil)
        case .nothingPlanned(let count, let watches):
            return ("schedules", enabled(count, watches) + ", but no alert is planned", "traveltimes refresh (it plans them again)")
        case .duplicateSchedule(let schedule, let copy):
            return ("schedules",
                    "\(Commands.shortID(schedule)) sends the same alerts as \(Commands.shortID(copy)) (\(copy.timeLabel) on \(copy.daysLabel)): each comes twice",
                    "traveltimes schedule remove \(Commands.shortID(schedule))")
        case .scheduleInsideQuietHours(let schedule, let window):
            return ("schedules",
                    "\(Commands.shortID(schedule)) at \(schedule.latestAlertTime.label) is inside quiet hours (\(window)): none of its alerts will be sent",
                    "traveltimes schedule edit \(Commands.shortID(schedule)) --at TIME, or traveltimes config set quiet-hours")
        case .neverRefreshed(let lastFailure, let hasSource):
            return ("refresh", "never refreshed" + (lastFailure.map { "; the last try failed: \($0)" } ?? ""),
                    hasSource ? "traveltimes refresh (and see what it says)" : "first traveltimes config set source URL, then traveltimes refresh")
        case .refreshed(let success, let age, let lastFailure):
            let detail = "last success \(moment(success)) (\(TimeFormatting.age(age)) ago)" + (lastFailure.map { "; the last try failed: \($0)" } ?? "")
            switch finding.severity {
            case .problem: return ("refresh", detail + ": alerts would carry day-old times", "traveltimes refresh, and see that timers or cron run it")
            case .warning: return ("refresh", detail, "traveltimes refresh; traveltimes status shows the last try")
            case .ok: return ("refresh", detail, nil)
            }
        case .dataAge(let oldest, let age, let alert):
            let carrier = alert.map { "\(DisplayText.line($0)) would carry travel times measured" } ?? "the newest travel time the alerts would carry was measured"
            let detail = "\(carrier) \(moment(oldest)) (\(TimeFormatting.age(age)) ago)"
            switch finding.severity {
            case .problem:
                return ("data", detail + ": it would be sent as if current",
                        "check the source (traveltimes config show): a feed that stopped updating, or a file, is read as it is")
            case .warning: return ("data", detail, "traveltimes refresh; if it stays old, the source has stopped updating")
            case .ok: return ("data", detail, nil)
            }
        case .providerWithoutKey(let provider, let usage, let keyOnlyInShell):
            return ("provider " + provider.rawValue,
                    usageText(usage) + (keyOnlyInShell ? "; the key is set only in \(provider.keyVariable?.name ?? "its variable"), which timers and cron do not see" : "; no key"),
                    "traveltimes config set \(provider.keySetting) KEY" + keyFix)
        case .providerBudgetSpent(let provider, let usage):
            return ("provider " + provider.rawValue, usageText(usage) + ": the budget is spent; its routes keep their last times until midnight",
                    "traveltimes config set \(provider.budgetSetting) N, if your plan allows more")
        case .onlyInShell(let variable, let setting):
            return ("setting", "\(variable.name) is set only in this shell: the timers and cron do not see it, and run without it",
                    setting.map { "traveltimes config set \($0) VALUE (then unset \(variable.name))" }
                        ?? "it has no saved form: give it to the timers or cron yourself, or unset it")
        case .providerFailing(let provider, let usage, let failure):
            return ("provider " + provider.rawValue,
                    usageText(usage) + "; failing since \(moment(failure.since)): \(DisplayText.line(failure.reason)); its routes keep their last times",
                    "it is asked again an hour after each failure; if it stays down, move its routes to another provider (`traveltimes route add --provider …`)")
        case .providerReady(let provider, let usage):
            guard !provider.needsKey else { return ("provider " + provider.rawValue, usageText(usage), nil) }
            // A public service: who it is told is asking, and when it last answered.
            let answered = ((try? commute.routes.all().routes) ?? []).filter { $0.provider == provider }.compactMap(\.custom?.fetchedAt).max()
            let contact = commute.configuration.contact
            let detail = usageText(usage) + "; requests say \(Product.userAgent(contact: contact, install: Product.installToken(store: commute.storeDirectory, machineID: Product.machineID())))"
                + "; last answered " + (answered.map { "\(moment($0)) (\(TimeFormatting.age(commute.now.timeIntervalSince($0))) ago)" } ?? "never")
            return ("provider " + provider.rawValue, detail, contact == nil ? "traveltimes config set contact YOUR-EMAIL (the service's policy asks how to reach you)" : nil)
        case .transitNoDeparture(let route, let why):
            return ("route " + route.rawValue, why, "check the feed's dates with `traveltimes route \(route)`; a newer timetable comes with `traveltimes refresh`")
        case .transitFeed(let name, let routes, let checkedAt, let problems):
            let used = routes == 0 ? "no route uses it" : "\(routes) route\(routes == 1 ? "" : "s")"
            guard let checkedAt else {
                return ("transit " + name, "\(used); its timetable was never checked", "traveltimes refresh, and see that timers or cron run it")
            }
            let detail = "\(used); timetable checked \(moment(checkedAt))"
            guard let first = problems.first else { return ("transit " + name, detail, nil) }
            return ("transit " + name, detail + "; at the last refresh: \(first)" + (problems.count > 1 ? " (and \(problems.count - 1) more)" : ""),
                    "traveltimes transit list shows them all; what was there is kept until the feed answers")
        case .transitRelativePath(let name, let kind, let path):
            return ("transit " + name, "its \(kind) \(path) is a relative path, and timers and cron run elsewhere",
                    "give the file's full path in config.json's transitFeeds (transit add keeps full paths)")
        case .calendar(let name, let planned, let checkedAt, let problem):
            let read = checkedAt.map { "read \(moment($0))" } ?? "never read"
            guard let problem else { return ("calendar " + name, "\(planned); \(read)", nil) }
            return ("calendar " + name, "\(planned) from its last good copy; the last reading failed: \(problem)",
                    "check the calendar's address (traveltimes calendar list); refresh reads it again")
        case .calendarsUnreadable(let reason):
            return ("calendars", "unreadable: \(reason); no calendar's departures or days off are planned",
                    "move calendars.json aside: the next refresh reads every calendar again")
        case .export(let id, let kind, let location, let lastSuccessAt, let problem):
            let last = lastSuccessAt.map { "last sent a change \(moment($0))" } ?? "nothing sent yet"
            guard let problem else { return ("export " + id, "\(kind), \(location): \(last)", nil) }
            return ("export " + id, "\(kind), \(location): \(last); the last attempt failed: \(problem)",
                    "the next refresh tries again; traveltimes export remove \(id) and add it again to change its address or token")
        case .exportsUnreadable(let reason):
            return ("exports", "exports.json is unreadable: \(reason)", "move exports.json aside: the next refresh sends everything again")
        case .following(let following): return followingWords(following)
        case .requests(let costs): return requestWords(costs)
        case .incidents(let summary): return incidentWords(summary, moment: moment)
        case .lastDeliveryFailed(let notifier, let reason):
            return (notifier.id == 0 ? "notifier" : "notifier \(notifier.id)", "\(notifier.summary): its last delivery failed (\(reason))",
                    "traveltimes notify test, and see what it says")
        }
    }

    /// `2 routes; 40 of 2500 requests today`.
    static func usageText(_ usage: Health.ProviderUsage) -> String {
        "\(usage.routes) route\(usage.routes == 1 ? "" : "s"); \(usage.used) of \(usage.budget) requests today"
    }

    private func needsHelper(_ configuration: Configuration) -> Bool {
        let webhook = configuration.effectiveNotifiers.contains {
            if case .webhook = $0.kind { return true }
            return false
        }
        if case .url = configuration.source.flatMap(FeedSource.init) { return true }
        return webhook
    }

    /// The fetch helper (this program, run as `fetch-helper`) able to load libcurl.
    private mutating func checkHelper(needed: Bool) {
        let path = invocation.fetchHelperPath()
        let status: Finding.Status = needed ? .problem : .warning
        let fix = "install libcurl (apt-get install libcurl4)"
        guard FileManager.default.isExecutableFile(atPath: path) else {
            add("fetch helper", status, "\(path) is missing or not executable" + (needed ? "" : " (needed for URLs and webhooks)"),
                fix: "unset TRAVELTIMES_FETCH_HELPER, or point it at traveltimes")
            return
        }
        let result: SystemCommand.Result
        do {
            result = try SystemCommand.run(path, [FetchHelper.commandName, "--check"], environment: invocation.childEnvironment, timeout: 5)
        } catch {
            add("fetch helper", status, "\(path) cannot run: \(error.reason)", fix: fix)
            return
        }
        guard result.status == 0 else {
            add("fetch helper", status, "\(path) is not ready (exit \(result.status))", fix: fix)
            return
        }
        add("fetch helper", .ok, "libcurl loads: ready")
    }

    // MARK: Notifiers

    private mutating func checkNotifier(_ notifier: Notifier, installed: Installation.Installed) {
        let check = notifier.id == 0 ? "notifier" : "notifier \(notifier.id)"
        let cron = installed.cronBlock == true
        let systemdOnly = !cron && !installed.units.isEmpty
        switch notifier.kind {
        case .stdout:
            if systemdOnly {
                add(check, .problem, "stdout: under systemd timers, what tick prints goes to the journal, which nobody reads at 7:00",
                    fix: "\(Commands.recommendedNotifier) (or notify add desktop)")
            } else {
                add(check, .ok, notifier.id == 0 ? "none configured: alerts go to stdout, which cron mails" : "stdout, which cron mails")
            }
        case .exec(let program, let arguments):
            let path = invocation.environment[.path]
            if let problem = ExecNotifier.problem(program: program, path: path) {
                add(check, .problem, "\(notifier.summary): \(problem)", fix: "traveltimes notify remove \(notifier.id), then add it with the program's full path")
                return
            }
            if cron, ExecNotifier.problem(program: program, path: Self.cronPath) != nil {
                add(check, .problem, "\(notifier.summary): cron runs ticks with PATH=\(Self.cronPath), where \(program) is not found",
                    fix: "traveltimes notify remove \(notifier.id), then add it with the program's full path")
                return
            }
            let words = [program] + arguments
            if cron, words.contains(where: { $0 == "notify-send" || $0.hasSuffix("/notify-send") }),
               !words.contains(where: { $0.hasPrefix("DBUS_SESSION_BUS_ADDRESS=") }) {
                add(check, .warning, "\(notifier.summary): under cron, notify-send has no session bus to reach your desktop",
                    fix: "add it as: exec env DBUS_SESSION_BUS_ADDRESS=unix:path=/run/user/\(getuid())/bus notify-send … (see the README)")
                return
            }
            add(check, .ok, notifier.summary)
        case .desktop:
            if ExecNotifier.problem(program: "notify-send", path: invocation.environment[.path]) != nil {
                add(check, .problem, "desktop: notify-send is not installed", fix: "install libnotify-bin (Debian, Ubuntu) or libnotify")
            } else {
                add(check, .ok, "desktop: notify-send is here; under cron the session bus is found at /run/user/\(getuid())/bus")
            }
        case .channel(let url):
            if let channel = try? Channel(url: url), let problem = channel.problem(path: invocation.environment[.path]) ?? (cron ? channel.problem(path: Self.cronPath) : nil) {
                add(check, .problem, "\(notifier.summary): \(problem)", fix: "install one, then `traveltimes notify test`")
            } else if (try? Channel(url: url)) != nil {
                add(check, .ok, notifier.summary + ": well formed; `traveltimes notify test` sends a sample")
            } else {
                add(check, .problem, "\(notifier.summary)", fix: "traveltimes notify remove \(notifier.id), then add it again")
            }
        case .webhook(let url, _, _, _):
            if WebhookNotifier.isWebhookURL(url) {
                add(check, .ok, notifier.summary + ": well formed; `traveltimes notify test` sends a sample")
            } else {
                add(check, .problem, "\(notifier.summary): not an http(s) URL", fix: "traveltimes notify remove \(notifier.id), then add it again")
            }
        }
    }

    // MARK: What runs the jobs

    private mutating func checkScheduler(_ installed: Installation.Installed, store: String) {
        var pins: [(what: String, pinned: Installation.Pinned)] = installed.servicePins.map { ("the systemd units", $0) }
        if let pin = installed.cronPin { pins.append(("the crontab block", pin)) }
        guard installed.isScheduled || !installed.units.isEmpty || installed.cronBlock == true else {
            add("scheduler", .problem, "nothing runs refresh and tick", fix: "traveltimes install systemd --enable (or traveltimes install cron)")
            return
        }
        if installed.unitsNotEnabled {
            add("scheduler", .problem, "the systemd timers in \(installed.unitDirectory ?? "?") are not enabled",
                fix: "systemctl --user daemon-reload && systemctl --user enable --now \(Installation.timers.joined(separator: " "))")
            return
        }
        for (what, pinned) in pins {
            guard FileManager.default.isExecutableFile(atPath: pinned.binary) else {
                add("scheduler", .problem, "\(what): runs \(pinned.binary), which is not there any more",
                    fix: "run install again from the traveltimes you mean to keep")
                return
            }
            guard pinned.store == store else {
                add("scheduler", .problem, "\(what): uses the store \(pinned.store), not \(store) (checked here)",
                    fix: "run doctor with TRAVELTIMES_HOME=\(pinned.store), or install again with this store")
                return
            }
        }
        let summary = installed.summary
        // Both run tick only when the timers are enabled beside the block.
        if installed.enabledTimers.count == Installation.timers.count, installed.cronBlock == true {
            add("scheduler", .warning, summary + ": both run tick (the ledger sends each alert once, but twice the work)",
                fix: "traveltimes uninstall cron (or uninstall systemd)")
        } else if installed.enabledTimers.count == Installation.timers.count, !Self.lingers() {
            add("scheduler", .warning, summary + "; user timers run only while you are logged in",
                fix: "on a server: loginctl enable-linger \(Self.userName())")
        } else {
            add("scheduler", .ok, summary)
        }
    }

    /// Whether systemd keeps this user's manager running without a login session.
    static func lingers() -> Bool {
        FileManager.default.fileExists(atPath: "/var/lib/systemd/linger/\(userName())")
    }

    static func userName() -> String {
        guard let entry = getpwuid(getuid()), let name = entry.pointee.pw_name else { return "$USER" }
        return String(cString: name)
    }
}
