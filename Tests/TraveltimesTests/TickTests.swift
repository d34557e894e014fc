@_spi(Store) import CommuteCore
@_spi(Store) import CommuteStore
import Foundation
import TestThreads
import Testing

@Suite(.ownThreads) struct TickTests {
    /// A store with the sample feed, favorite 1, and a schedule at 4:30 PM on Tuesdays and Wednesdays.
    func sandbox() throws -> (Sandbox, String) {
        let sandbox = Sandbox()
        try sandbox.ok(["refresh", "--source", Paths.fixture, "--now", Paths.capturedAt])
        try sandbox.ok(["favorites", "add", "1"])
        try sandbox.ok(["schedule", "add", "--at", "16:30", "--days", "tue,wed", "--now", Paths.capturedAt])
        return (sandbox, try #require(try sandbox.scheduleIDs().first))
    }

    @Test func deliversAtTheFireTimeOnceAndNotBefore() throws {
        let (sandbox, id) = try sandbox()
        #expect(try sandbox.ok(["tick", "--now", "2025-11-04T16:29:00-08:00"]).stdout.isEmpty)
        #expect(sandbox.bytes("delivered.json") == nil, "a tick with nothing due writes nothing")
        let due = try sandbox.ok(["tick", "--now", "2025-11-04T16:30:05-08:00"])
        #expect(due.stdout == "Commute at 4:30 PM (Tue, Wed)\nEverett-Seattle: 34 min (-11 min, CLEAR)\n\n")
        let ledger = sandbox.bytes("delivered.json")
        #expect(try sandbox.ok(["tick", "--now", "2025-11-04T16:30:40-08:00"]).stdout.isEmpty)
        #expect(try sandbox.ok(["tick", "--now", "2025-11-04T16:38:00-08:00"]).stdout.isEmpty)
        #expect(sandbox.bytes("delivered.json") == ledger, "nothing new to record")
        let json = try #require(try sandbox.json(["delivered", "--json"]) as? [[String: Any]])
        #expect(json.count == 1)
        #expect(json[0]["outcome"] as? String == "delivered")
        #expect(json[0]["requestID"] as? String == "schedule.\(id).weekday.3")
        #expect(json[0]["occurrence"] as? String == "2025-11-04T16:30:00-08:00")
    }

    @Test func overlappingTicksDeliverOnce() throws {
        let (sandbox, _) = try sandbox()
        let log = sandbox.path("deliveries.log")
        try sandbox.ok(["notify", "add", "exec", "sh", "-c", "echo \"$TRAVELTIMES_ID\" >> \(log)"])
        let ticks = try (0..<5).map { _ in try sandbox.start(["tick", "--now", "2025-11-04T16:30:00-08:00"]) }
        #expect(try ticks.map { try $0.wait().status }.allSatisfy { $0 == 0 })
        let lines = (try? String(contentsOfFile: log, encoding: .utf8))?.split(separator: "\n") ?? []
        #expect(lines.count == 1, "\(lines)")
    }

    @Test func aSleepingMachineRecordsMissedInsteadOfBursting() throws {
        let (sandbox, _) = try sandbox()
        let late = try sandbox.ok(["tick", "--now", "2025-11-04T16:41:00-08:00"])
        #expect(late.stdout.isEmpty)
        #expect(Whole.normal(late.stderr) == "traveltimes: missed schedule.$UUID.weekday.3 due Tue, Nov 4, 4:30 PM: 11 min late, past the 10 min grace window; not delivered\n" && Whole.normal(late.stderr) == "traveltimes: missed schedule.$UUID.weekday.3 due Tue, Nov 4, 4:30 PM: 11 min late, past the 10 min grace window; not delivered\n")
        let json = try #require(try sandbox.json(["delivered", "--json"]) as? [[String: Any]])
        #expect(json.map { $0["outcome"] as? String } == ["missed"])
        #expect((json[0]["reason"] as? String)?.contains("11 min late, past the 10 min grace window") == true)
        // Within the window it is delivered, marked late; a wider window is configurable.
        try sandbox.ok(["config", "set", "grace", "30m"])
        let delivered = try sandbox.ok(["tick", "--now", "2025-11-05T16:52:00-08:00"])
        #expect(delivered.stdout.hasSuffix("(late by 22 min)\n\n"))
        let badGrace = try sandbox.run(["config", "set", "grace", "soon"])
        #expect(badGrace.status == 64 && badGrace.stderr == "traveltimes: Invalid grace 'soon': use a duration such as 10m, 90s or 1h (at most 24h). See 'traveltimes config set --help'.\n")
    }

    @Test func aScheduleAddedAfterItsTimeHasNotMissedIt() throws {
        let sandbox = Sandbox()
        try sandbox.ok(["refresh", "--source", Paths.fixture, "--now", Paths.capturedAt])
        try sandbox.ok(["favorites", "add", "1"])
        try sandbox.ok(["schedule", "add", "--at", "16:30", "--days", "tue", "--now", "2025-11-04T16:35:00-08:00"])
        let tick = try sandbox.ok(["tick", "--now", "2025-11-04T16:36:00-08:00"])
        #expect(tick.stdout.isEmpty && tick.stderr.isEmpty)
    }

    @Test func execNotifiersGetArgumentsAndEnvironment() throws {
        let (sandbox, id) = try sandbox()
        let log = sandbox.path("exec.log")
        let script = "printf '%s|%s|%s|%s|%s\\n' \"$0\" \"$1\" \"$TRAVELTIMES_URGENCY\" \"$TRAVELTIMES_ID\" \"$TRAVELTIMES_TITLE\" >> \(log)"
        let added = try sandbox.ok(["notify", "add", "exec", "sh", "-c", script, "{title}", "{body}"])
        #expect(added.stdout.hasPrefix("Added notifier 1: exec sh -c "))
        try sandbox.ok(["tick", "--now", "2025-11-04T16:30:00-08:00"])
        let line = try String(contentsOfFile: log, encoding: .utf8)
        #expect(line == "Commute at 4:30 PM (Tue, Wed)|Everett-Seattle: 34 min (-11 min, CLEAR)|normal|schedule.\(id).weekday.3|Commute at 4:30 PM (Tue, Wed)\n")
        #expect(try sandbox.ok(["notify"]).stdout.hasPrefix("1  exec sh -c"))
    }

    @Test func aFailingNotifierIsRetriedThenGivenUpWhileOthersDeliver() throws {
        let (sandbox, _) = try sandbox()
        let log = sandbox.path("ok.log")
        try sandbox.ok(["notify", "add", "exec", "sh", "-c", "echo ok >> \(log)"])
        try sandbox.ok(["notify", "add", "exec", "false"])
        let first = try sandbox.run(["tick", "--now", "2025-11-04T16:30:00-08:00"])
        #expect(first.status == 1 && Whole.normal(first.stderr) == """
            traveltimes: notifier 2 failed for schedule.$UUID.weekday.3: false exited with status 1; retrying while the grace window lasts
            traveltimes: 1 delivery failed; see `traveltimes delivered`

            """ && Whole.normal(first.stderr) == """
            traveltimes: notifier 2 failed for schedule.$UUID.weekday.3: false exited with status 1; retrying while the grace window lasts
            traveltimes: 1 delivery failed; see `traveltimes delivered`

            """)
        let second = try sandbox.run(["tick", "--now", "2025-11-04T16:34:00-08:00"])
        #expect(second.status == 1, "retried within the grace window")
        let third = try sandbox.run(["tick", "--now", "2025-11-04T16:45:00-08:00"])
        #expect(third.status == 0 && third.stderr.isEmpty, "given up past the grace window")
        #expect(try String(contentsOfFile: log, encoding: .utf8) == "ok\n", "the working notifier delivered once")
        let json = try #require(try sandbox.json(["delivered", "--json"]) as? [[String: Any]])
        #expect(json.filter { $0["outcome"] as? String == "failed" }.compactMap { $0["attempts"] as? Int }.max() == 2)
    }

    @Test func deliveredClearIsScopedByPrefix() throws {
        let (sandbox, first) = try sandbox()
        try sandbox.ok(["schedule", "add", "--at", "16:45", "--days", "tue", "--now", Paths.capturedAt])
        let second = try #require(try sandbox.scheduleIDs().last)
        try sandbox.ok(["tick", "--now", "2025-11-04T16:30:00-08:00"])
        try sandbox.ok(["tick", "--now", "2025-11-04T16:45:00-08:00"])
        // A removed schedule's entries stay until cleared.
        try sandbox.ok(["schedule", "remove", String(second.prefix(8)), "--yes"])
        #expect((try sandbox.json(["delivered", "--json", "--schedule", String(second.prefix(6))]) as? [Any])?.count == 1)
        let refused = try sandbox.run(["delivered", "clear", "--schedule", String(second.prefix(8))])
        #expect(refused.status == 64 && Whole.normal(refused.stderr) == "traveltimes: This will dismiss and forget what was delivered for schedule $ID. Re-run with --yes to confirm. See 'traveltimes delivered clear --help'.\n")
        #expect(try sandbox.ok(["delivered", "clear", "--schedule", String(second.prefix(8)), "--yes"]).stdout
            == "Removed 1 ledger entry for schedule \(second.prefix(8)).\n")
        let left = try #require(try sandbox.json(["delivered", "--json"]) as? [[String: Any]])
        #expect(left.compactMap { $0["requestID"] as? String }.allSatisfy { $0.hasPrefix("schedule.\(first)") })
        #expect(try sandbox.ok(["delivered", "clear", "--all", "--yes"]).stdout == "Removed 1 ledger entry for everything.\n")
        let both = try sandbox.run(["delivered", "clear", "--all", "--schedule", "x", "--yes"])
        #expect(both.status == 64 && both.stderr == "traveltimes: Give exactly one of --schedule ID or --all. See 'traveltimes delivered clear --help'.\n")
    }

    @Test func notifierCommandsRefuseWhatTheyCannotDo() throws {
        let sandbox = Sandbox()
        let unknown = try sandbox.run(["notify", "add", "stdot"])
        #expect(unknown.status == 64 && unknown.stderr == "traveltimes: Unknown notifier 'stdot': use a URL (ntfys://, tgram://, mailto:…), desktop, stdout, exec or webhook. Did you mean 'stdout'? See 'traveltimes notify add --help'.\n")
        let noProgram = try sandbox.run(["notify", "add", "exec"])
        #expect(noProgram.status == 64 && noProgram.stderr == "traveltimes: exec needs a program: notify add exec PROGRAM [ARG...]. See 'traveltimes notify add --help'.\n")
        #expect(try sandbox.ok(["notify", "list"]).stdout == "No notifiers configured: alerts go to stdout. Add one with `traveltimes notify add`.\n")
        try sandbox.ok(["notify", "add", "stdout"])
        let remove = try sandbox.run(["notify", "remove", "7", "--yes"])
        #expect(remove.status == 64 && remove.stderr == "traveltimes: No notifier numbered 7: see `traveltimes notify list`. See 'traveltimes notify remove --help'.\n")
        #expect(try sandbox.ok(["notify", "remove", "1", "--yes"]).stdout == "Removed notifier 1: stdout.\n")
    }
}

@Suite(.ownThreads) struct ExecNotifierCheckTests {
    @Test func aProgramThatCannotRunIsRefusedUnlessForced() throws {
        let sandbox = Sandbox()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("exec-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory + "/sub", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let plain = directory + "/notify-plain"
        try Data("#!/bin/sh\n".utf8).write(to: URL(fileURLWithPath: plain))
        let runnable = directory + "/notify-me"
        try Data("#!/bin/sh\n".utf8).write(to: URL(fileURLWithPath: runnable))
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: runnable)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory + "/sub")
        let onPath = ["PATH": "\(directory):/usr/bin:/bin"]
        let refusals: [([String], String)] = [
            (["no-such-notifier"], "Cannot add exec no-such-notifier: no program of that name on PATH."),
            (["notify-plain"], "Cannot add exec notify-plain: \(plain) is not executable."),
            ([plain], "Cannot add exec \(plain): not executable."),
            ([directory + "/sub"], "Cannot add exec \(directory)/sub: no such file."),
            (["./notify-me"], "Cannot add exec ./notify-me: a relative path, and ticks run from another directory."),
            (["sub"], "Cannot add exec sub: no program of that name on PATH."),
        ]
        for (words, reason) in refusals {
            let outcome = try sandbox.run(["notify", "add", "exec"] + words, environment: onPath)
            #expect(outcome.status == 64)
            #expect(outcome.stderr == "traveltimes: \(reason) Give the program's full path, or pass --force before exec to add it anyway."
                + " See 'traveltimes notify add --help'.\n", "\(words)")
        }
        #expect(!FileManager.default.fileExists(atPath: sandbox.path("config.json")))
        #expect(try sandbox.ok(["notify", "add", "exec", "notify-me", "{title}"], environment: onPath).stdout == "Added notifier 1: exec notify-me {title}.\n")
        #expect(try sandbox.ok(["notify", "add", "exec", runnable]).stdout == "Added notifier 2: exec \(runnable).\n")
        let forced = try sandbox.ok(["notify", "add", "--force", "exec", "no-such-notifier"])
        #expect(forced.stdout == "Added notifier 3: exec no-such-notifier.\n")
        // An option of ours after the program would be the program's argument: refused, never
        // passed on silently; after --, everything is the program's.
        for option in [["--name", "phone"], ["--force"], ["--name=phone"]] {
            let refused = try sandbox.run(["notify", "add", "exec", runnable, "-x"] + option)
            #expect(refused == Outcome(status: 64, stdout: "", stderr: """
                traveltimes: '\(option[0].split(separator: "=")[0])' after the program would be passed to it: give it before exec (notify add \(option[0].hasPrefix("--name") ? "--name NAME" : "--force") exec \(runnable) …), or put -- before the program's arguments to pass it on. See 'traveltimes notify add --help'.

                """), "\(refused)")
        }
        let passed = try sandbox.ok(["notify", "add", "--name", "log", "exec", runnable, "--", "--name", "x"])
        #expect(passed.stdout == "Added notifier 4: log: exec \(runnable) --name x.\n")
        // desktop is checked as exec notify-send is: without notify-send, refused unless --force.
        let desktop = try sandbox.run(["notify", "add", "desktop"], environment: ["PATH": sandbox.home])
        #expect(desktop == Outcome(status: 64, stdout: "", stderr: """
            traveltimes: Cannot add desktop: notify-send: no program of that name on PATH (install libnotify-bin). Pass --force before desktop to add it anyway. See 'traveltimes notify add --help'.

            """), "\(desktop)")
        let stand = sandbox.home + "-bin"
        try FileManager.default.createDirectory(atPath: stand, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: stand) }
        try Sandbox.write(stand + "/notify-send", Data("#!/bin/sh\n".utf8))
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: stand + "/notify-send")
        #expect(try sandbox.ok(["notify", "add", "desktop"], environment: ["PATH": stand]).stdout == "Added notifier 5: desktop.\n")
    }
}

@Suite(.ownThreads) struct SmartAlertAndTestCommandTests {
    func sandbox() throws -> Sandbox {
        let sandbox = Sandbox()
        try sandbox.ok(["refresh", "--source", Paths.fixture, "--now", Paths.capturedAt])
        try sandbox.ok(["favorites", "add", "1", "96", "70"])
        return sandbox
    }

    @Test func smartAlertsFireOnlyWhenARouteIsDelayedEnoughAndLeadWithIt() throws {
        let sandbox = try sandbox()
        // Renton-Auburn (70) runs +11 min in the sample; Everett-Seattle (1) and 96 are on time.
        let added = try sandbox.ok(["schedule", "add", "--at", "16:30", "--days", "tue", "--route", "1,70", "--only-when-delayed", "10", "--now", Paths.capturedAt])
        #expect(Whole.normal(added.stdout) == """
            Added schedule $ID: 4:30 PM on Tue, 2 routes (Everett-Seattle, Renton-Auburn), only when delayed 10+ min; next alert Tue, Nov 4, 4:30 PM.
            Schedules are in America/Los_Angeles from now on, whatever TZ cron runs with (change it with `traveltimes config set timezone ZONE`).

            """)
        try sandbox.ok(["schedule", "add", "--at", "16:40", "--days", "tue", "--route", "1,96", "--only-when-delayed", "5m", "--now", Paths.capturedAt])
        #expect(Whole.normal(try sandbox.ok(["schedule", "list"]).stdout) == """
            $ID  4:30 PM  Tue  2 routes  enabled  only when +10 min
            $ID  4:40 PM  Tue  2 routes  enabled  only when +5 min

            """)
        let json = try #require(try sandbox.json(["schedule", "list", "--json"]) as? [[String: Any]])
        #expect(json.compactMap { $0["onlyWhenDelayedBy"] as? Int } == [10, 5])

        #expect(try sandbox.ok(["tick", "--now", "2025-11-04T16:30:00-08:00"]).stdout
            == "Delay: Renton-Auburn +11 min (4:30 PM alert)\nRenton-Auburn: 35 min (+11 min, CONGESTED)\nEverett-Seattle: 34 min (-11 min, CLEAR)\n\n")
        let quiet = try sandbox.ok(["tick", "--now", "2025-11-04T16:40:00-08:00"])
        #expect(quiet.stdout.isEmpty && quiet.stderr.isEmpty)
        let ledger = try #require(try sandbox.json(["delivered", "--json"]) as? [[String: Any]])
        #expect(ledger.map { $0["outcome"] as? String } == ["suppressed", "delivered"])
        #expect((ledger[0]["reason"] as? String)?.hasPrefix("not delayed") == true)
        // And never twice.
        #expect(try sandbox.ok(["tick", "--now", "2025-11-04T16:41:00-08:00"]).stdout.isEmpty)

        let id = try #require(try sandbox.scheduleIDs().first)
        try sandbox.ok(["schedule", "edit", String(id.prefix(8)), "--only-when-delayed", "off"])
        #expect(try sandbox.store.schedules().schedules.first?.onlyWhenDelayedBy == nil)
        let bad = try sandbox.run(["schedule", "add", "--only-when-delayed", "0"])
        #expect(bad.status == 64 && bad.stderr == "traveltimes: Invalid delay threshold '0': use a whole number of minutes, 1 or more, or 'off'\n")
    }

    @Test func theTestCommandSendsASampleThroughEveryNotifier() throws {
        let sandbox = try sandbox()
        let log = sandbox.path("test.log")
        try sandbox.ok(["notify", "add", "stdout"])
        try sandbox.ok(["notify", "add", "exec", "sh", "-c", "echo \"$TRAVELTIMES_TITLE\" >> \(log)"])
        let started = Date()
        let sent = try sandbox.ok(["test", "--delay", "1", "--now", "2025-11-04T16:05:00-08:00"])
        #expect(Date().timeIntervalSince(started) >= 1)
        #expect(sent.stdout.hasPrefix("Test: Commute at 4:05 PM (Tue)\nEverett-Seattle: 34 min (-11 min, CLEAR)\n"))
        #expect(Whole.normal(sent.stderr) == """
            Sending a test alert in 1 s…
            Sent "Test: Commute at 4:05 PM (Tue)" to 2 of 2 notifiers (stdout; exec sh -c echo "$TRAVELTIMES_TITLE" >> $TMP/test.log).

            """)
        #expect(try String(contentsOfFile: log, encoding: .utf8) == "Test: Commute at 4:05 PM (Tue)\n")
        let ledger = try #require(try sandbox.json(["delivered", "--json"]) as? [[String: Any]])
        #expect(ledger.count == 2 && ledger.allSatisfy { ($0["requestID"] as? String)?.hasPrefix("test.") == true && $0["outcome"] as? String == "delivered" })
        try sandbox.ok(["notify", "add", "exec", "false"])
        let failing = try sandbox.run(["test", "--delay", "0"])
        #expect(failing.status == 1 && Whole.normal(failing.stderr) == """
            Sent "Test: Commute at 4:00 PM (Tue)" to 2 of 3 notifiers (stdout; exec sh -c echo "$TRAVELTIMES_TITLE" >> $TMP/test.log). Failed: 1.
            traveltimes: failed: exec false: false exited with status 1
            traveltimes: 1 delivery failed; see `traveltimes delivered`

            """)
        let badDelay = try sandbox.run(["test", "--delay", "forever"])
        #expect(badDelay.status == 64 && badDelay.stderr == "traveltimes: Invalid --delay 'forever': use seconds from 0 to 300, such as 5 or 0.5. See 'traveltimes test --help'.\n")
        // With no favorite yet the test still reaches the phone, and says what it lacks.
        let bare = try Sandbox().run(["test", "--delay", "0"])
        #expect(bare.status == 0 && bare.stdout == """
            Test: traveltimes alerts reach you here
            No favorite routes yet, so no travel times in this sample: `traveltimes favorites add ID` follows one.


            """ && bare.stderr == "Sent \"Test: traveltimes alerts reach you here\" to 1 of 1 notifiers (stdout).\n", "\(bare)")
    }
}

@Suite(.ownThreads) struct GatewayTests {
    @Test func quietHoursAndTheDailyCapHoldBackScheduledAlerts() throws {
        let sandbox = try Sandbox().withoutHealthAlerts()
        try sandbox.ok(["refresh", "--source", Paths.fixture, "--now", Paths.capturedAt])
        try sandbox.ok(["favorites", "add", "1"])
        for time in ["5:30", "6:30", "6:40", "6:50"] {
            try sandbox.ok(["schedule", "add", "--at", time, "--days", "wed", "--now", Paths.capturedAt])
        }
        #expect(try sandbox.ok(["config", "set", "quiet-hours", "22:00-06:00"]).stdout
            == "quiet hours set to 10:00 PM–6:00 AM: scheduled alerts in it are held back.\n")
        try sandbox.ok(["config", "set", "daily-cap", "2"])
        var printed: [String] = []
        for minute in ["05:30", "06:30", "06:40", "06:50"] {
            printed.append(try sandbox.ok(["tick", "--now", "2025-11-05T\(minute):00-08:00"]).stdout)
        }
        #expect(printed.map(\.isEmpty) == [true, false, false, true])
        let ledger = try #require(try sandbox.json(["delivered", "--json"]) as? [[String: Any]])
        #expect(ledger.compactMap { $0["outcome"] as? String } == ["suppressed", "delivered", "delivered", "suppressed"])
        #expect(ledger.first?["reason"] as? String == "daily cap of 2 standard alerts reached")
        #expect(ledger.last?["reason"] as? String == "quiet hours (10:00 PM–6:00 AM)")
        let config = try sandbox.ok(["config"]).stdout
        #expect(config == """
            source:         not set
            access-code:    not set
            timezone:       America/Los_Angeles (saved)
            grace:          10 min
            quiet-hours:    10:00 PM–6:00 AM
            daily-cap:      2 scheduled alerts
            tomtom-key:     not set
            here-key:       not set
            google-key:     not set
            lead:           60 min before an alert, custom routes are in play
            min-interval:   10 min between requests for a route
            plan-requests:  on (each custom route is asked when its alerts need it, about the moment you will leave)
            budget.tomtom:  2500 requests a day
            budget.here:    1000 requests a day
            budget.google:  160 requests a day
            budget.transitous: 200 requests a day
            budget.osrm:    100 requests a day
            budget.valhalla: 100 requests a day
            stale-after:    off (no health alerts)
            alert-lifetime: 2 h after it fires, an alert is cleared where the channel can
            follow-threshold: a followed trip's leave alert is updated when it is cancelled or moves 5 min
            health-notify:  every notifier
            history-days:   400 days of travel times are kept
            typical-weeks:  typical times look back 8 weeks
            contact:        not set (requests name no one to reach: `config set contact YOUR-EMAIL`, as the public services ask)
            geocoder-url:   https://nominatim.openstreetmap.org
            tomtom-url:     https://api.tomtom.com
            here-url:       https://router.hereapi.com
            google-url:     https://routes.googleapis.com
            transitous-url: https://api.transitous.org
            osrm-url:       https://router.project-osrm.org
            valhalla-url:   https://valhalla1.openstreetmap.de
            free-flow-margin: free-flow estimates × 1.25 for arrive-by leave times
            units:          mi (the unit of America/Los_Angeles's country; config set units km|mi)
            notifiers:      stdout

            """)
        let bad = try sandbox.run(["config", "set", "quiet-hours", "22:00"])
        #expect(bad.status == 64 && bad.stderr == "traveltimes: Invalid quiet-hours '22:00': use START-END, such as 22:00-06:00 (times as --at takes them). See 'traveltimes config set --help'.\n")
        try sandbox.ok(["config", "unset", "quiet-hours", "--yes"])
        #expect(try sandbox.ok(["config"]).stdout == """
            source:         not set\u{A}access-code:    not set\u{A}timezone:       America/Los_Angeles (saved)\u{A}grace:          10 min\u{A}quiet-hours:    none\u{A}daily-cap:      2 scheduled alerts\u{A}tomtom-key:     not set\u{A}here-key:       not set\u{A}google-key:     not set\u{A}lead:           60 min before an alert, custom routes are in play\u{A}min-interval:   10 min between requests for a route\u{A}plan-requests:  on (each custom route is asked when its alerts need it, about the moment you will leave)\u{A}budget.tomtom:  2500 requests a day\u{A}budget.here:    1000 requests a day\u{A}budget.google:  160 requests a day\u{A}budget.transitous: 200 requests a day\u{A}budget.osrm:    100 requests a day\u{A}budget.valhalla: 100 requests a day\u{A}stale-after:    off (no health alerts)\u{A}alert-lifetime: 2 h after it fires, an alert is cleared where the channel can\u{A}follow-threshold: a followed trip's leave alert is updated when it is cancelled or moves 5 min\u{A}health-notify:  every notifier\u{A}history-days:   400 days of travel times are kept\u{A}typical-weeks:  typical times look back 8 weeks\u{A}contact:        not set (requests name no one to reach: `config set contact YOUR-EMAIL`, as the public services ask)\u{A}geocoder-url:   https://nominatim.openstreetmap.org\u{A}tomtom-url:     https://api.tomtom.com\u{A}here-url:       https://router.hereapi.com\u{A}google-url:     https://routes.googleapis.com\u{A}transitous-url: https://api.transitous.org\u{A}osrm-url:       https://router.project-osrm.org\u{A}valhalla-url:   https://valhalla1.openstreetmap.de\u{A}free-flow-margin: free-flow estimates × 1.25 for arrive-by leave times\u{A}units:          mi (the unit of America/Los_Angeles's country; config set units km|mi)\u{A}notifiers:      stdout\u{A}
            """)
    }
}
