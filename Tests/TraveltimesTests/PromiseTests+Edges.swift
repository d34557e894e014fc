import Foundation
import Glibc
import Testing
@_spi(Store) import CommuteCore
@_spi(Store) import CommuteStore

extension PromiseTests {
    /// A login page answering 200 in front of Home Assistant is no Home Assistant: the export is
    /// not added, and a refresh that meets it says so rather than count sensors sent.
    @Test func aWebPageAnswering200IsNotHomeAssistant() throws {
        let server = try SteeredServer(script: "homeassistant_server.py")
        let sandbox = try Sandbox().prepared()
        try server.steer(#"{"fault": "login"}"#)
        let refused = try sandbox.run(["export", "add", "homeassistant", server.base, "--token", "-"], stdin: "good-token\n")
        #expect(refused.status == 69 && Whole.normal(refused.stderr) == """
            traveltimes: export homeassistant (http://127.0.0.1:PORT): http://127.0.0.1:PORT answered with a web page, not Home Assistant's API (a login page or a proxy in front of it?): give the address Home Assistant itself answers at; the export was not added

            """, "\(refused)")
        #expect(sandbox.bytes("exports.json") == nil)
        #expect(try sandbox.store.configuration().exports == nil)
        // Added while it answered, then hidden behind the login page: the refresh warns.
        try server.steer("{}")
        #expect(try sandbox.run(["export", "add", "homeassistant", server.base, "--token", "-"], stdin: "good-token\n").status == 0)
        try server.steer(#"{"fault": "login"}"#)
        let slower = try sandbox.feed("slower") { routes in routes[96]?["CurrentTime"] = 29 }
        let warned = try sandbox.ok(["refresh", "--source", slower])
        #expect(Whole.normal(warned.stderr) == """
            traveltimes: warning: export homeassistant (http://127.0.0.1:PORT) failed: http://127.0.0.1:PORT answered with a web page, not Home Assistant's API (a login page or a proxy in front of it?): give the address Home Assistant itself answers at; tried again at the next run

            """, "\(warned)")
    }

    /// A command that re-plans rewrites the iCalendar file at once: a schedule added shows in a
    /// calendar that reads it now, not after the next refresh.
    @Test func aScheduleAddedIsInTheCalendarFileAtOnce() throws {
        let sandbox = try Sandbox().prepared()
        let ics = sandbox.home + "-leave.ics"
        defer { unlink(ics) }
        try sandbox.ok(["export", "add", "ics", ics])
        func events() throws -> Int { try String(contentsOfFile: ics, encoding: .utf8).components(separatedBy: "BEGIN:VEVENT").count - 1 }
        let before = try events()
        try sandbox.ok(["schedule", "add", "--at", "17:30", "--route", "1", "--days", "tue,wed"])
        #expect(try events() == before + 2)
        #expect(try String(contentsOfFile: ics, encoding: .utf8).contains("5:30 PM"))
        let id = try #require(try sandbox.scheduleIDs().last)
        try sandbox.ok(["schedule", "remove", id, "--yes"])
        #expect(try events() == before)
    }
}

extension PromiseTests {
    /// A calendar of 200,000 events in 16 MiB — all in the next fortnight, or over a year — is
    /// read within 100 MiB when added, at every refresh and by `calendar events`; past 20,000
    /// events near the window the rest are left out, and that is said.
    @Test(ExternalTool.gnuTime.needed) func aLargeCalendarIsReadInBoundedMemory() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("large-calendar-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for (name, days) in [("fortnight", 14), ("year", 365)] {
            var text = "BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:-//traveltimes//large//EN\n"
            let start = 1_762_362_000  // 2025-11-05T17:00:00Z
            let formatter = ISO8601DateFormatter()
            for index in 0..<200_000 {
                let stamp = formatter.string(from: Date(timeIntervalSince1970: TimeInterval(start + index * days * 86_400 / 200_000)))
                let compact = stamp.replacingOccurrences(of: "-", with: "").replacingOccurrences(of: ":", with: "")
                text += "BEGIN:VEVENT\nUID:\(index)\nDTSTART:\(compact)\nSUMMARY:Meeting \(String(format: "%06d", index))\nEND:VEVENT\n"
            }
            text += "END:VCALENDAR\n"
            let path = "\(directory)/\(name).ics"
            try Sandbox.write(path, Data(text.utf8))
            #expect(text.utf8.count > 15 * 1_048_576 && text.utf8.count <= 16 * 1_048_576, "\(text.utf8.count) bytes")
            let sandbox = Sandbox(runner: .binary)
            try sandbox.ok(["refresh", "--source", Paths.fixture, "--quiet"])
            let (added, addPeak) = try HostileFeedTests().measured(sandbox, ["calendar", "add", "big", "--ics", path, "--route", "1"])
            #expect(added.status == 0 && added.stdout.hasPrefix("Added calendar big (\(name).ics): 200000 events; 1000 departures by route 1 in the next 14 days.\n"), "\(added)")
            if name == "fortnight" {
                #expect(added.stdout.contains("more than 20000 events near the window; the rest are left out"), "\(added)")
            }
            let (refreshed, refreshPeak) = try HostileFeedTests().measured(sandbox, ["refresh", "--source", Paths.fixture, "--quiet"])
            #expect(refreshed.status == 0, "\(refreshed)")
            let (events, eventsPeak) = try HostileFeedTests().measured(sandbox, ["calendar", "events", "big"])
            #expect(events.status == 0 && events.stdout.contains("Meeting 000000"), "\(events.stdout.prefix(300))")
            for (what, peak) in [("add", addPeak), ("refresh", refreshPeak), ("events", eventsPeak)] {
                #expect(peak < 100, "\(name): calendar \(what) peaked at \(peak) MiB")
            }
        }
    }
}

extension PromiseTests {
    /// The README's way to start its stand-ins works as written, from a script with no terminal:
    /// every service answers, `crontab` and `systemctl` are the stand-ins, and the kill it names
    /// ends them all.
    @Test func theReadmesStandInsStartAndStopAsItSays() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("stand-ins-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let binaries = URL(fileURLWithPath: Paths.binary).deletingLastPathComponent().path
        let script = """
            eval "$(Tests/Support/stand_ins.sh '\(directory)')" 2>/dev/null || exit 9
            export PATH='\(binaries)':"$PATH" TRAVELTIMES_HOME='\(directory)/store'
            traveltimes config set contact me@example.org >/dev/null
            traveltimes route add drive --provider osrm --from 47.6205,-122.3493 --to 47.6101,-122.2015 --now 2026-11-24T06:00:00-08:00 | head -n 1
            traveltimes place add work --search "redmond town center" --geocoder transitous | head -n 1
            traveltimes install cron >/dev/null && crontab -l | head -n 1
            kill $TRAVELTIMES_STAND_INS
            """
        let outcome = try execute(["bash", "-c", script], environment: ["PATH": "/usr/bin:/bin", "HOME": directory, "STAND_IN_SECONDS": "60", "TRAVELTIMES_TZ": "America/Los_Angeles"], in: Paths.root.path)
        #expect(outcome.status == 0 && outcome.stdout == """
            Added route drive: 47.6205,-122.3493 → 47.6101,-122.2015 (OSRM): 17 min, a free-flow estimate from OSRM (no live traffic), 9.0 mi.
            Saved place work at 47.6712,-122.1185: Redmond Town Center, Redmond.
            # BEGIN traveltimes

            """, "\(outcome)")
        // Its addresses are this shell's: install says the one the route needs is not saved.
        #expect(outcome.stderr.contains("TRAVELTIMES_OSRM_URL is set only in this shell"), "\(outcome)")
        // Ended: no server of this directory is left.
        usleep(500_000)
        let left = try execute(["pgrep", "-f", directory], environment: ["PATH": "/usr/bin:/bin"], in: Paths.root.path)
        #expect(left.stdout.isEmpty, "\(left)")
    }
}

extension PromiseTests {
    /// A key in a transit URL's query is the secret, not the words of its path: `transit list`
    /// (its JSON keys too), `status` and `refresh` say "realtime", "alerts", "transit" and "stop"
    /// as they are, and never the key.
    @Test func aKeyInATransitURLIsRedactedAndTheWordsAroundItAreNot() throws {
        let server = try TransitServer()
        try server.serve(Paths.transit("metro-gtfs.zip"), as: "gtfs.zip")
        try server.serve(Paths.transit("realtime-0715.pb"), as: "tripupdates.pb")
        try server.serve(Paths.transit("alerts.pb"), as: "alerts.pb")
        let sandbox = Sandbox(runner: .binary)
        let added = try sandbox.run([
            "transit", "add", "metro", "--static", server.url("transit/stop/gtfs.zip?key=K3ySECRETa1"),
            "--realtime", server.url("realtime/tripupdates.pb?token=T0kSECRETb2"), "--alerts", server.url("alerts/alerts.pb?api_key=ApSECRETc3"),
            "--now", TransitTests.at("07:00"),
        ])
        #expect(added.status == 0, "\(added)")
        try sandbox.ok(["route", "add", "commute", "--transit", "metro", "--from-stop", "CH", "--to-stop", "2301", "--now", TransitTests.at("07:00")])
        var said = added.stdout + added.stderr
        for command in [["refresh"], ["transit", "list"], ["transit", "list", "--json"], ["status"], ["status", "--json"], ["route", "commute"], ["doctor"]] {
            let outcome = try sandbox.run(command + ["--now", TransitTests.at("07:15")])
            said += outcome.stdout + outcome.stderr
        }
        #expect(!said.contains("SECRET"), "\(said)")
        #expect(!said.contains("REDACTEDURL") && said.contains("realtimeURL") && said.contains("alertsURL"), "\(said)")
        #expect(said.contains("realtime read") && said.contains("Transit metro"), "\(said)")
        let listed = try #require(try sandbox.json(["transit", "list", "--json"]) as? [[String: Any]])
        let keys = Set((listed.first ?? [:]).keys)
        #expect(keys.isSuperset(of: ["realtimeURL", "alertsURL", "staticURL"]), "\(listed)")
    }
}

extension PromiseTests {
    /// Credentials stay secret in every form they take: a rejected URL setting's password and query
    /// are not repeated; `Basic base64(user:password)` quoted back by a server is redacted; a
    /// calendar's secret address quoted by a server's error page is too.
    @Test func credentialsAreNeverEchoedInAnyForm() throws {
        let sandbox = try Sandbox().prepared()
        for setting in ["transitous-url", "geocoder-url", "osrm-url", "valhalla-url", "here-url"] {
            let refused = try sandbox.run(["config", "set", setting, "ftp://ada:Pw0rdSECRET@example.org/x?token=T0kSECRET"])
            #expect(refused.status == 64 && refused.stderr == """
                traveltimes: Invalid \(setting) 'ftp://REDACTED@example.org/x?token=REDACTED': use an http(s) URL: a scheme, a host, perhaps a port and a path. See 'traveltimes config set --help'.

                """, "\(refused)")
        }
        let pasted = try sandbox.run(["config", "set", "osrm-url", "k3ySECRETpasted"])
        #expect(pasted.stderr == "traveltimes: Invalid osrm-url (not shown: it is no URL, and may be a key): use an http(s) URL: a scheme, a host, perhaps a port and a path. See 'traveltimes config set --help'.\n", "\(pasted)")
        // A server quoting back the address and the Basic credentials it was sent.
        let server = try TransitServer()
        let basic = Data("ada:Pw0rdSECRET".utf8).base64EncodedString()
        let calendar = try sandbox.run(["calendar", "add", "w", "--ics", "http://ada:Pw0rdSECRET@127.0.0.1:\(server.url("").split(separator: ":").last?.split(separator: "/").first ?? "")/echo/private-0a1b2c3d4e5f6a7b/basic.ics", "--route", "1"])
        #expect(calendar.status != 0 && !calendar.stderr.contains("SECRET") && !calendar.stderr.contains(basic) && !calendar.stderr.contains("0a1b2c3d4e5f6a7b"), "\(calendar)")
        #expect(calendar.stderr.contains("No calendar at") && calendar.stderr.contains("REDACTED"), "\(calendar)")
        try sandbox.ok(["notify", "add", "json://ada:Pw0rdSECRET@" + server.url("echo/hook").dropFirst("http://".count)])
        let sent = try sandbox.run(["notify", "test"])
        #expect(!sent.stderr.contains("SECRET") && !sent.stderr.contains(basic), "\(sent)")
    }
}

extension PromiseTests {
    /// An engine's route of 0 m taking 29 minutes routed nowhere: refused, nothing saved.
    @Test func aRouteOfNoLengthIsNoAnswer() throws {
        let server = try EngineServer()
        let sandbox = try FreeFlowTests().sandbox(server)
        try server.steer(#"{"fault": "nowhere"}"#)
        for provider in ["osrm", "valhalla"] {
            let refused = try sandbox.run(["route", "add", "x", "--provider", provider, "--from", "home", "--to", "work"])
            let name = provider == "osrm" ? "OSRM" : "Valhalla"
            #expect(refused.status != 0 && refused.stderr == "traveltimes: \(name) answered oddly: a route of 0 m taking 29 min, which no route between two points is; route x was not added\n", "\(refused)")
        }
        #expect(sandbox.bytes("routes.json") == nil)
    }

    /// A Home Assistant that hangs is asked by one tick, then left alone for five minutes: the
    /// ticks between do not wait on it; refresh still tries it every run.
    @Test func aHangingHomeAssistantIsNotAskedByEveryTick() throws {
        let server = try SteeredServer(script: "homeassistant_server.py")
        let sandbox = try Sandbox(runner: .binary).prepared()
        #expect(try sandbox.run(["export", "add", "homeassistant", server.base, "--token", "-"], stdin: "good-token\n").status == 0)
        try server.steer(#"{"fault": "hang"}"#)
        let slower = try sandbox.feed("slower") { routes in routes[96]?["CurrentTime"] = 29 }
        let failing = try sandbox.run(["refresh", "--source", slower, "--timeout", "2", "--now", "2025-11-04T16:10:00-08:00"])
        #expect(failing.stderr.contains("export homeassistant"), "\(failing)")
        let asked = server.entries().count
        // Within five minutes of that failure, ticks leave it alone.
        for minute in ["11", "12", "13", "14"] {
            _ = try sandbox.run(["tick", "--now", "2025-11-04T16:\(minute):00-08:00"])
        }
        #expect(server.entries().count == asked)
        // After the rest, a tick tries again; so does every refresh.
        _ = try sandbox.run(["tick", "--now", "2025-11-04T16:16:00-08:00"])
        #expect(server.entries().count == asked + 1)
        _ = try sandbox.run(["refresh", "--source", slower, "--timeout", "2", "--now", "2025-11-04T16:17:00-08:00"])
        #expect(server.entries().count == asked + 2)
    }
}

extension PromiseTests {
    /// Help and messages that say what to do: `help help`, a missing argument named, no route or
    /// day given, every provider in `route add --help`, no table that does not exist, the man
    /// page's FILES complete, the first help line true, systemctl's failure with what to check,
    /// and a weekday bus at the weekend saying when it runs again.
    @Test func helpAndMessagesSayWhatToDo() throws {
        let sandbox = try Sandbox().prepared()
        #expect(try sandbox.ok(["help", "help"]).stdout.hasPrefix("Usage: traveltimes help [COMMAND]\n"))
        let missing = try sandbox.run(["calendar", "remove"])
        #expect(missing.status == 64 && missing.stderr == "traveltimes: Missing NAME: traveltimes calendar remove NAME. See 'traveltimes calendar remove --help'.\n", "\(missing)")
        let noRoute = try sandbox.run(["group", "add", "g"])
        #expect(noRoute.status == 64 && noRoute.stderr.hasPrefix("traveltimes: No route given: name one or more with --route ID"), "\(noRoute)")
        let noDay = try sandbox.run(["schedule", "add", "--at", "7:00", "--route", "1", "--days", ""])
        #expect(noDay.status == 64 && noDay.stderr.contains("No day given: use --days weekdays, weekends, daily"), "\(noDay)")
        let routeHelp = try sandbox.ok(["route", "add", "--help"]).stdout
        #expect(routeHelp.contains("--provider NAME    tomtom, here, google (keys, live traffic); osrm, valhalla (no key, free-flow); transitous"), "\(routeHelp)")
        #expect(!(try sandbox.ok(["notify", "add", "--help"]).stdout.contains("channel table")))
        let manual = try sandbox.ok(["manpage"]).stdout
        for file in ["places.json", "calendars.json", #"calendar\-NAME.ics"#, "exports.json", "PROVIDER.pace"] {
            #expect(manual.contains(".I \(file)"), "the man page's FILES lacks \(file)")
        }
        #expect(!(try sandbox.ok(["--help"]).stdout.contains("freeway")))
        // systemctl failing says what it said and what to check.
        let programs = try StandInPrograms(sandbox)
        try programs.failSystemctl()
        let enabled = try sandbox.run(["install", "systemd", "--enable"])
        #expect(enabled.status == 69 && enabled.stderr.contains("it exited with status 1: Failed to connect to bus (is a user session running? `systemctl --user status` says; on a server, `loginctl enable-linger \"$USER\"` gives one)"), "\(enabled)")
        // The bundled bus feed runs on weekdays: on a Saturday it says when it runs again.
        let weekend = Sandbox()
        try weekend.ok(["transit", "add", "metro", "--static", Paths.transit("metro-gtfs.zip"), "--now", "2030-01-19T10:00:00-08:00"])
        let added = try weekend.ok(["route", "add", "bus", "--transit", "metro", "--from-stop", "CH", "--to-stop", "2301", "--now", "2030-01-19T10:00:00-08:00"])
        #expect(added.stdout.hasSuffix("Next: no departure in the next day and a half: its timetable has no service until Mon, Jan 21\n"), "\(added)")
    }
}
