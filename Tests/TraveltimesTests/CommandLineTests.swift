@_spi(Store) import CommuteCore
import Foundation
import TestThreads
import Testing

@Suite(.ownThreads) struct HelpAndUsageTests {
    @Test func bareCommandVersionAndHelp() throws {
        let sandbox = Sandbox()
        let bare = try sandbox.ok([])
        #expect(bare.stdout == """
            traveltimes \(TraveltimesVersion.expected) — commute alerts with travel times as they are now: by car or by bus, anywhere\u{A}\u{A}Usage: traveltimes <command> [options]\u{A}\u{A}Try:   traveltimes demo\u{A}Help:  traveltimes --help, or traveltimes <command> --help\u{A}
            """)
        #expect(try sandbox.ok(["--version"]).stdout == "traveltimes \(TraveltimesVersion.expected)\n")
        let help = try sandbox.ok(["--help"]).stdout
        for name in ["refresh", "routes", "favorites add", "schedule add", "pending", "status", "demo"] {
            #expect(help.contains("  \(name) "), "\(name) missing from --help")
        }
        #expect(try sandbox.ok(["help", "schedule", "add"]).stdout.hasPrefix("Usage: traveltimes schedule add"))
    }

    @Test func everyCommandHasTruthfulHelp() throws {
        let sandbox = Sandbox()
        for name in try listedCommands(sandbox) {
            let words = name.split(separator: " ").map(String.init)
            let outcome = try sandbox.ok(words + ["--help"])
            #expect(outcome.stdout.hasPrefix("Usage: traveltimes \(name)"), "\(name)")
            #expect(outcome.stdout.contains("-h, --help"))
        }
    }

    @Test func typosGetDidYouMean() throws {
        let sandbox = Sandbox()
        let command = try sandbox.run(["shedule", "list"])
        #expect(command.status == 64)
        #expect(command.stderr == "traveltimes: Unknown command 'shedule'. Did you mean 'schedule'? See 'traveltimes --help'.\n")
        let sub = try sandbox.run(["schedule", "ad"])
        #expect(sub.status == 64)
        #expect(sub.stderr == "traveltimes: Unknown command 'schedule ad'. Did you mean 'schedule add'? 'schedule' has: add, list, show, edit, enable, disable, remove.\n")
        let flag = try sandbox.run(["routes", "--serch", "x"])
        #expect(flag.status == 64)
        #expect(flag.stderr == "traveltimes: Unknown option '--serch' for 'routes'. Did you mean '--search'? See 'traveltimes routes --help'.\n")
        let missing = try sandbox.run(["schedule", "add", "--at"])
        #expect(missing.status == 64 && missing.stderr == "traveltimes: '--at' needs a value: --at TIME. See 'traveltimes schedule add --help'.\n")
        let extra = try sandbox.run(["pending", "now"])
        #expect(extra.status == 64 && extra.stderr == "traveltimes: Unexpected argument 'now'. See 'traveltimes pending --help'.\n")
        let twice = try sandbox.run(["schedule", "add", "--at", "7:00", "--at", "8:00"])
        #expect(twice.status == 64 && twice.stderr == "traveltimes: '--at' was given more than once. See 'traveltimes schedule add --help'.\n")
    }

    @Test func badEnvironmentAndNowAreUsageErrors() throws {
        let sandbox = Sandbox()
        let zone = try sandbox.run(["pending"], environment: ["TRAVELTIMES_TZ": "Mars/Olympus"])
        #expect(zone.status == 64 && zone.stderr == "traveltimes: Unknown time zone 'Mars/Olympus' in TRAVELTIMES_TZ: use an IANA name such as America/Los_Angeles. See 'traveltimes pending --help'.\n")
        let now = try sandbox.run(["pending", "--now", "tomorrow"])
        #expect(now.status == 64 && now.stderr == "traveltimes: Invalid --now 'tomorrow': use ISO 8601, such as 2025-11-04T07:00:00-08:00. See 'traveltimes pending --help'.\n")
        let cap = try sandbox.run(["pending"], environment: ["TRAVELTIMES_CAP": "lots"])
        #expect(cap.status == 64 && cap.stderr == "traveltimes: Invalid TRAVELTIMES_CAP 'lots': use a whole number from 1 to 10000. See 'traveltimes pending --help'.\n")
    }

    /// Every command `--help` lists is run for real at least once, successfully.
    /// `--now`, else `TRAVELTIMES_NOW`, else the real clock — which a test reaches only by asking.
    @Test func theClockIsNowThenTheVariableThenTheRealOne() throws {
        let sandbox = try Sandbox().prepared()
        let evening = ["TRAVELTIMES_NOW": "2025-11-04T18:00:00-08:00"]
        #expect(Whole.normal(try sandbox.ok(["route", "1"], environment: evening).stdout) == """
            Everett-Seattle (route 1)  * favorite
              Everett to Downtown Seattle
              From:     I-5 @ 41st St in Everett, road 005, heading S, milepost 192.55
              To:       I-5 @ University St in Seattle, road 005, heading S, milepost 165.83
              Distance: 26.7 mi
              Now:      34 min (usually 45 min)
              Delay:    -11 min, CLEAR
              Arrive:   6:34 PM if you leave now
              Updated:  4:00 PM (2 h ago)
              stale: the data is 2 h old; run `traveltimes refresh`
              Schedules:
                $ID  7:00 AM on Weekdays

            """)
        #expect(try sandbox.ok(["route", "1", "--now", "2025-11-04T16:30:00-08:00"], environment: evening).stdout
            .contains("\n  Updated:  4:00 PM (30 min ago)\n"))
        let bad = try sandbox.run(["route", "1"], environment: ["TRAVELTIMES_NOW": "yesterday"])
        #expect(bad.status == 64 && bad.stdout.isEmpty, "\(bad)")
        #expect(bad.stderr.hasPrefix("traveltimes: Invalid TRAVELTIMES_NOW 'yesterday': use ISO 8601, such as 2025-11-04T07:00:00-08:00."))
        let far = try sandbox.run(["route", "1"], environment: ["TRAVELTIMES_NOW": "10000-01-01T00:00:00Z"])
        #expect(far.status == 64, "\(far)")
        // A hostile value is quoted without its control and format characters.
        let hostile = try sandbox.run(["route", "1"], environment: ["TRAVELTIMES_NOW": "\u{1B}[31mX\u{202E}"])
        #expect(hostile.status == 64 && hostile.stderr.hasPrefix("traveltimes: Invalid TRAVELTIMES_NOW '\u{FFFD}[31mX\u{FFFD}'"), "\(hostile)")
        // This test needs the real clock, and says so.
        sandbox.useTheRealClock()
        let real = try sandbox.ok(["route", "1"]).stdout
        let days = try #require(real.firstMatch(of: /\((\d+) days ago\)/).flatMap { Int($0.1) }, "\(real)")
        let captured = try #require(ISO8601.parse(Paths.capturedAt)?.instant)
        let expected = Int(Date().timeIntervalSince(captured) / 86_400)
        #expect(abs(days - expected) <= 1, "\(days) days ago, expected about \(expected)")
    }

    @Test func everyListedCommandRuns() throws {
        let sandbox = try Sandbox().prepared()
        let standIns = try StandInPrograms(sandbox)
        let id = try #require(try sandbox.scheduleIDs().first)
        let now = Paths.capturedAt
        let samples: [String: [String]] = [
            "refresh": ["refresh", "--source", Paths.fixture, "--now", now],
            "routes": ["routes", "--search", "everett", "--now", now],
            "route": ["route", "1", "--now", now],
            "route add": ["route", "add", "home-work", "--from", "47.6062,-122.3321", "--to", "47.6101,-122.2015", "--provider", "here", "--no-check"],
            "transit add": ["transit", "add", "metro", "--static", Paths.transit("metro-gtfs.zip")],
            "transit list": ["transit", "list"],
            "transit stops": ["transit", "stops", "metro", "--search", "capitol"],
            "transit remove": ["transit", "remove", "metro", "--yes"],
            "route edit": ["route", "edit", "home-work", "--name", "Home to work"],
            "route remove": ["route", "remove", "home-work", "--yes"],
            "brief": ["brief", "--now", now],
            "group add": ["group", "add", "commute", "--route", "1"],
            "group list": ["group", "list"],
            "group edit": ["group", "edit", "commute", "--route", "1,4"],
            "group remove": ["group", "remove", "commute", "--yes"],
            "pause": ["pause", "--until", "2025-11-07", "--reason", "away", "--now", now],
            "pause list": ["pause", "list", "--now", now],
            "pause remove": ["pause", "remove", "1", "--yes", "--now", now],
            "pause clear": ["pause", "clear", "--yes", "--now", now],
            "favorites list": ["favorites"],
            "favorites add": ["favorites", "add", "70"],
            "favorites move": ["favorites", "move", "96", "--to", "1"],
            "favorites remove": ["favorites", "remove", "70", "--yes", "--now", now],
            "schedule add": ["schedule", "add", "--at", "16:45", "--days", "mon,wed,fri", "--route", "96", "--now", now],
            "schedule list": ["schedule", "list"],
            "schedule show": ["schedule", "show", String(id.prefix(6)), "--now", now],
            "schedule edit": ["schedule", "edit", id, "--at", "7:15", "--now", now],
            "schedule disable": ["schedule", "disable", id, "--now", now],
            "schedule enable": ["schedule", "enable", id, "--now", now],
            "schedule remove": ["schedule", "remove", id, "--yes", "--now", now],
            "pending": ["pending", "--now", now],
            "tick": ["tick", "--now", now],
            "test": ["test", "--delay", "0", "--now", now],
            "delivered": ["delivered"],
            "delivered clear": ["delivered", "clear", "--all", "--yes"],
            "notify add": ["notify", "add", "stdout"],
            "notify list": ["notify", "list"],
            "notify remove": ["notify", "remove", "1", "--yes"],
            "notify test": ["notify", "test"],
            "watch add": ["watch", "add", "70", "--over", "10"],
            "watch list": ["watch", "list"],
            "watch remove": ["watch", "remove", "70", "--yes"],
            "history import": ["history", "import", HistoryTests.sampleHistory],
            "history": ["history", "1"],
            "history export": ["history", "export", "--csv"],
            "best-time": ["best-time", "1", "96", "--arrive-by", "9:00"],
            "status": ["status", "--now", now],
            "doctor": ["doctor", "--now", now],
            "config show": ["config", "show"],
            "config set": ["config", "set", "source", Paths.fixture],
            "config unset": ["config", "unset", "source", "--yes"],
            "demo": ["demo"],
            "completions": ["completions", "bash"],
            "install systemd": ["install", "systemd"],
            "uninstall systemd": ["uninstall", "systemd", "--yes"],
            "install cron": ["install", "cron"],
            "uninstall cron": ["uninstall", "cron", "--yes"],
            "manpage": ["manpage"],
            "place add": ["place", "add", "home", "47.6097,-122.3422"],
            "place list": ["place", "list"],
            "place remove": ["place", "remove", "home", "--yes"],
            "calendar add": ["calendar", "add", "work", "--ics", CalendarTests.calendar("work.ics"), "--route", "1", "--now", now],
            "calendar list": ["calendar", "list"],
            "calendar events": ["calendar", "events", "work", "--now", now],
            "calendar remove": ["calendar", "remove", "work", "--yes", "--now", now],
            "export add": ["export", "add", "prometheus", sandbox.home + "-traveltimes.prom", "--now", now],
            "export list": ["export", "list"],
            "export remove": ["export", "remove", "prometheus", "--yes"],
            "commute add": ["commute", "add", "north", "--routes", "1,96"],
            "commute list": ["commute", "list"],
            "compare": ["compare", "1", "--now", now],
            "reliability": ["reliability", "--now", now],
            "commute remove": ["commute", "remove", "north"],
        ]
        for name in try listedCommands(sandbox) {
            guard let words = samples[name] else {
                Issue.record("`\(name)` is listed by --help but no end-to-end test runs it")
                continue
            }
            if name == "doctor" {
                // Nothing runs tick in this sandbox: doctor says so, and exits 1.
                let doctor = try sandbox.run(words)
                #expect(doctor.status == 1 && Whole.normal(doctor.stdout) == """
                    ok       store         $TMP: readable and writable
                    problem  source        not set
                                           → traveltimes config set source URL (the WSDOT URL, or a file's full path)
                    ok       time zone     America/Los_Angeles (saved)
                    ok       schedules     1 enabled; 3 alerts pending, the next Wed, Nov 5, 4:45 PM
                    ok       refresh       last success 4:00 PM (0 min ago)
                    ok       data          Commute at 4:45 PM (Mon, Wed, Fri) would carry travel times measured 4:00 PM (0 min ago)
                    ok       fetch helper  libcurl loads: ready
                    ok       notifier      none configured: alerts go to stdout, which cron mails
                    problem  scheduler     nothing runs refresh and tick
                                           → traveltimes install systemd --enable (or traveltimes install cron)

                    Alerts will not go out until the problems above are fixed.

                    """, "\(doctor)")
                continue
            }
            try sandbox.ok(words)
        }
        // uninstall systemd reloaded systemd, through the stand-in.
        #expect(standIns.log().contains("--user daemon-reload"))
    }

}

enum TraveltimesVersion {
    static let expected = "0.4.0"
}

@Suite(.ownThreads) struct RefreshTests {
    @Test func refreshSavesTheFeedAndSaysSo() throws {
        let sandbox = Sandbox()
        let outcome = try sandbox.ok(["refresh", "--source", Paths.fixture, "--now", Paths.capturedAt])
        #expect(outcome.stdout == "Refreshed 163 routes from \(Paths.fixture) (3 without data); 0 alerts scheduled (cap 64).\n")
        #expect(try sandbox.store.routes().routes.count == 163)
        // The source may come from the environment.
        try sandbox.ok(["refresh"], environment: ["TRAVELTIMES_SOURCE": Paths.fixture])
    }

    /// The source is chosen one way for `refresh` and `status`: an empty TRAVELTIMES_SOURCE is no
    /// source for both (status used to show it as an empty source).
    @Test func refreshAndStatusChooseTheSourceAlike() throws {
        let sandbox = Sandbox()
        try sandbox.ok(["config", "set", "source", Paths.fixture])
        let saved = try #require(try sandbox.json(["status", "--json"]) as? [String: Any])
        #expect(saved["source"] as? String == Paths.fixture)
        let fromShell = try #require(try sandbox.json(["status", "--json"], environment: ["TRAVELTIMES_SOURCE": "/srv/feed.json"]) as? [String: Any])
        #expect(fromShell["source"] as? String == "/srv/feed.json")
        let empty = try #require(try sandbox.json(["status", "--json"], environment: ["TRAVELTIMES_SOURCE": ""]) as? [String: Any])
        #expect(empty["source"] == nil || empty["source"] is NSNull, "\(empty)")
        let refresh = try sandbox.run(["refresh"], environment: ["TRAVELTIMES_SOURCE": ""])
        #expect(refresh.status == 64 && refresh.stderr == "traveltimes: No feed source and no custom routes: pass --source URL|FILE, set TRAVELTIMES_SOURCE, run `traveltimes config set source https://wsdot.wa.gov/Traffic/api/TravelTimes/TravelTimesREST.svc/GetTravelTimesAsJson`, add a route of your own with `traveltimes route add`, or a transit feed with `traveltimes transit add`. See 'traveltimes refresh --help'.\n", "\(refresh)")
    }

    @Test func withoutASourceItSaysHowToGiveOne() throws {
        let outcome = try Sandbox().run(["refresh"])
        #expect(outcome.status == 64)
        #expect(outcome.stderr == "traveltimes: No feed source and no custom routes: pass --source URL|FILE, set TRAVELTIMES_SOURCE, run `traveltimes config set source https://wsdot.wa.gov/Traffic/api/TravelTimes/TravelTimesREST.svc/GetTravelTimesAsJson`, add a route of your own with `traveltimes route add`, or a transit feed with `traveltimes transit add`. See 'traveltimes refresh --help'.\n")
    }

    @Test func aMissingFileIsUnavailable() throws {
        let outcome = try Sandbox().run(["refresh", "--source", "/nonexistent/feed.json"])
        #expect(outcome.status == 69)
        #expect(outcome.stderr == "traveltimes: refresh failed: cannot read feed /nonexistent/feed.json: no such file; no routes are cached yet\n")
    }

    @Test(arguments: [
        ("[]", "the feed has no routes"),
        ("[{\"TravelTimeID\": 1", "not valid JSON"),
        ("<html><head><title>Request Error</title></head></html>", "not valid JSON"),
        ("{\"error\": \"nope\"}", "not a WSDOT travel-times array"),
        ("[{\"Description\": \"" + String(repeating: "x", count: 300_000) + "\"}]", "route #1 in the feed cannot be read: it is over 256 KiB"),
    ])
    func aBadFeedChangesNothing(body: String, reason: String) throws {
        let sandbox = try Sandbox().prepared()
        let routes = sandbox.bytes("routes.json")
        let pending = sandbox.bytes("pending.json")
        let feed = sandbox.path("bad-feed.json")
        try Sandbox.write(feed, Data(body.utf8))
        let outcome = try sandbox.run(["refresh", "--source", feed])
        #expect(outcome.status == 65)
        #expect(outcome.stderr.contains(reason), "\(outcome)")
        #expect(sandbox.bytes("routes.json") == routes)
        #expect(sandbox.bytes("pending.json") == pending)
    }

    @Test func aLargeFeedIsSavedWholeAndOneBrokenAtTheEndChangesNothing() throws {
        let sandbox = try Sandbox().prepared()
        let fixture = try WSDOTFeed.decode(Data(contentsOf: URL(fileURLWithPath: Paths.fixture)))
        let routes = (1...3_000).map { index in
            var route = fixture[index % fixture.count]
            route.id = "\(index)"
            return route
        }
        let feed = sandbox.path("large-feed.json")
        let body = try WSDOTFeed.encode(routes)
        try Sandbox.write(feed, body)
        let saved = try sandbox.run(["refresh", "--source", feed])
        #expect(saved.status == 0, "\(saved)")
        #expect(Whole.normal(saved.stdout) == "Refreshed 3000 routes from $TMP/large-feed.json (56 without data); 5 alerts scheduled (cap 64).\n", "\(saved)")
        let listed = try sandbox.run(["routes", "--json"])
        let objects = try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]]
        #expect(objects?.count == 3_000)
        #expect(objects?.last?["id"] as? String == "3000")

        // The same feed with its last route broken: 2,999 routes were read and written before it.
        let before = sandbox.bytes("routes.json")
        let pending = sandbox.bytes("pending.json")
        try Sandbox.write(feed, Data(String(decoding: body, as: UTF8.self).replacingOccurrences(of: #""TravelTimeID":3000"#, with: #""TravelTimeID":"3000""#).utf8))
        let refused = try sandbox.run(["refresh", "--source", feed])
        #expect(refused.status == 65, "\(refused)")
        #expect(refused.stderr == "traveltimes: refresh failed: route #3000 in the feed cannot be read: TravelTimeID has the wrong type (expected a number, found a string); keeping routes updated at 4:00 PM (0 min ago)\n", "\(refused)")
        #expect(sandbox.bytes("routes.json") == before)
        #expect(sandbox.bytes("pending.json") == pending)
        #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.home).filter { $0.contains(".tmp-") }.isEmpty)
    }

    @Test func aFeedCanBePipedInThroughDevStdin() throws {
        let sandbox = Sandbox()
        let feed = String(decoding: try Data(contentsOf: URL(fileURLWithPath: Paths.fixture)), as: UTF8.self)
        let outcome = try sandbox.run(["refresh", "--source", "/dev/stdin"], stdin: feed)
        #expect(outcome.status == 0, "\(outcome)")
        #expect(outcome.stdout == "Refreshed 163 routes from /dev/stdin (3 without data); 0 alerts scheduled (cap 64).\n", "\(outcome)")
        let truncated = try sandbox.run(["refresh", "--source", "/dev/stdin"], stdin: String(feed.prefix(70_000)))
        #expect(truncated.status == 65, "\(truncated)")
        #expect(truncated.stderr == "traveltimes: refresh failed: the feed is not valid JSON: unexpected end of data (the array is not closed) at byte 70000; keeping routes updated at 4:00 PM (0 min ago)\n", "\(truncated)")
    }

    @Test func theStaleContentTrapPendingShowsTheLatestFeed() throws {
        let sandbox = Sandbox()
        let now = Paths.capturedAt
        try sandbox.ok(["refresh", "--source", Paths.fixture, "--now", now])
        try sandbox.ok(["favorites", "add", "1"])
        try sandbox.ok(["schedule", "add", "--at", "4:30 PM", "--days", "tue", "--now", now])
        #expect(Whole.normal(try sandbox.ok(["pending", "--now", now]).stdout) == """
            1 alert scheduled (cap 64); 0 deferred.

            Tue, Nov 4, 4:30 PM  Commute at 4:30 PM (Tue)
                Everett-Seattle: 34 min (-11 min, CLEAR)
                id schedule.$UUID.weekday.3

            """)

        var routes = try WSDOTFeed.decode(Data(contentsOf: URL(fileURLWithPath: Paths.fixture)))
        if let index = routes.firstIndex(where: { $0.id == "1" }) { routes[index].currentMinutes = 64 }
        let feedB = sandbox.path("feed-b.json")
        try Sandbox.write(feedB, try WSDOTFeed.encode(routes))
        try sandbox.ok(["refresh", "--source", feedB, "--now", now])
        let pending = try sandbox.ok(["pending", "--now", now]).stdout
        #expect(Whole.normal(pending) == """
            1 alert scheduled (cap 64); 0 deferred.

            Tue, Nov 4, 4:30 PM  Commute at 4:30 PM (Tue)
                Everett-Seattle: 64 min (+19 min, CONGESTED)
                id schedule.$UUID.weekday.3

            """)
        #expect(!pending.contains("34 min"))
    }

    @Test func vanishedFavoritesStayAndShowAsUnavailable() throws {
        let sandbox = try Sandbox().prepared()
        var routes = try WSDOTFeed.decode(Data(contentsOf: URL(fileURLWithPath: Paths.fixture)))
        routes.removeAll { $0.id == "96" }
        let feed = sandbox.path("without-96.json")
        try Sandbox.write(feed, try WSDOTFeed.encode(routes))
        let outcome = try sandbox.ok(["refresh", "--source", feed, "--now", Paths.capturedAt])
        #expect(outcome.stderr == "traveltimes: warning: favorite 96 is not in this feed: it stays a favorite and shows as unavailable\n")
        let favorites = try sandbox.ok(["favorites"]).stdout
        #expect(favorites == """
            1.   1  Everett-Seattle  34 min (-11 min, CLEAR)
            2.  96  Route 96         unavailable (not in the latest feed)
            3.   4  Seattle-Everett  48 min (-9 min, CLEAR)

            """)
        #expect(Whole.normal(try sandbox.ok(["pending", "--now", Paths.capturedAt]).stdout) == """
            5 alerts scheduled (cap 64); 0 deferred.

            Wed, Nov 5, 7:00 AM  Commute at 7:00 AM (Weekdays)
                Everett-Seattle: 34 min (-11 min, CLEAR)
                Route 96: unavailable (not in the latest feed)
                Seattle-Everett: 48 min (-9 min, CLEAR)
                Data is 15 h old (updated Tue, Nov 4, 4:00 PM)
                id schedule.$UUID.weekday.4

            Thu, Nov 6, 7:00 AM  Commute at 7:00 AM (Weekdays)
                Everett-Seattle: 34 min (-11 min, CLEAR)
                Route 96: unavailable (not in the latest feed)
                Seattle-Everett: 48 min (-9 min, CLEAR)
                Data is 39 h old (updated Tue, Nov 4, 4:00 PM)
                id schedule.$UUID.weekday.5

            Fri, Nov 7, 7:00 AM  Commute at 7:00 AM (Weekdays)
                Everett-Seattle: 34 min (-11 min, CLEAR)
                Route 96: unavailable (not in the latest feed)
                Seattle-Everett: 48 min (-9 min, CLEAR)
                Data is 2 days old (updated Tue, Nov 4, 4:00 PM)
                id schedule.$UUID.weekday.6

            Mon, Nov 10, 7:00 AM  Commute at 7:00 AM (Weekdays)
                Everett-Seattle: 34 min (-11 min, CLEAR)
                Route 96: unavailable (not in the latest feed)
                Seattle-Everett: 48 min (-9 min, CLEAR)
                Data is 5 days old (updated Tue, Nov 4, 4:00 PM)
                id schedule.$UUID.weekday.2

            Tue, Nov 11, 7:00 AM  Commute at 7:00 AM (Weekdays)
                Everett-Seattle: 34 min (-11 min, CLEAR)
                Route 96: unavailable (not in the latest feed)
                Seattle-Everett: 48 min (-9 min, CLEAR)
                Data is 6 days old (updated Tue, Nov 4, 4:00 PM)
                id schedule.$UUID.weekday.3

            """)
    }
}
