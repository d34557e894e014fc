@_spi(Store) import CommuteCore
import Foundation
import TestThreads
import Testing

/// `doctor`, through the binary, against real stores, stand-in `crontab` and `systemctl`, and unit
/// directories as `install systemd` and `systemctl enable` leave them.
@Suite(.ownThreads) struct DoctorTests {
    static let tenPast = "2025-11-04T16:10:00-08:00"

    /// `doctor --json`'s findings by check name, and whether it says alerts will go out.
    func checkup(_ sandbox: Sandbox, now: String = tenPast, environment: [String: String] = [:]) throws
        -> (status: Int32, goesOut: Bool, findings: [String: [String: String]])
    {
        let outcome = try sandbox.run(["doctor", "--json", "--now", now], environment: environment)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any], "\(outcome)")
        let checks = try #require(object["checks"] as? [[String: Any]])
        var findings: [String: [String: String]] = [:]
        for check in checks {
            let name = try #require(check["check"] as? String)
            findings[name] = check.compactMapValues { $0 as? String }
        }
        #expect(object["store"] as? String == sandbox.home)
        #expect((outcome.status == 0) == (object["alertsWillGoOut"] as? Bool == true))
        #expect(outcome.status == 0 || outcome.stderr.hasSuffix("to fix before alerts go out unattended\n"), "\(outcome)")
        return (outcome.status, object["alertsWillGoOut"] as? Bool ?? false, findings)
    }

    @Test func aWorkingCronSetupPassesEveryCheck() throws {
        let sandbox = try Sandbox().prepared()
        let standIns = try StandInPrograms(sandbox)
        defer { withExtendedLifetime(standIns) {} }
        try sandbox.ok(["config", "set", "source", Paths.fixture])
        try sandbox.ok(["notify", "add", "webhook", "https://ntfy.example.invalid/commute", "--header", "Authorization: Bearer tk_DOCTORSECRET"])
        try sandbox.ok(["notify", "add", "exec", "true", "{title}"])
        try sandbox.ok(["install", "cron"])
        let outcome = try sandbox.run(["doctor", "--now", Self.tenPast])
        #expect(outcome.status == 0 && outcome.stderr.isEmpty, "\(outcome)")
        #expect(outcome.stdout == """
            ok       store         \(sandbox.home): readable and writable
            ok       source        \(Paths.fixture) (a file)
            ok       time zone     America/Los_Angeles (saved)
            ok       schedules     1 enabled; 5 alerts pending, the next Wed, Nov 5, 7:00 AM
            ok       refresh       last success 4:00 PM (10 min ago)
            ok       data          Commute at 7:00 AM (Weekdays) would carry travel times measured 4:00 PM (10 min ago)
            ok       fetch helper  libcurl loads: ready
            ok       notifier 1    webhook https://ntfy.example.invalid/… (ntfy, header Authorization): well formed; `traveltimes notify test` sends a sample
            ok       notifier 2    exec true {title}
            ok       scheduler     the traveltimes block in your crontab

            Alerts will go out.

            """)
        let json = try checkup(sandbox)
        #expect(json.status == 0 && json.goesOut && json.findings.count == 10)
        #expect(json.findings.values.allSatisfy { $0["status"] == "ok" && $0["fix"] == nil })
    }

    @Test func eachProblemIsNamedWithWhatToDo() throws {
        let sandbox = try Sandbox().prepared()
        let standIns = try StandInPrograms(sandbox)
        defer { withExtendedLifetime(standIns) {} }
        // A program only this shell's PATH finds, and notify-send without the bus address.
        let notifySend = standIns.directory + "/notify-send"
        try Sandbox.write(notifySend, Data("#!/bin/sh\n".utf8))
        chmod(notifySend, 0o755)
        try sandbox.ok(["notify", "add", "exec", "notify-send", "{title}"])
        try sandbox.ok(["notify", "add", "exec", notifySend, "{title}"])
        try sandbox.ok(["install", "cron"])
        let first = try checkup(sandbox, now: "2025-11-07T16:10:00-08:00", environment: ["TRAVELTIMES_SOURCE": Paths.fixture])
        #expect(first.status == 1 && !first.goesOut)
        #expect(first.findings["source"] == [
            "check": "source", "status": "problem", "detail": "set only in TRAVELTIMES_SOURCE, which timers and cron do not see",
            "fix": "traveltimes config set source URL (the WSDOT URL, or a file's full path)",
        ])
        #expect(first.findings["refresh"]?["status"] == "problem")
        #expect(first.findings["refresh"]?["detail"] == "last success Tue, Nov 4, 4:00 PM (3 days ago): alerts would carry day-old times")
        #expect(first.findings["notifier 1"] == [
            "check": "notifier 1", "status": "problem",
            "detail": "exec notify-send {title}: cron runs ticks with PATH=/usr/bin:/bin, where notify-send is not found",
            "fix": "traveltimes notify remove 1, then add it with the program's full path",
        ])
        #expect(first.findings["notifier 2"]?["status"] == "warning")
        #expect(first.findings["notifier 2"]?["detail"] == "exec \(notifySend) {title}: under cron, notify-send has no session bus to reach your desktop")
        #expect(first.findings["notifier 2"]?["fix"]?.hasPrefix("add it as: exec env DBUS_SESSION_BUS_ADDRESS=unix:path=/run/user/") == true)

        // A WSDOT URL without its code; the code only in this shell.
        try sandbox.ok(["config", "set", "source", "https://wsdot.wa.gov/Traffic/api/TravelTimes/TravelTimesREST.svc/GetTravelTimesAsJson"])
        let second = try checkup(sandbox, environment: ["WSDOT_ACCESS_CODE": "code-in-the-shell"])
        #expect(second.findings["source"]?["detail"] == "https://wsdot.wa.gov/Traffic/api/TravelTimes/TravelTimesREST.svc/GetTravelTimesAsJson needs an access code, and WSDOT_ACCESS_CODE is set only in this shell, which timers and cron do not see")
        #expect(second.findings["source"]?["fix"] == "traveltimes config set access-code CODE (kept only in config.json, mode 0600)")
        try sandbox.ok(["config", "set", "access-code", "code-in-the-store"])
        #expect(try checkup(sandbox).findings["source"]?["status"] == "ok")

        // A URL source without the helper: a problem; and no `code` of any kind in the output.
        let missing = try checkup(sandbox, environment: ["TRAVELTIMES_FETCH_HELPER": "/nonexistent/traveltimes"])
        #expect(missing.findings["fetch helper"] == [
            "check": "fetch helper", "status": "problem", "detail": "/nonexistent/traveltimes is missing or not executable",
            "fix": "unset TRAVELTIMES_FETCH_HELPER, or point it at traveltimes",
        ])
        #expect(!missing.findings.description.contains("code-in"))

        // Run with another store than the one cron uses.
        let other = Sandbox()
        other.environment["PATH"] = sandbox.environment["PATH"]
        other.environment["HOME"] = sandbox.environment["HOME"]
        try other.ok(["refresh", "--source", Paths.fixture, "--now", Paths.capturedAt])
        let elsewhere = try checkup(other)
        #expect(elsewhere.findings["scheduler"] == [
            "check": "scheduler", "status": "problem", "detail": "the crontab block: uses the store \(sandbox.home), not \(other.home) (checked here)",
            "fix": "run doctor with TRAVELTIMES_HOME=\(sandbox.home), or install again with this store",
        ])
        #expect(elsewhere.findings["schedules"]?["status"] == "problem" && elsewhere.findings["time zone"]?["status"] == "problem")

        // An unreadable store file is named.
        try Sandbox.write(sandbox.path("schedules.json"), Data("{not json".utf8))
        let broken = try checkup(sandbox)
        #expect(broken.findings["store"]?["status"] == "problem")
        #expect(broken.findings["store"]?["detail"]?.contains(sandbox.path("schedules.json")) == true)
    }

    @Test func noStoreIsOneProblemAndNothingIsCreated() throws {
        let sandbox = Sandbox()
        let outcome = try sandbox.run(["doctor", "--now", Self.tenPast], environment: ["PATH": "/usr/bin:/bin"])
        #expect(outcome.status == 1)
        #expect(outcome.stdout.hasPrefix("""
            problem  store         \(sandbox.home) does not exist yet
                                   → traveltimes config set source URL (or try traveltimes demo), then traveltimes refresh, favorites add and schedule add

            """))
        #expect(outcome.stdout.hasSuffix("\nAlerts will not go out until the problems above are fixed.\n"))
        #expect(outcome.stderr == "traveltimes: 2 problems to fix before alerts go out unattended\n", "\(outcome)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.home))
    }

    @Test func systemdTimersMustBeEnabledAndReachSomeone() throws {
        let sandbox = try Sandbox().prepared()
        let standIns = try StandInPrograms(sandbox)
        defer { withExtendedLifetime(standIns) {} }
        try sandbox.ok(["config", "set", "source", Paths.fixture])
        let units = sandbox.environment["HOME", default: ""] + "/.config/systemd/user"
        try sandbox.ok(["install", "systemd"])
        let disabled = try checkup(sandbox)
        #expect(disabled.findings["scheduler"] == [
            "check": "scheduler", "status": "problem", "detail": "the systemd timers in \(units) are not enabled",
            "fix": "systemctl --user daemon-reload && systemctl --user enable --now traveltimes-tick.timer traveltimes-refresh.timer",
        ])
        try FileManager.default.createDirectory(atPath: units + "/timers.target.wants", withIntermediateDirectories: true)
        for timer in ["traveltimes-tick.timer", "traveltimes-refresh.timer"] {
            try FileManager.default.createSymbolicLink(atPath: "\(units)/timers.target.wants/\(timer)", withDestinationPath: "\(units)/\(timer)")
        }
        // Under systemd, what tick prints goes to the journal.
        let journal = try checkup(sandbox)
        #expect(journal.status == 1)
        #expect(journal.findings["notifier"]?["status"] == "problem")
        #expect(journal.findings["notifier"]?["detail"] == "stdout: under systemd timers, what tick prints goes to the journal, which nobody reads at 7:00")
        try sandbox.ok(["notify", "add", "webhook", "https://ntfy.example.invalid/commute"])
        let working = try checkup(sandbox)
        #expect(working.status == 0 && working.goesOut, "\(working.findings)")
        let user = String(cString: getpwuid(getuid()).pointee.pw_name)
        let lingers = FileManager.default.fileExists(atPath: "/var/lib/systemd/linger/\(user)")
        #expect(working.findings["scheduler"]?["status"] == (lingers ? "ok" : "warning"))
        if !lingers { #expect(working.findings["scheduler"]?["fix"] == "on a server: loginctl enable-linger \(user)") }
        // A pinned binary that has gone away.
        let service = "\(units)/traveltimes-tick.service"
        let text = try String(contentsOfFile: service, encoding: .utf8)
        try Sandbox.write(service, Data(text.replacingOccurrences(of: "ExecStart=\"/", with: "ExecStart=\"/gone/").utf8))
        let gone = try checkup(sandbox)
        #expect(gone.findings["scheduler"]?["detail"]?.hasPrefix("the systemd units: runs /gone/") == true)
        #expect(gone.findings["scheduler"]?["fix"] == "run install again from the traveltimes you mean to keep")
    }

    @Test func oldDataAFailingNotifierAndAnUnreadableScheduleFileAreProblems() throws {
        let sandbox = try Sandbox().prepared()
        let standIns = try StandInPrograms(sandbox)
        defer { withExtendedLifetime(standIns) {} }
        try sandbox.ok(["config", "set", "source", Paths.fixture])
        try sandbox.ok(["install", "cron"])
        // A refresh a year on succeeds, and saves the same old feed.
        let yearOn = "2026-11-24T08:00:00-08:00"
        try sandbox.ok(["refresh", "--now", yearOn])
        try sandbox.ok(["notify", "add", "exec", "false"])
        let failed = try sandbox.run(["tick", "--now", "2026-11-25T07:00:05-08:00"])
        #expect(failed.status != 0, "\(failed)")
        let later = "2026-11-25T07:01:00-08:00"
        let outcome = try sandbox.run(["doctor", "--now", later])
        #expect(outcome.status == 1, "\(outcome)")
        #expect(Whole.normal(outcome.stdout) == """
            ok       store         $TMP: readable and writable
            ok       source        $ROOT/Fixtures/wsdot/travel-times-2025-11-04T1600-0800.json (a file)
            ok       time zone     America/Los_Angeles (saved)
            ok       schedules     1 enabled; 5 alerts pending, the next Wed, Nov 25, 7:00 AM
            warning  refresh       last success Tue, Nov 24, 8:00 AM (23 h ago)
                                   → traveltimes refresh; traveltimes status shows the last try
            problem  data          Commute at 7:00 AM (Weekdays) would carry travel times measured Tue, Nov 4, 2025, 4:00 PM (385 days ago): it would be sent as if current
                                   → check the source (traveltimes config show): a feed that stopped updating, or a file, is read as it is
            ok       fetch helper  libcurl loads: ready
            ok       notifier 1    exec false
            problem  notifier 1    exec false: its last delivery failed (false exited with status 1)
                                   → traveltimes notify test, and see what it says
            ok       scheduler     the traveltimes block in your crontab

            Alerts will not go out until the problems above are fixed.

            """, "\(outcome)")
        try Sandbox.write(sandbox.path("schedules.json"), Data("{not json".utf8))
        let broken = try sandbox.run(["doctor", "--now", later])
        #expect(Whole.normal(broken.stdout) == """
            problem  store         $TMP/schedules.json: not valid JSON; the file was left untouched — fix or move it aside, then try again
                                   → move the file aside or restore it from a backup (`traveltimes status` names every unreadable file)
            ok       source        $ROOT/Fixtures/wsdot/travel-times-2025-11-04T1600-0800.json (a file)
            ok       time zone     America/Los_Angeles (saved)
            problem  schedules     unreadable: $TMP/schedules.json: not valid JSON; the file was left untouched — fix or move it aside, then try again
                                   → move schedules.json aside or restore it from a backup
            warning  refresh       last success Tue, Nov 24, 8:00 AM (23 h ago)
                                   → traveltimes refresh; traveltimes status shows the last try
            problem  data          Commute at 7:00 AM (Weekdays) would carry travel times measured Tue, Nov 4, 2025, 4:00 PM (385 days ago): it would be sent as if current
                                   → check the source (traveltimes config show): a feed that stopped updating, or a file, is read as it is
            ok       fetch helper  libcurl loads: ready
            ok       notifier 1    exec false
            problem  notifier 1    exec false: its last delivery failed (false exited with status 1)
                                   → traveltimes notify test, and see what it says
            ok       scheduler     the traveltimes block in your crontab

            Alerts will not go out until the problems above are fixed.

            """, "\(broken)")
        #expect(!broken.stdout.contains("schedules     none"), "\(broken)")
    }
}
