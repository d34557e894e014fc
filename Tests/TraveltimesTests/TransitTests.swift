@_spi(Store) import CommuteCore
@_spi(Store) import CommuteStore
import Foundation
import TestThreads
import Testing

@Suite(.serialized, .ownThreads) struct TransitTests {
    /// 2030-01-15, a Tuesday, in Seattle's zone: the sample feed's morning.
    static func at(_ time: String) -> String { "2030-01-15T\(time):00-08:00" }

    /// A store with the sample agency served on loopback (its timetable, the 7:15 realtime feed,
    /// the alerts), the trip Capitol Hill → Redmond Technology Station with a 6-minute walk, a
    /// favorite, and an arrive-by 8:45 schedule with 3 minutes to spare (its bus arrives by 8:42).
    func commuter(_ server: TransitServer) throws -> Sandbox {
        let sandbox = Sandbox(runner: .binary)
        try server.serve(Paths.transit("metro-gtfs.zip"), as: "gtfs.zip")
        try server.serve(Paths.transit("realtime-0715.pb"), as: "tripupdates.pb")
        try server.serve(Paths.transit("alerts.pb"), as: "alerts.pb")
        // The key on standard input, out of argv.
        let added = try sandbox.run([
            "transit", "add", "metro", "--static", server.url("key/gtfs.zip"), "--realtime", server.url("key/tripupdates.pb"),
            "--alerts", server.url("alerts.pb"), "--header", "-", "--now", Self.at("07:00"),
        ], stdin: "X-Api-Key: sekrit-key-42\n")
        #expect(added.status == 0, "\(added)")
        try sandbox.ok(["route", "add", "commute", "--transit", "metro", "--from-stop", "CH", "--to-stop", "2301", "--walk", "6m",
            "--name", "Capitol Hill to Redmond", "--now", Self.at("07:00")])
        try sandbox.ok(["favorites", "add", "commute"])
        try sandbox.ok(["schedule", "add", "--route", "commute", "--arrive-by", "8:45", "--buffer", "3m", "--heads-up", "off",
            "--days", "weekdays", "--now", Self.at("07:00")])
        return sandbox
    }

    /// The morning as the issue tells it: the planned 7:57 runs late and the leave time moves
    /// later; then it is cancelled, and the alert leaves for the 7:42, says why, and goes out.
    @Test func aSimulatedMorningMovesTheLeaveAlertAndSaysWhy() throws {
        let server = try TransitServer()
        let sandbox = try commuter(server)
        let pending = try sandbox.ok(["pending", "--now", Self.at("07:00")]).stdout
        #expect(Whole.normal(pending) == """
            5 alerts scheduled (cap 64); 0 deferred.

            Tue, Jan 15, 7:51 AM  Leave now for the 545 to Redmond at 7:57 AM to arrive by 8:45 AM
                Capitol Hill to Redmond: the 545 to Redmond at 7:57 AM from Capitol Hill Station, arriving Redmond Technology Station at 8:35 AM; walk 6 min first
                Timetable times: no live data
                id schedule.$UUID.weekday.3

            Wed, Jan 16, 7:51 AM  Leave now for the 545 to Redmond at 7:57 AM to arrive by 8:45 AM
                Capitol Hill to Redmond: the 545 to Redmond at 7:57 AM from Capitol Hill Station, arriving Redmond Technology Station at 8:35 AM; walk 6 min first
                Timetable times: no live data
                Data is 24 h old (updated Tue, Jan 15, 7:00 AM)
                id schedule.$UUID.weekday.4

            Thu, Jan 17, 7:58 AM  Leave now to arrive by 8:45 AM
                Capitol Hill to Redmond: departures not worked out yet (a refresh works them out a day and a half ahead)
                Expected arrival 8:42 AM by Capitol Hill to Redmond
                Data is 2 days old (updated Tue, Jan 15, 7:00 AM)
                id schedule.$UUID.weekday.5

            Fri, Jan 18, 7:58 AM  Leave now to arrive by 8:45 AM
                Capitol Hill to Redmond: departures not worked out yet (a refresh works them out a day and a half ahead)
                Expected arrival 8:42 AM by Capitol Hill to Redmond
                Data is 3 days old (updated Tue, Jan 15, 7:00 AM)
                id schedule.$UUID.weekday.6

            Mon, Jan 21, 7:58 AM  Leave now to arrive by 8:45 AM
                Capitol Hill to Redmond: departures not worked out yet (a refresh works them out a day and a half ahead)
                Expected arrival 8:42 AM by Capitol Hill to Redmond
                Data is 6 days old (updated Tue, Jan 15, 7:00 AM)
                id schedule.$UUID.weekday.2

            """, "\(pending)")
        // 7:15: the 7:57 runs 4 minutes late; the leave time follows it.
        let refresh = try sandbox.ok(["refresh", "--now", Self.at("07:15")])
        #expect(refresh.stdout == "Transit metro: timetable kept; realtime read; 1 route planned.\n", "\(refresh)")
        let late = try sandbox.ok(["pending", "--now", Self.at("07:15")]).stdout
        #expect(late.contains("""
            Tue, Jan 15, 7:55 AM  Leave now for the 545 to Redmond at 8:01 AM to arrive by 8:45 AM
                Capitol Hill to Redmond: the 545 to Redmond at 8:01 AM (+4 min) from Capitol Hill Station, arriving Redmond Technology Station at 8:39 AM; walk 6 min first
                Service alert: Capitol Hill Bay 2 has moved 20 m north for construction
            """), "\(late)")
        // 7:30: it is cancelled; the 7:42 (a minute late) is the last to arrive in time.
        try server.serve(Paths.transit("realtime-0730.pb"), as: "tripupdates.pb")
        try sandbox.ok(["refresh", "--quiet", "--now", Self.at("07:30")])
        #expect(try sandbox.ok(["tick", "--now", Self.at("07:36")]).stdout.isEmpty)
        let alert = try sandbox.ok(["tick", "--now", Self.at("07:37")]).stdout
        #expect(alert == """
            Leave now for the 545 to Redmond at 7:43 AM to arrive by 8:45 AM
            The 7:57 AM is cancelled: take the 7:43 AM
            Capitol Hill to Redmond: the 545 to Redmond at 7:43 AM (+1 min) from Capitol Hill Station, arriving Redmond Technology Station at 8:21 AM; walk 6 min first
            Service alert: Capitol Hill Bay 2 has moved 20 m north for construction


            """, "\(alert)")
        // Every request for the agency's files carried its key.
        let keyed = server.requests().filter { $0.path.hasPrefix("/key/") }
        #expect(!keyed.isEmpty && keyed.allSatisfy { $0.headers["X-Api-Key"] == "sekrit-key-42" && $0.status != 401 })
    }

    /// `route ID` now: the next departures as text and as JSON, a late bus kept past its
    /// scheduled time, and the timetable said to be the timetable when there is no live data.
    @Test func theNextDeparturesAsTextAndJSON() throws {
        let server = try TransitServer()
        let sandbox = try commuter(server)
        try sandbox.ok(["refresh", "--now", Self.at("07:15")])
        let text = try sandbox.ok(["route", "commute", "--now", Self.at("07:54")]).stdout
        #expect(text.contains(
            "  Next:     545 to Redmond: 8:01 AM (+4 min), then 8:05 AM (timetable) (542 to Redmond TC), 8:12 AM (timetable); walk 6 min: leave by 7:55 AM\n"),
            "\(text)")
        let json = try #require(try sandbox.json(["route", "commute", "--json", "--now", Self.at("07:58")]) as? [String: Any])
        let departures = try #require(json["departures"] as? [[String: Any]])
        // 7:58: the 7:57 left the timetable a minute ago, but runs 4 late: still the first.
        let first = try #require(departures.first)
        #expect(first as NSDictionary == [
            "trip": "545-0757", "line": "545", "headsign": "Redmond", "scheduled": "2030-01-15T07:57:00-08:00",
            "predicted": "2030-01-15T08:01:00-08:00", "delayMinutes": 4, "canceled": false, "skipped": false,
            "arrival": "2030-01-15T08:39:00-08:00",
        ] as NSDictionary)
        let second = try #require(departures.dropFirst().first)
        #expect(second["predicted"] is NSNull && second["delayMinutes"] is NSNull && second["trip"] as? String == "542-0805")
        let transit = try #require(json["transit"] as? [String: Any])
        #expect(transit["fromStop"] as? String == "CH" && transit["walkMinutes"] as? Int == 6 && json["source"] as? String == "transit")
        // Each refresh that reads live data records the door-to-door time (walk, ride, delay),
        // dated by the feed: the same feed read again is not a second reading.
        try sandbox.ok(["refresh", "--now", Self.at("07:16")])
        let history = try #require(try sandbox.json(["history", "commute", "--json", "--now", Self.at("07:58")]) as? [String: Any])
        let readings = try #require(history["readings"] as? [[String: Any]])
        #expect(readings as NSArray == [
            ["at": "2030-01-15T07:15:00-08:00", "minutes": 44, "source": "transit", "suspicious": false] as NSDictionary,
        ] as NSArray)
        #expect(history["recorded"] as? Bool == true)
        let export = try sandbox.ok(["history", "export", "--csv"]).stdout
        #expect(export == "route,at,minutes,source,suspicious\ncommute,2030-01-15T07:15:00-08:00,44,transit,false\n", "\(export)")
        // Without a realtime feed, the timetable says so: never "on time".
        let plain = Sandbox(runner: .binary)
        try plain.ok(["transit", "add", "metro", "--static", Paths.transit("metro-gtfs.zip"), "--now", Self.at("07:00")])
        let added = try plain.ok(["route", "add", "bus", "--transit", "metro", "--from-stop", "1201", "--to-stop", "2301", "--line", "545",
            "--now", Self.at("07:00")]).stdout
        #expect(added.hasSuffix("Next: 545 to Redmond: 7:12 AM, then 7:27 AM, 7:42 AM; leave by 7:12 AM; timetable times, no live data\n"), "\(added)")
        // Timetable times are not readings: its history waits for live data, and says so.
        try plain.ok(["favorites", "add", "bus"])
        try plain.ok(["refresh", "--now", Self.at("07:15")])
        let empty = try plain.ok(["history", "bus", "--now", Self.at("07:16")]).stdout
        #expect(empty.hasSuffix("0 readings recorded; usual times from the last 8 weeks, America/Los_Angeles\nNo readings yet: each refresh that reads the feed's realtime data records one.\n"), "\(empty)")
    }

    /// The timetable is asked for at most daily, with its validators: an unchanged one costs a
    /// 304 and is kept; a new one is read and replaces it. The realtime feed is read every time.
    @Test func theTimetableIsFetchedAtMostDailyWithValidators() throws {
        let server = try TransitServer()
        let sandbox = try commuter(server)
        try sandbox.ok(["refresh", "--now", Self.at("07:15")])
        try sandbox.ok(["refresh", "--now", Self.at("07:20")])
        #expect(server.requests().filter { $0.path == "/key/gtfs.zip" }.count == 1)
        #expect(server.requests().filter { $0.path == "/key/tripupdates.pb" }.count == 2)
        // A day on, yesterday's realtime feed is too old to use: said, and exit 75.
        let nextDay = try sandbox.run(["refresh", "--now", "2030-01-16T07:10:00-08:00"])
        #expect(nextDay.status == 75 && nextDay.stdout == "Transit metro: timetable unchanged; no realtime data; 1 route planned.\n", "\(nextDay)")
        #expect(nextDay.stderr == """
            traveltimes: warning: metro's realtime feed is from Tue, Jan 15, 7:15 AM, over 15 min ago: not used\u{A}traveltimes: transit feed metro not fully refreshed (see the warnings); what was there is kept\u{A}
            """, "\(nextDay)")
        let conditional = try #require(server.requests().last { $0.path == "/key/gtfs.zip" })
        #expect(conditional.status == 304 && conditional.headers["If-None-Match"]?.hasPrefix("\"") == true)
        // A new timetable (the DST one, which does not serve the route's stops) is refused whole:
        // the old one is kept, and the route's departures with it.
        let dst = FileManager.default.temporaryDirectory.appendingPathComponent("dst-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dst) }
        _ = try execute(["python3", Paths.root.appendingPathComponent("Tests/Support/transit_dst.py").path, dst], environment: [:])
        try server.serve(dst + "/dst.zip", as: "gtfs.zip")
        let refused = try sandbox.run(["refresh", "--now", "2030-01-17T07:10:00-08:00"])
        #expect(refused.status == 75 && refused.stderr == """
            traveltimes: warning: metro's realtime feed is from Tue, Jan 15, 7:15 AM, over 15 min ago: not used\u{A}traveltimes: warning: metro's new timetable does not serve route commute: stops.txt has no stop CH; the old one is kept\u{A}traveltimes: transit feed metro not fully refreshed (see the warnings); what was there is kept\u{A}
            """,
            "\(refused)")
        let kept = try sandbox.ok(["route", "commute", "--now", "2030-01-17T07:10:00-08:00"]).stdout
        #expect(Whole.normal(kept) == """
            Capitol Hill to Redmond (route commute)  * favorite
              Capitol Hill Station → Redmond Technology Station (542, 545)
              From:     Capitol Hill Station (stop CH)
              To:       Redmond Technology Station (stop 2301)
              Source:   transit feed metro, any line
              Next:     545 to Redmond: 7:27 AM, then 7:35 AM (542 to Redmond TC), 7:42 AM; walk 6 min: leave by 7:21 AM; timetable times, no live data (metro's realtime feed is from Tue, Jan 15, 7:15 AM, over 15 min ago: not used)
              Service alert: Capitol Hill Bay 2 has moved 20 m north for construction
              Trip:     44 min (walk 6 min, then the ride; timetable 44 min)
              Delay:    unknown: timetable times, no live data
              Arrive:   8:05 AM if you leave now
              Updated:  7:10 AM (0 min ago)
              Schedules:
                $ID  Arrive by 8:45 AM on Weekdays

            """, "\(kept)")
    }

    /// Both clock changes, through the binary: a trip crossing midnight, one of the service day
    /// before, and one in the hour skipped or repeated, against instants from zoneinfo.
    @Test func bothDaylightSavingDaysMatchTheSpecificationsRule() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("dst-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        _ = try execute(["python3", Paths.root.appendingPathComponent("Tests/Support/transit_dst.py").path, out], environment: [:])
        let cases = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/expected.json"))) as? [[String: Any]])
        #expect(cases.count == 7)
        let sandbox = Sandbox(runner: .binary)
        try sandbox.ok(["transit", "add", "owl", "--static", out + "/dst.zip", "--now", "2025-03-01T12:00:00Z"])
        try sandbox.ok(["route", "add", "owl-bus", "--transit", "owl", "--from-stop", "F", "--to-stop", "T", "--now", "2025-03-01T12:00:00Z"])
        let parser = ISO8601DateFormatter()
        for test in cases {
            let now = try #require(test["now"] as? String)
            try sandbox.ok(["refresh", "--now", now])
            let json = try #require(try sandbox.json(["route", "owl-bus", "--json", "--now", now]) as? [String: Any])
            let got = try #require(json["departures"] as? [[String: Any]]).prefix(4).map { departure in
                [departure["trip"] as? String ?? "",
                 (departure["scheduled"] as? String).flatMap(parser.date).map(parser.string) ?? "",
                 (departure["arrival"] as? String).flatMap(parser.date).map(parser.string) ?? ""]
            }
            let expected = try #require(test["departures"] as? [[String: String]]).map { [$0["trip"] ?? "", $0["scheduled"] ?? "", $0["arrival"] ?? ""] }
            #expect(got == expected, "at \(now)")
        }
    }

    /// A transit route is a route like any other: a delay watch fires when its bus is cancelled,
    /// a smart fixed-time alert goes out only when the next bus is late or cancelled, and
    /// removing it takes it out of favorites and schedules.
    @Test func aTransitRouteIsARouteLikeAnyOther() throws {
        let server = try TransitServer()
        let sandbox = try commuter(server)
        try sandbox.ok(["schedule", "add", "--route", "commute", "--at", "7:45", "--days", "weekdays", "--only-when-delayed", "5",
            "--now", Self.at("07:00")])
        try sandbox.ok(["watch", "add", "commute", "--over", "10"])
        try sandbox.ok(["config", "set", "stale-after", "off"])
        // 7:15: four minutes late is under the watch's ten: no watch alert.
        let early = try sandbox.ok(["refresh", "--now", Self.at("07:15")])
        #expect(!early.stdout.contains("cancelled") && !early.stdout.contains("running"), "\(early)")
        // 7:40: the 7:57 is cancelled: the watch fires after the refresh (stdout is its notifier)...
        try server.serve(Paths.transit("realtime-0730.pb"), as: "tripupdates.pb")
        let watched = try sandbox.ok(["refresh", "--now", Self.at("07:40")])
        #expect(watched.stdout == """
            Transit metro: timetable kept; realtime read; 1 route planned.\u{A}Capitol Hill to Redmond: the 7:57 AM 545 to Redmond is cancelled (+15 min to arrive)\u{A}Capitol Hill to Redmond: 545 to Redmond: 7:57 AM CANCELLED, then 8:05 AM (timetable) (542 to Redmond TC), 8:12 AM (timetable), 8:27 AM (timetable); walk 6 min: leave by 7:59 AM\u{A}Service alert: Capitol Hill Bay 2 has moved 20 m north for construction\u{A}\u{A}
            """, "\(watched)")
        // ...and the smart alert at 7:45 goes out, leading with it (after the arrive-by alert
        // of 7:34, still within the grace window).
        let smart = try sandbox.ok(["tick", "--now", Self.at("07:45")]).stdout
        #expect(smart.contains("""
            Delay: Capitol Hill to Redmond +15 min (7:45 AM alert)
            Capitol Hill to Redmond: 545 to Redmond: 7:57 AM CANCELLED, then 8:05 AM (timetable) (542 to Redmond TC), 8:12 AM (timetable), 8:27 AM (timetable); walk 6 min: leave by 7:59 AM
            """), "\(smart)")
        try sandbox.ok(["route", "remove", "commute", "--yes"])
        #expect(try sandbox.store.favorites().routeIDs.isEmpty)
        #expect(try sandbox.store.schedules().schedules.isEmpty)
        #expect(try sandbox.ok(["transit", "remove", "metro", "--yes"]).stdout == "Removed transit feed metro.\n")
    }

    /// `status` and `doctor` know the feeds: a store with transit alone has a source, a refresh
    /// that read a feed counts as one, a feed's problem is a warning naming it, and a relative path
    /// (which timers and cron, running elsewhere, would miss) is kept as a full one.
    @Test func statusAndDoctorKnowTheFeeds() throws {
        let sandbox = Sandbox(runner: .binary)
        let realtime = sandbox.home + "-tripupdates.pb"
        defer { try? FileManager.default.removeItem(atPath: realtime) }
        try FileManager.default.copyItem(atPath: Paths.transit("realtime-0715.pb"), toPath: realtime)
        // Given relative to the directory the command runs in.
        let added = try execute(
            [Paths.binary, "transit", "add", "metro", "--static", "Fixtures/transit/metro-gtfs.zip", "--realtime", realtime, "--now", Self.at("07:00")],
            environment: sandbox.environment, in: Paths.root.path)
        #expect(added.status == 0 && added.stdout == """
            Added transit feed metro: 6 stops, 2 lines, 28 trips in America/Los_Angeles, from Fixtures/transit/metro-gtfs.zip; realtime read at every refresh.\u{A}Find your stops: traveltimes transit stops metro --search NAME\u{A}
            """, "\(added)")
        #expect(try sandbox.store.configuration().transitFeeds?.first?.staticURL == Paths.transit("metro-gtfs.zip"))
        try sandbox.ok(["config", "set", "timezone", "America/Los_Angeles"])
        try sandbox.ok(["route", "add", "commute", "--transit", "metro", "--from-stop", "CH", "--to-stop", "2301", "--now", Self.at("07:00")])
        try sandbox.ok(["favorites", "add", "commute"])
        try sandbox.ok(["schedule", "add", "--route", "commute", "--arrive-by", "8:45", "--days", "weekdays", "--now", Self.at("07:00")])
        try sandbox.ok(["refresh", "--now", Self.at("07:15")])
        let status = try sandbox.ok(["status", "--now", Self.at("07:16")]).stdout
        #expect(Whole.normal(status) == """
            Store:      $TMP
            Time zone:  America/Los_Angeles (saved)
            Routes:     1 (0 without data), updated 7:15 AM (1 min ago)
            Last try:   7:15 AM: transit feeds: 1 read
            Source:     not set (transit feeds only)
            Transit:    metro, 1 route; timetable checked 7:00 AM; realtime read 7:15 AM
            Favorites:  1
            Schedules:  1 (1 enabled)
            Pending:    5 scheduled (cap 64), 0 deferred; planned 7:15 AM
            Installed:  nothing runs refresh and tick: `traveltimes install systemd` or `traveltimes install cron`

            """, "\(status)")
        let json = try JSONSerialization.jsonObject(with: Data(try sandbox.ok(["status", "--json", "--now", Self.at("07:16")]).stdout.utf8))
        let feeds = try #require((json as? [String: Any])?["transit"] as? [[String: Any]])
        #expect(feeds.count == 1 && feeds[0]["routes"] as? [String] == ["commute"] && feeds[0]["problems"] as? [String] == [])
        func doctor(_ time: String) throws -> [String] {
            try sandbox.run(["doctor", "--now", Self.at(time)]).stdout.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ") }
        }
        let fine = try doctor("07:16")
        #expect(fine.contains("ok source none: 1 transit feed only"), "\(fine)")
        #expect(fine.contains("ok refresh last success 7:15 AM (1 min ago)"), "\(fine)")
        #expect(fine.contains("ok transit metro 1 route; timetable checked 7:00 AM"), "\(fine)")
        // Twenty minutes on, the same realtime feed is stale: refused, and said.
        #expect(try sandbox.run(["refresh", "--quiet", "--now", Self.at("07:35")]).status == 75)
        let stale = try doctor("07:36")
        #expect(stale.contains(
            "warning transit metro 1 route; timetable checked 7:00 AM; at the last refresh: metro's realtime feed is from 7:15 AM, over 15 min ago: not used"),
            "\(stale)")
        #expect(Whole.normal(try sandbox.ok(["status", "--now", Self.at("07:36")]).stdout) == """
            Store:      $TMP
            Time zone:  America/Los_Angeles (saved)
            Routes:     1 (0 without data), updated timetable only
            Last try:   7:35 AM: metro's realtime feed is from 7:15 AM, over 15 min ago: not used
            Source:     not set (transit feeds only)
            Transit:    metro, 1 route; timetable checked 7:00 AM; realtime read 7:15 AM; 1 problem (`traveltimes transit list`)
            Favorites:  1
            Schedules:  1 (1 enabled)
            Pending:    5 scheduled (cap 64), 0 deferred; planned 7:35 AM
            Installed:  nothing runs refresh and tick: `traveltimes install systemd` or `traveltimes install cron`

            """)
        // A relative path written by hand is a problem for timers and cron.
        try sandbox.store.updateConfiguration { configuration in configuration.transitFeeds?[0].staticURL = "gtfs.zip" }
        #expect(try doctor("07:36").contains("problem transit metro its static gtfs.zip is a relative path, and timers and cron run elsewhere"))
    }
}
