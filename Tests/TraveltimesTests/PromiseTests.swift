import Foundation
import Glibc
import TestThreads
import Testing
@_spi(Store) import CommuteCore
@_spi(Store) import CommuteStore

/// Issue 46: what the README promises, kept at the edges — no alert dropped, no failure called a
/// success, no store broken by two commands at once.
@Suite(.ownThreads) struct PromiseTests {
    /// A laptop that wakes after a meeting's departure time refreshes or ticks first: either way the
    /// departure that went by is recorded as missed, once, and `pending` no longer lists it.
    @Test func aCalendarDepartureThatWentByIsMissedWhetherARefreshOrATickComesFirst() throws {
        for refreshFirst in [false, true] {
            let sandbox = try CalendarTests.withWorkCalendar()
            try sandbox.ok(["calendar", "add", "work", "--ics", CalendarTests.calendar("work.ics"), "--route", "1", "--now", Paths.capturedAt])
            if refreshFirst { try sandbox.ok(["refresh", "--source", Paths.fixture, "--quiet", "--now", "2025-11-07T07:00:00-08:00"]) }
            let pending = try sandbox.ok(["pending", "--json", "--now", "2025-11-07T07:00:30-08:00"])
            #expect(!pending.stdout.contains("2025-11-05"), "\(pending.stdout)")
            let tick = try sandbox.run(["tick", "--now", "2025-11-07T07:01:00-08:00"])
            #expect(tick.status == 0 && tick.stdout.isEmpty, "\(tick)")
            #expect(tick.stderr == """
                traveltimes: missed schedule.71047c72-3f5c-5433-a390-f310847c37da.weekday.4 due Wed, Nov 5, 9:00 AM: its arrival time, 9:00 AM, went by before it was sent; not delivered

                """, "refresh first: \(refreshFirst)")
            // The standup moved to 9:30 next Wednesday is not this Wednesday's 9:30: nothing else.
            #expect(try sandbox.ok(["delivered", "--all", "--now", "2025-11-07T07:02:00-08:00"]).stdout == """
                DUE                  OUTCOME  ALERT                        NOTIFIER  NOTE
                Wed, Nov 5, 9:00 AM  missed   schedule.71047c72.weekday.4  -         its arrival time, 9:00 AM, went by before it was sent

                """)
            // Recorded once: the next tick and the next refresh leave it at that.
            try sandbox.ok(["refresh", "--source", Paths.fixture, "--quiet", "--now", "2025-11-07T07:05:00-08:00"])
            #expect(try sandbox.run(["tick", "--now", "2025-11-07T07:06:00-08:00"]).stderr.isEmpty)
            // The next departures are still planned.
            let later = try sandbox.ok(["pending", "--now", "2025-11-07T07:07:00-08:00"]).stdout
            #expect(later.hasPrefix("3 alerts scheduled (cap 64); 0 deferred.\n\nWed, Nov 12, 8:46 AM  Leave now for Standup (moved) at 9:30 AM\n"), "\(later)")
        }
    }
}

extension PromiseTests {
    /// With only custom routes, a refresh whose engine answers 503 is a failure everywhere it is
    /// read — its exit status, `doctor`, `status --json`, the metrics — and spends three requests,
    /// not the deadline's worth; the next refreshes within the hour leave the engine alone and
    /// still say it is failing; when it answers, all is well again.
    @Test func aFailedRefreshOfCustomRoutesIsAFailureEverywhere() throws {
        let server = try EngineServer()
        let sandbox = try FreeFlowTests().sandbox(server)
        try sandbox.ok(["route", "add", "drive", "--provider", "osrm", "--from", "home", "--to", "work", "--now", "2026-11-23T06:00:00-08:00"])
        try sandbox.ok(["refresh", "--now", "2026-11-23T06:30:00-08:00"])
        let metrics = sandbox.path("metrics.prom")
        try sandbox.ok(["export", "add", "prometheus", metrics])
        try sandbox.ok(["refresh", "--all", "--now", "2026-11-24T06:40:00-08:00"])
        let stamp = try String(contentsOfFile: metrics, encoding: .utf8).components(separatedBy: "\n").filter { $0.hasPrefix("traveltimes_last_refresh_timestamp_seconds") }
        try server.steer(#"{"fault": "503"}"#)
        let asked = server.requests().count
        let failed = try sandbox.run(["refresh", "--all", "--now", "2026-11-25T07:00:00-08:00"])
        #expect(failed.status == 75 && failed.stderr == "traveltimes: custom route drive: OSRM failed 3 times (last: HTTP 503)\n", "\(failed)")
        #expect(server.requests().count == asked + 3)
        let status = try #require(try sandbox.json(["status", "--json", "--now", "2026-11-25T07:01:00-08:00"]) as? [String: Any])
        let last = try #require(status["lastRefresh"] as? [String: Any])
        #expect(last["failuresInARow"] as? Int == 1 && last["result"] as? String == "custom route drive: OSRM failed 3 times (last: HTTP 503)", "\(last)")
        #expect(last["lastSuccessAt"] as? String == "2026-11-24T06:40:00-08:00")
        // (Columns as words: their width is the widest name's.)
        let doctor = try sandbox.run(["doctor", "--now", "2026-11-25T07:01:00-08:00"]).stdout.components(separatedBy: "\n")
            .map { $0.split(separator: " ").joined(separator: " ") }
        #expect(doctor.contains(
            "problem refresh last success Tue, Nov 24, 6:40 AM (24 h ago); the last try failed: custom route drive: OSRM failed 3 times (last: HTTP 503): alerts would carry day-old times"), "\(doctor)")
        #expect(doctor.contains("warning provider osrm 1 route; 3 of 100 requests today; failing since 7:00 AM: OSRM failed 3 times (last: HTTP 503); its routes keep their last times"), "\(doctor)")
        #expect(try String(contentsOfFile: metrics, encoding: .utf8).components(separatedBy: "\n").filter { $0.hasPrefix("traveltimes_last_refresh_timestamp_seconds") } == stamp)
        // Within the hour the engine is left alone, and the refresh still says it fails.
        let resting = try sandbox.run(["refresh", "--all", "--now", "2026-11-25T07:30:00-08:00"])
        #expect(resting.status == 75 && server.requests().count == asked + 3, "\(resting)")
        #expect(resting.stderr == """
            traveltimes: OSRM has been failing since 7:00 AM (OSRM failed 3 times (last: HTTP 503)); asked again an hour after its last failure; kept as they were: drive

            """, "\(resting)")
        // Under --quiet the same failure again is said by the exit status alone.
        let quiet = try sandbox.run(["refresh", "--all", "--quiet", "--now", "2026-11-25T07:35:00-08:00"])
        #expect(quiet.status == 75 && quiet.stderr.isEmpty && quiet.stdout.isEmpty, "\(quiet)")
        // It answers again: a success, everywhere.
        try server.steer("{}")
        try sandbox.ok(["refresh", "--all", "--now", "2026-11-25T08:05:00-08:00"])
        let healed = try #require((try sandbox.json(["status", "--json", "--now", "2026-11-25T08:06:00-08:00"]) as? [String: Any])?["lastRefresh"] as? [String: Any])
        #expect(healed["failuresInARow"] as? Int == 0 && healed["lastSuccessAt"] as? String == "2026-11-25T08:05:00-08:00", "\(healed)")
    }
}

extension PromiseTests {
    /// A keyless car route's free-flow estimate is an estimate to people and to machines alike:
    /// `ESTIMATE` in `routes --json`, Home Assistant's and MQTT's status, not counted "without
    /// data" by `status`, and said as an estimate by the brief.
    @Test func aKeylessCarRouteIsAnEstimateToMachinesToo() throws {
        let server = try EngineServer()
        let sandbox = try FreeFlowTests().sandbox(server)
        try sandbox.ok(["route", "add", "drive", "--provider", "osrm", "--from", "home", "--to", "work", "--now", "2026-11-24T06:00:00-08:00"])
        try sandbox.ok(["favorites", "add", "drive"])
        let table = try sandbox.ok(["routes", "--now", "2026-11-24T06:01:00-08:00"]).stdout
        #expect(table.contains("ESTIMATE") && !table.contains("NO DATA"), "\(table)")
        let routes = try #require(try sandbox.json(["routes", "--json", "--now", "2026-11-24T06:01:00-08:00"]) as? [[String: Any]])
        #expect(routes.map { $0["status"] as? String } == ["ESTIMATE"] && routes.first?["currentMinutes"] as? Int == 17, "\(routes)")
        let status = try sandbox.ok(["status", "--now", "2026-11-24T06:01:00-08:00"]).stdout
        #expect(status.contains("Routes:     1 (0 without data)"), "\(status)")
        let counted = try #require((try sandbox.json(["status", "--json", "--now", "2026-11-24T06:01:00-08:00"]) as? [String: Any])?["routes"] as? [String: Any])
        #expect(counted["withoutData"] as? Int == 0, "\(counted)")
        #expect(try sandbox.ok(["brief", "--now", "2026-11-24T06:01:00-08:00"]).stdout
            == "There is no live data for your morning commute right now. home → work (OSRM) takes 17 min by a free-flow estimate from OSRM (no live traffic).\n")
        let homeAssistant = try SteeredServer(script: "homeassistant_server.py")
        let added = try sandbox.run(["export", "add", "homeassistant", homeAssistant.base, "--token", "-", "--now", "2026-11-24T06:02:00-08:00"], stdin: "good-token\n")
        #expect(added.status == 0, "\(added)")
        let posted = homeAssistant.entries().compactMap { $0["body"] as? String }.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(posted.map { ($0["attributes"] as? [String: Any])?["status"] as? String } == ["ESTIMATE"], "\(posted)")
        #expect(posted.map { $0["state"] as? String } == ["17"], "\(posted)")
    }
}

extension PromiseTests {
    /// Transitous's answer is for the time asked: late at night its next runs are tomorrow's, and
    /// are said with their day; itineraries a year or 74 years on are no answer, and the route
    /// keeps what it had.
    @Test func aTransitousAnswerForAnotherDaySaysItsDayOrIsRefused() throws {
        let server = try TransitousServer()
        let sandbox = try TransitousTests().prepared(server)
        try sandbox.ok(["favorites", "add", "bus"])
        try sandbox.ok(["schedule", "add", "--at", "23:30", "--route", "bus", "--days", "weekdays", "--now", "2026-11-24T06:00:00-08:00"])
        // The last runs of the night are over: the server answers with the morning's.
        try server.steer(#"{"shiftHours": 8}"#)
        try sandbox.ok(["refresh", "--now", "2026-11-24T23:00:00-08:00"])
        let tick = try sandbox.ok(["tick", "--now", "2026-11-24T23:30:00-08:00"]).stdout
        #expect(tick.components(separatedBy: "\n").contains(
            "home → work (Transitous): 545 to Redmond: Wed, Nov 25, 7:47 AM, then 8:02 AM, 8:17 AM; leave by Wed, Nov 25, 7:41 AM; timetable times, no live data"), "\(tick)")
        let route = try sandbox.ok(["route", "bus", "--now", "2026-11-24T23:31:00-08:00"]).stdout.components(separatedBy: "\n")
        #expect(route.contains("    Wed, Nov 25, 7:41 AM → 8:21 AM  40 min  545 at 7:47 AM, walk 10 min, timetable"), "\(route)")
        func itineraries() throws -> String {
            let json = try #require(try sandbox.json(["route", "bus", "--json", "--now", "2026-11-24T23:31:00-08:00"]) as? [String: Any])
            return String(decoding: try JSONSerialization.data(withJSONObject: json["itineraries"] ?? [], options: .sortedKeys), as: UTF8.self)
        }
        let kept = try itineraries()
        #expect(kept.contains("2026-11-25T07:41:00-08:00"), "\(kept)")
        for (hours, at) in [(24 * 365, "23:00"), (24 * 365 * 74, "23:15")] {
            try server.steer(#"{"shiftHours": \#(hours)}"#)
            let refused = try sandbox.run(["refresh", "--now", "2026-11-25T\(at):00-08:00"])
            #expect(refused.status != 0 && refused.stderr == """
                traveltimes: custom route bus: no route: Transitous answered only with itineraries for another time (over a day after the time asked)

                """, "\(hours) h: \(refused)")
            #expect(try itineraries() == kept)
        }
    }
}

extension PromiseTests {
    /// A late bus stays listed while it can be caught: when the next refresh has no realtime feed
    /// fresh enough to use, the last one's prediction (within the hour) is kept, said as of then.
    @Test func aLateBusIsStillListedWhenTheNextRefreshHasNoLiveData() throws {
        let server = try TransitServer()
        let sandbox = try TransitTests().commuter(server)
        try sandbox.ok(["refresh", "--now", TransitTests.at("07:15")])
        // 7:54: the 7:15 feed is too old to use; the 7:57, 4 min late, leaves at 8:01, after the walk.
        let stale = try sandbox.run(["refresh", "--now", TransitTests.at("07:54")])
        #expect(stale.status == 75 && stale.stderr.contains("over 15 min ago: not used"), "\(stale)")
        let next = try sandbox.ok(["route", "commute", "--now", TransitTests.at("07:54")]).stdout.components(separatedBy: "\n")
        #expect(next.contains(
            "  Next:     545 to Redmond: 8:01 AM (+4 min as of 7:15 AM), then 8:05 AM (542 to Redmond TC), 8:12 AM; walk 6 min: leave by 7:55 AM; timetable times, no live data (metro's realtime feed is from 7:15 AM, over 15 min ago: not used)"),
            "\(next)")
        // Once it has gone, the timetable's next.
        _ = try sandbox.run(["refresh", "--now", TransitTests.at("08:16")])
        let later = try sandbox.ok(["route", "commute", "--now", TransitTests.at("08:16")]).stdout.components(separatedBy: "\n")
        #expect(later.contains(
            "  Next:     545 to Redmond: 8:27 AM, then 8:35 AM (542 to Redmond TC), 8:42 AM; walk 6 min: leave by 8:21 AM; timetable times, no live data (metro's realtime feed is from 7:15 AM, over 15 min ago: not used)"),
            "\(later)")
    }
}

extension PromiseTests {
    /// A Transitous route with an arrive-by alert and a fixed-time alert both near: the refresh
    /// asks for each, and the fixed-time alert lists the itineraries from its time.
    @Test func aFixedTimeAlertOnATransitousRouteBesideAnArriveByOneHasItsItineraries() throws {
        let server = try TransitousServer()
        let sandbox = try TransitousTests().prepared(server)
        try sandbox.ok(["favorites", "add", "bus"])
        try sandbox.ok(["schedule", "add", "--arrive-by", "9:00", "--heads-up", "off", "--route", "bus", "--days", "weekdays", "--now", "2026-11-24T06:00:00-08:00"])
        try sandbox.ok(["schedule", "add", "--at", "7:30", "--route", "bus", "--days", "weekdays", "--now", "2026-11-24T06:00:00-08:00"])
        let before = server.requests().filter { $0.path == "/api/v6/plan" }.count
        try sandbox.ok(["refresh", "--now", "2026-11-24T07:00:00-08:00"])
        let asked = server.requests().filter { $0.path == "/api/v6/plan" }.dropFirst(before).map { "\($0.query["time"] ?? "") \($0.query["arriveBy"] ?? "")" }
        #expect(asked == ["2026-11-24T16:55:00Z true", "2026-11-24T15:30:00Z false"], "\(asked)")
        let tick = try sandbox.ok(["tick", "--now", "2026-11-24T07:30:00-08:00"]).stdout
        #expect(tick == """
            Commute at 7:30 AM (Weekdays)
            home → work (Transitous): 545 to Redmond: 7:47 AM, then 8:02 AM, 8:17 AM; leave by 7:41 AM; timetable times, no live data


            """, "\(tick)")
        // The arrive-by alert still rests on its own answer.
        let pending = try #require(try sandbox.json(["pending", "--json", "--now", "2026-11-24T07:31:00-08:00"]) as? [String: Any])
        #expect((pending["requests"] as? [[String: Any]])?.first?["title"] as? String == "Leave now for the 545 to Redmond at 8:17 AM to arrive by 9:00 AM", "\(pending)")
    }
}

extension PromiseTests {
    /// "5 min to spare" is one thing by car and by bus: arriving at the destination that much
    /// before the time. For 9:08 the 8:32 bus, at the door 9:06, leaves 2 minutes to spare; the 8:17 (at the
    /// door 8:51) is the one to take, and the rider leaves when it needs them to, not 5 min early
    /// to wait at the stop.
    @Test func minutesToSpareAreAtTheDestinationByBusAsByCar() throws {
        let server = try TransitousServer()
        let sandbox = try TransitousTests().prepared(server)
        try sandbox.ok(["favorites", "add", "bus"])
        try sandbox.ok(["schedule", "add", "--arrive-by", "9:08", "--buffer", "5m", "--heads-up", "off", "--route", "bus", "--days", "weekdays", "--now", "2026-11-24T06:00:00-08:00"])
        try sandbox.ok(["refresh", "--now", "2026-11-24T07:00:00-08:00"])
        let plan = try #require(server.requests().last { $0.path == "/api/v6/plan" })
        #expect(plan.query["time"] == "2026-11-24T17:03:00Z" && plan.query["arriveBy"] == "true", "\(plan.query)")
        let pending = try #require(try sandbox.json(["pending", "--json", "--now", "2026-11-24T07:00:00-08:00"]) as? [String: Any])
        let first = try #require((pending["requests"] as? [[String: Any]])?.first)
        #expect(first["nextFire"] as? String == "2026-11-24T08:11:00-08:00" && first["title"] as? String == "Leave now for the 545 to Redmond at 8:17 AM to arrive by 9:08 AM", "\(first)")
        let help = try sandbox.ok(["schedule", "add", "--help"]).stdout
        #expect(help.contains("minutes to spare at the destination, by car or by bus"), "\(help)")
    }
}

extension PromiseTests {
    /// An alert tried three times and then delivered is one delivered alert to `status`.
    @Test func statusCountsEachAlertOnceByItsLastOutcome() throws {
        let sandbox = try Sandbox().prepared().withoutHealthAlerts()
        let flag = sandbox.home + "-up"
        defer { unlink(flag) }
        try sandbox.ok(["notify", "add", "exec", "/bin/sh", "-c", "test -e \(flag)"])
        for minute in ["00", "01", "02"] {
            #expect(try sandbox.run(["tick", "--now", "2025-11-05T07:\(minute):00-08:00"]).status == 1)
        }
        try Sandbox.write(flag, Data())
        try sandbox.ok(["tick", "--now", "2025-11-05T07:03:00-08:00"])
        let status = try sandbox.ok(["status", "--now", "2025-11-05T07:04:00-08:00"]).stdout
        #expect(status.components(separatedBy: "\n").contains("Last alert: 7:03 AM delivered; last 24 h: 1 delivered"), "\(status)")
        let json = try #require((try sandbox.json(["status", "--json", "--now", "2025-11-05T07:04:00-08:00"]) as? [String: Any])?["lastAlert"] as? [String: Any])
        #expect(json["lastDay"] as? [String: Int] == ["delivered": 1], "\(json)")
    }

    /// mailto: goes through this machine's sendmail: with none, it is refused when added (unless
    /// --force) and a problem to `doctor`, not a failure found at 7:00.
    @Test func aMailtoNotifierWithoutSendmailIsRefusedAndAProblem() throws {
        guard Self.sendmailOutsidePath.isEmpty else {
            Issue.record("this machine has \(Self.sendmailOutsidePath.joined(separator: ", ")): a sendmail outside PATH cannot be taken away here")
            return
        }
        let sandbox = try Sandbox().prepared()
        sandbox.environment["PATH"] = "/usr/bin:/bin"
        let refused = try sandbox.run(["notify", "add", "mailto:ada@example.com"])
        #expect(refused.status == 64 && refused.stderr == """
            traveltimes: Cannot add that mailto: notifier: no sendmail on PATH or in /usr/sbin, so mail cannot be sent: install a mail transfer agent (msmtp-mta, postfix or exim4). Pass --force before the URL to add it anyway. See 'traveltimes notify add --help'.

            """, "\(refused)")
        #expect(try sandbox.ok(["notify", "list"]).stdout.hasPrefix("No notifiers"))
        try sandbox.ok(["notify", "add", "--force", "mailto:ada@example.com"])
        let doctor = try sandbox.run(["doctor"]).stdout.components(separatedBy: "\n").map { $0.split(separator: " ").joined(separator: " ") }
        #expect(doctor.contains(
            "problem notifier 1 mailto:ada@example.com: no sendmail on PATH or in /usr/sbin, so mail cannot be sent: install a mail transfer agent (msmtp-mta, postfix or exim4)"), "\(doctor)")
        // With one on PATH, it is added as any notifier.
        let tools = try DesktopAndMail(sandbox)
        defer { withExtendedLifetime(tools) {} }
        try sandbox.ok(["notify", "add", "mailto:bob@example.com"])
    }

    static var sendmailOutsidePath: [String] { ["/usr/sbin/sendmail", "/usr/lib/sendmail"].filter { access($0, X_OK) == 0 } }

    /// A setting only this shell has is one the timers and cron run without: `install cron`
    /// warns, and `doctor` says it is a problem, naming the setting that saves it.
    @Test func aSettingOnlyInTheShellIsSaidByInstallAndDoctor() throws {
        let sandbox = try Sandbox(runner: .binary).prepared()
        let programs = try StandInPrograms(sandbox)
        defer { withExtendedLifetime(programs) {} }
        let environment = ["TRAVELTIMES_OSRM_URL": "http://127.0.0.1:9/", "HERE_API_KEY": "k-123456", "TRAVELTIMES_TOMTOM_URL": "http://127.0.0.1:9/"]
        // Each counts where a route uses its service (no TomTom route here: its address is no matter).
        try sandbox.ok(["route", "add", "drive", "--provider", "osrm", "--from", "47.6,-122.3", "--to", "47.7,-122.2", "--no-check"], environment: environment)
        try sandbox.ok(["route", "add", "car", "--provider", "here", "--from", "47.6,-122.3", "--to", "47.7,-122.2", "--no-check"], environment: environment)
        let installed = try sandbox.run(["install", "cron"], environment: environment)
        #expect(installed.status == 0 && installed.stderr == """
            traveltimes: warning: TRAVELTIMES_OSRM_URL is set only in this shell: the timers and cron will run without it; save it with `traveltimes config set osrm-url`
            traveltimes: warning: HERE_API_KEY is set only in this shell: the timers and cron will run without it; save it with `traveltimes config set here-key -`

            """, "\(installed)")
        #expect(!installed.stderr.contains("k-123456"))
        let doctor = try sandbox.run(["doctor"], environment: environment).stdout.components(separatedBy: "\n").map { $0.split(separator: " ").joined(separator: " ") }
        #expect(doctor.contains("problem setting TRAVELTIMES_OSRM_URL is set only in this shell: the timers and cron do not see it, and run without it"), "\(doctor)")
        #expect(doctor.contains("→ traveltimes config set osrm-url VALUE (then unset TRAVELTIMES_OSRM_URL)"), "\(doctor)")
        // Saved, it is no longer only the shell's.
        try sandbox.ok(["config", "set", "osrm-url", "http://127.0.0.1:9/"])
        #expect(try !sandbox.run(["doctor"], environment: environment).stdout.contains("TRAVELTIMES_OSRM_URL"))
    }
}

extension PromiseTests {
    /// Every adding command, two at once, 20 rounds: the store stays usable, every identity is
    /// one of a kind (two exports of a kind get two IDs; a name taken twice at once is taken
    /// once), and what both asked for different names is all there.
    @Test func twoAddingCommandsAtOnceLeaveAUsableStore() throws {
        let ics = Paths.root.appendingPathComponent("Fixtures/calendars").path
        let gtfs = Paths.transit("metro-gtfs.zip")
        let pairs: [[[String]]] = [
            [["export", "add", "ics", "OUT/a.ics"], ["export", "add", "ics", "OUT/b.ics"]],
            [["export", "add", "prometheus", "OUT/a.prom"], ["export", "add", "prometheus", "OUT/b.prom"]],
            [["export", "add", "ics", "OUT/same.ics"], ["export", "add", "ics", "OUT/same.ics"]],
            [["notify", "add", "stdout"], ["notify", "add", "--name", "two", "stdout"]],
            [["place", "add", "home", "47.6,-122.3"], ["place", "add", "home", "47.7,-122.3"]],
            [["place", "add", "a", "47.6,-122.3"], ["place", "add", "b", "47.7,-122.3"]],
            [["calendar", "add", "work", "--ics", ics + "/work.ics", "--route", "1"], ["calendar", "add", "work", "--ics", ics + "/work.ics", "--route", "4"]],
            [["calendar", "add", "h1", "--ics", ics + "/holidays.ics", "--skip"], ["calendar", "add", "h2", "--ics", ics + "/holidays.ics", "--skip"]],
            [["transit", "add", "metro", "--static", gtfs], ["transit", "add", "metro", "--static", gtfs]],
            [["transit", "add", "m2", "--static", gtfs], ["transit", "add", "m3", "--static", gtfs]],
            [["route", "add", "bus", "--transit", "metro", "--from-stop", "CH", "--to-stop", "2301"], ["route", "add", "bus", "--transit", "m2", "--from-stop", "CH", "--to-stop", "2301"]],
            [["route", "add", "b1", "--transit", "metro", "--from-stop", "CH", "--to-stop", "2301"], ["route", "add", "b2", "--transit", "m3", "--from-stop", "CH", "--to-stop", "2301"]],
            [["favorites", "add", "1", "96"], ["favorites", "add", "4", "1"]],
            [["schedule", "add", "--preset", "morning"], ["schedule", "add", "--at", "7:30", "--route", "1"]],
            [["group", "add", "g", "--route", "1"], ["group", "add", "g", "--route", "4"]],
            [["pause", "--from", "2025-11-10", "--until", "2025-11-11"], ["pause", "--from", "2025-11-12", "--until", "2025-11-13"]],
            [["watch", "add", "1", "--over", "5"], ["watch", "add", "4", "--over", "9"]],
        ]
        for round in 1...20 {
            let sandbox = Sandbox(runner: .binary)
            let out = sandbox.home + "-out"
            try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: out) }
            try sandbox.ok(["refresh", "--source", Paths.fixture, "--quiet"])
            for pair in pairs {
                let running = try pair.map { try sandbox.start($0.map { $0.replacingOccurrences(of: "OUT/", with: out + "/") }) }
                let outcomes = try running.map { try $0.wait() }
                // One of two wanting the same name may be refused, in words, never by a broken store.
                for outcome in outcomes where outcome.status != 0 {
                    #expect(outcome.stderr.contains("already") || outcome.stderr.contains("exists"), "round \(round) \(pair): \(outcome)")
                }
                #expect(outcomes.contains { $0.status == 0 }, "round \(round) \(pair): \(outcomes)")
            }
            for listing in [["status"], ["pending"], ["routes"], ["export", "list", "--json"], ["notify", "list"], ["place", "list", "--json"], ["calendar", "list"],
                            ["transit", "list"], ["schedule", "list"], ["group", "list"], ["pause", "list"], ["watch", "list"], ["favorites", "list"]] {
                try sandbox.ok(listing)
            }
            let exports = try #require(try sandbox.json(["export", "list", "--json"]) as? [[String: Any]]).compactMap { $0["id"] as? String }
            #expect(exports.sorted() == ["ics", "ics-2", "ics-3", "prometheus", "prometheus-2"], "round \(round): \(exports)")
            let calendars = try sandbox.store.configuration().calendars?.map(\.name) ?? []
            #expect(calendars.sorted() == ["h1", "h2", "work"], "round \(round): \(calendars)")
            let places = try #require(try sandbox.json(["place", "list", "--json"]) as? [[String: Any]]).compactMap { $0["name"] as? String }
            #expect(places.sorted() == ["a", "b", "home"], "round \(round): \(places)")
            let feeds = try sandbox.store.configuration().transitFeeds?.map(\.name) ?? []
            #expect(feeds.sorted() == ["m2", "m3", "metro"], "round \(round): \(feeds)")
            #expect(try sandbox.store.configuration().notifiers?.count == 2 && (try sandbox.store.configuration().watches?.count) == 2, "round \(round)")
            #expect(try sandbox.ok(["favorites", "list"]).stdout.components(separatedBy: "\n").filter { !$0.isEmpty }.count >= 3, "round \(round)")
        }
    }
}

extension PromiseTests {
    /// Every command that removes or clears something asks first on a terminal, and off one needs
    /// --yes: without it nothing in the store changes.
    @Test func everyDestructiveCommandAsksOrTakesYes() throws {
        let sandbox = try Sandbox().prepared()
        let id = try #require(try sandbox.scheduleIDs().first)
        let prom = sandbox.home + "-metrics.prom"
        defer { unlink(prom) }
        for setup in [
            ["place", "add", "home", "47.6,-122.3"], ["transit", "add", "metro", "--static", Paths.transit("metro-gtfs.zip")],
            ["calendar", "add", "work", "--ics", CalendarTests.calendar("work.ics"), "--route", "1"], ["export", "add", "prometheus", prom],
            ["notify", "add", "stdout"], ["watch", "add", "1", "--over", "9"], ["group", "add", "g", "--route", "1"],
            ["pause", "--until", "2025-11-07"], ["config", "set", "grace", "5m"], ["route", "add", "bus", "--transit", "metro", "--from-stop", "CH", "--to-stop", "2301"],
        ] {
            try sandbox.ok(setup)
        }
        let destructive: [[String]] = [
            ["export", "remove", "prometheus"], ["calendar", "remove", "work"], ["place", "remove", "home"], ["pause", "remove", "1"],
            ["pause", "clear"], ["config", "unset", "grace"], ["notify", "remove", "1"], ["watch", "remove", "1"], ["group", "remove", "g"],
            ["favorites", "remove", "96"], ["schedule", "remove", id], ["route", "remove", "bus"], ["delivered", "clear", "--all"],
            ["transit", "remove", "metro"],
        ]
        func files() throws -> [String: Data] {
            var contents: [String: Data] = [:]
            for name in try FileManager.default.contentsOfDirectory(atPath: sandbox.home) where !name.hasPrefix(".") && name.hasSuffix(".json") {
                contents[name] = sandbox.bytes(name)
            }
            return contents
        }
        for words in destructive {
            let before = try files()
            let refused = try sandbox.run(words)
            #expect(refused.status == 64 && refused.stderr.contains("Re-run with --yes to confirm."), "\(words): \(refused)")
            #expect(try files() == before, "\(words) changed the store without --yes")
        }
        for words in destructive { try sandbox.ok(words + ["--yes"]) }
        #expect(FileManager.default.fileExists(atPath: prom) == false)
    }
}
