import Foundation
import TestThreads
import Testing

/// Issue 50: commutes with several ways compared now, reliability from history, and leave times
/// planned to be on time P% of the recorded days — through the real binary, the figures checked
/// against Python's statistics over `history export`.
@Suite(.ownThreads) struct WaysTests {
    static let now = "2025-11-04T16:05:00-08:00"

    /// A store with the sample feed (or `feed`), routes 1 and 96 favorites, and `csv` imported.
    static func store(_ sandbox: Sandbox, feed: String = Paths.fixture, csv: String) throws {
        try sandbox.ok(["refresh", "--source", feed, "--now", Paths.capturedAt])
        try sandbox.ok(["favorites", "add", "1", "96"])
        try sandbox.ok(["history", "import", csv, "--now", now])
    }

    @Test func reliabilityAndOnTimeLeaveTimesEqualPythonsStatisticsOverAYearOfKnownReadings() throws {
        let sandbox = Sandbox(runner: .binary)
        let csv = sandbox.home + "-known.csv"
        defer { try? FileManager.default.removeItem(atPath: csv) }
        let generated = try execute(
            ["python3", Paths.root.appendingPathComponent("Tests/Support/known_history.py").path, Self.now], environment: ["PATH": "/usr/bin:/bin"])
        try #require(generated.status == 0, "\(generated)")
        try Sandbox.write(csv, Data(generated.stdout.utf8))
        try Self.store(sandbox, csv: csv)
        try sandbox.ok(["schedule", "add", "--arrive-by", "8:15", "--route", "1", "--now", Self.now])
        let onTime = try sandbox.ok(["schedule", "add", "--arrive-by", "9:00", "--buffer", "0", "--route", "96,1", "--on-time", "95%", "--now", Self.now])
        #expect(onTime.stdout.contains(", on time 95% of the time; next: leave Wed, Nov 5, 8:15 AM to arrive by 9:00 AM (on time 95%: 45 min on 49 recorded days)"), "\(onTime)")
        let json = try sandbox.ok(["reliability", "--json", "--now", Self.now]).stdout
        let export = sandbox.home + "-export.jsonl"
        let schedules = sandbox.home + "-schedules.json"
        defer {
            try? FileManager.default.removeItem(atPath: export)
            try? FileManager.default.removeItem(atPath: schedules)
        }
        try Sandbox.write(export, Data(try sandbox.ok(["history", "export", "--now", Self.now]).stdout.utf8))
        try Sandbox.write(schedules, Data("""
            [{"arrive": "08:15", "buffer": 5, "percent": null, "weekdays": [2, 3, 4, 5, 6], "routes": ["1"]},
             {"arrive": "09:00", "buffer": 0, "percent": 95, "weekdays": [2, 3, 4, 5, 6], "routes": ["96", "1"]}]
            """.utf8))
        let oracle = try execute(
            ["python3", Paths.root.appendingPathComponent("Tests/Support/reliability_oracle.py").path, export, schedules, Self.now, "America/Los_Angeles"],
            environment: ["PATH": "/usr/bin:/bin"])
        try #require(oracle.status == 0, "\(oracle)")
        // Each schedule's ways, route and days, compared whole with Python's.
        let mine = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
        let ways = mine.map { schedule in
            ((schedule["ways"] as? [[String: Any]]) ?? []).map { way in ["route": way["route"] ?? "", "days": way["days"] ?? []] as [String: Any] }
        }
        let expected = try JSONSerialization.jsonObject(with: Data(oracle.stdout.utf8))
        #expect(NSArray(array: ways).isEqual(expected), "reliability --json: \(json)\nPython: \(oracle.stdout)")
        // Planned to be on time 95% of the days, it was, on every weekday and way: and each
        // figure comes with its days.
        let onTimeWays = try #require(mine.last?["ways"] as? [[String: Any]])
        for way in onTimeWays {
            for day in (way["days"] as? [[String: Any]]) ?? [] {
                let days = try #require(day["days"] as? Int)
                let onTime = try #require(day["onTime"] as? Int)
                #expect(days >= 40 && Double(onTime) >= 0.95 * Double(days), "\(day)")
            }
        }
        // The median plan is late more often: reliability says so, in words, with the days.
        let text = try sandbox.ok(["reliability", "--now", Self.now]).stdout
        #expect(text.contains("    Monday     leave 7:23 AM: on time 36 of the last 50 Mondays (median 5.5 min to spare; latest 27 min late)"), "\(text)")
        #expect(text.contains("    Worst: Mondays leaving 7:23 AM, on time 36 of 50."), "\(text)")
    }

    /// Eight Tuesdays at 4:00 PM: route 1 usually 37 min, route 96 usually 44 (the usual time
    /// looks back 8 weeks from 4:05 PM: the first of them is just outside).
    static let usualTuesdays: String = {
        let days = [(9, 9, "-07:00"), (16, 9, "-07:00"), (23, 9, "-07:00"), (30, 9, "-07:00"), (7, 10, "-07:00"), (14, 10, "-07:00"), (21, 10, "-07:00"), (28, 10, "-07:00")]
        var lines = ["route,at,minutes,source,suspicious"]
        for (day, month, offset) in days {
            let at = String(format: "2025-%02d-%02dT16:00:00%@", month, day, offset)
            lines.append("1,\(at),37,wsdot,false")
            lines.append("96,\(at),44,wsdot,false")
        }
        return lines.joined(separator: "\n") + "\n"
    }()

    @Test func compareNamesTheWayTheNumbersChooseAndSaysByHowMuch() throws {
        let sandbox = Sandbox(runner: .binary)
        let csv = sandbox.home + "-usual.csv"
        defer { try? FileManager.default.removeItem(atPath: csv) }
        try Sandbox.write(csv, Data(Self.usualTuesdays.utf8))
        let feed = try sandbox.feed("slow-car") { routes in
            routes[1]?["CurrentTime"] = 55
            routes[96]?["CurrentTime"] = 42
        }
        try Self.store(sandbox, feed: feed, csv: csv)
        try sandbox.ok(["commute", "add", "work", "--routes", "96,1"])
        let compared = try sandbox.ok(["compare", "work", "--now", Self.now])
        #expect(compared.stdout == """
            work, Tue, Nov 4, 4:05 PM: Seattle-Bellevue via 90 42 min (usual 44); Everett-Seattle 55 min (+18 vs usual): take Seattle-Bellevue via 90, 13 min faster.
              Seattle-Bellevue via 90 (route 96): 42 min now (read 4:00 PM); usually 44 min at 4:00 PM on Tuesdays (7 readings on 7 days)
              Everett-Seattle (route 1): 55 min now (read 4:00 PM); usually 37 min at 4:00 PM on Tuesdays (7 readings on 7 days)

            """, "\(compared)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(try sandbox.ok(["compare", "work", "--json", "--now", Self.now]).stdout.utf8)) as? [String: Any])
        let best = try #require(json["best"] as? [String: Any])
        #expect(best["route"] as? String == "96" && best["marginMinutes"] as? Int == 13)
        let ways = try #require(json["ways"] as? [[String: Any]])
        #expect(ways.map { $0["route"] as? String } == ["96", "1"])
        #expect(ways.map { $0["usualDays"] as? Int } == [7, 7] && ways.map { $0["versusUsual"] as? Int } == [-2, 18])

        // An alert of a schedule on the commute says the same, in a line of its own.
        try sandbox.ok(["schedule", "add", "--at", "4:10pm", "--days", "tue", "--route", "1", "--now", Self.now])
        let alert = try sandbox.ok(["tick", "--now", "2025-11-04T16:10:20-08:00"]).stdout
        #expect(alert.contains("\nWhich way (work): Seattle-Bellevue via 90 42 min (usual 44); Everett-Seattle 55 min (+18 vs usual): take Seattle-Bellevue via 90, 13 min faster.\n"), "\(alert)")

        // Hours later the car's reading is stale: it competes with its usual time, said as such.
        let later = try sandbox.ok(["compare", "work", "--now", "2025-11-11T16:05:00-08:00"]).stdout
        #expect(later.hasPrefix("work, Tue, Nov 11, 4:05 PM: Seattle-Bellevue via 90 usually 44 min (no live time); Everett-Seattle usually 37 min (no live time): take Everett-Seattle, 7 min faster."), "\(later)")
    }

    @Test func commutesAreNamedCheckedListedAndRemovedAndADamagedOneIsRefused() throws {
        let sandbox = Sandbox()
        try sandbox.ok(["refresh", "--source", Paths.fixture, "--now", Paths.capturedAt])
        #expect(try sandbox.ok(["commute"]).stdout == "No commutes yet: add one with `traveltimes commute add NAME --routes drive,bus`.\n")
        #expect(try sandbox.ok(["commute", "add", "work", "--routes", "1,96"]).stdout == "Added commute 'work': 1, 96.\n")
        for (arguments, message) in [
            (["commute", "add", "WORK", "--routes", "4,70"], "traveltimes: A commute named 'WORK' already exists; pick another name or remove it with `traveltimes commute remove`\n"),
            (["commute", "add", "home", "--routes", "1"], "traveltimes: A commute has 2 to 8 ways (routes) to compare; 1 given\n"),
            (["commute", "add", "home", "--routes", "1,1"], "traveltimes: Route '1' is listed twice; name each route once\n"),
            (["commute", "add", "home", "--routes", "1,999999"], "traveltimes: Unknown route ID '999999': it is not in the route cache; see `traveltimes routes`\n"),
            (["compare", "nowhere"], "traveltimes: No commute is named 'nowhere', and no route has that ID; see `traveltimes commute list`\n"),
        ] {
            let outcome = try sandbox.run(arguments)
            #expect(outcome.status == 64 && outcome.stderr == message, "\(arguments): \(outcome)")
        }
        #expect(try sandbox.ok(["commute", "list"]).stdout == "work: 1 (Everett-Seattle), 96 (Seattle-Bellevue via 90)\n")
        let favorites = try #require(sandbox.bytes("favorites.json"))
        #expect(String(decoding: favorites, as: UTF8.self).contains("\"commutes\":[{\"name\":\"work\",\"routeIDs\":[\"1\",\"96\"]}]"))
        #expect(try sandbox.ok(["commute", "remove", "work"]).stdout == "Removed commute 'work'.\n")
        #expect(!String(decoding: try #require(sandbox.bytes("favorites.json")), as: UTF8.self).contains("commutes"))
        // A commute of one way, written by hand, is refused with the file and the reason.
        try Sandbox.write(sandbox.path("favorites.json"), Data(#"{"version":1,"routeIDs":[],"groups":[],"commutes":[{"name":"w","routeIDs":["1"]}]}"#.utf8))
        let damaged = try sandbox.run(["commute", "list"])
        #expect(damaged.status == 65 && damaged.stderr.contains("commutes[0].routeIDs holds 1 routes, not 2 to 8"), "\(damaged)")
    }

    @Test func onTimeWithoutEnoughHistoryFallsBackAndSaysSoAndBadValuesAreRefused() throws {
        let sandbox = Sandbox()
        try sandbox.ok(["refresh", "--source", Paths.fixture, "--now", Paths.capturedAt])
        try sandbox.ok(["favorites", "add", "1", "96"])
        let added = try sandbox.ok(["schedule", "add", "--arrive-by", "9:00", "--route", "1", "--on-time", "95%", "--now", Self.now])
        #expect(added.stdout.contains("on time 95% of the time; next: leave Wed, Nov 5, 8:21 AM to arrive by 9:00 AM (--on-time 95%: 0 recorded days of 5 needed; on today's times)"), "\(added)")
        let pending = try sandbox.ok(["pending", "--now", Self.now]).stdout
        #expect(pending.contains("Expected arrival 8:55 AM by Everett-Seattle (--on-time 95%: 0 recorded days of 5 needed; planned on today's times)"), "\(pending)")
        let reliability = try sandbox.ok(["reliability", "--now", Self.now]).stdout
        #expect(reliability.contains("    Monday     too few trips: 0 recorded Mondays, 5 needed"), "\(reliability)")
        for (arguments, message) in [
            (["schedule", "add", "--arrive-by", "9:00", "--route", "1", "--on-time", "120%"], "Invalid --on-time '120%'"),
            (["schedule", "add", "--at", "9:00", "--route", "1", "--on-time", "95%"], "--buffer, --heads-up and --on-time are for arrive-by schedules, not --at."),
            (["schedule", "add", "--route", "1", "--on-time", "95%"], "--buffer, --heads-up and --on-time are for arrive-by schedules: give --arrive-by TIME too."),
        ] {
            let outcome = try sandbox.run(arguments)
            #expect(outcome.status == 64 && outcome.stderr.contains(message), "\(arguments): \(outcome)")
        }
        let fixed = try sandbox.ok(["schedule", "add", "--at", "7:00", "--route", "1"]).stdout
        let id = String(fixed.dropFirst("Added schedule ".count).prefix(8))
        let refused = try sandbox.run(["reliability", id])
        #expect(refused.status == 64 && refused.stderr.contains("alerts at a time: reliability is for schedules that arrive by one (--arrive-by)"), "\(refused)")
    }

    @Test func theExportsCarryTheBestWayAndTheReliabilityFigure() throws {
        let server = try SteeredServer(script: "homeassistant_server.py")
        let sandbox = Sandbox(runner: .binary)
        let csv = sandbox.home + "-usual.csv"
        let metrics = sandbox.home + "-traveltimes.prom"
        defer {
            try? FileManager.default.removeItem(atPath: csv)
            try? FileManager.default.removeItem(atPath: metrics)
        }
        try Sandbox.write(csv, Data(try String(contentsOfFile: HistoryTests.sampleHistory, encoding: .utf8).utf8))
        try Self.store(sandbox, csv: csv)
        try sandbox.ok(["commute", "add", "north", "--routes", "1,96"])
        try sandbox.ok(["schedule", "add", "--arrive-by", "9:00", "--route", "1", "--now", Self.now])
        let id = try #require(try sandbox.scheduleIDs().first).prefix(8)
        try sandbox.ok(["export", "add", "prometheus", metrics, "--now", Self.now])
        let text = try String(contentsOfFile: metrics, encoding: .utf8)
        #expect(text.contains("""
            # HELP traveltimes_commute_best_way 1 for the way of each commute that is best now, 0 for the others that compete.
            # TYPE traveltimes_commute_best_way gauge
            traveltimes_commute_best_way{commute="north",route="1"} 0
            traveltimes_commute_best_way{commute="north",route="96"} 1
            # HELP traveltimes_schedule_on_time_ratio How often an arrive-by schedule's planned leave time arrived on time over the recorded days, by way (0 to 1).
            # TYPE traveltimes_schedule_on_time_ratio gauge
            traveltimes_schedule_on_time_ratio{schedule="\(id)",route="1"} 1
            traveltimes_schedule_on_time_ratio{schedule="\(id)",route="96"} 1
            # HELP traveltimes_schedule_recorded_trips The recorded trips (one a day) behind traveltimes_schedule_on_time_ratio.
            # TYPE traveltimes_schedule_recorded_trips gauge
            traveltimes_schedule_recorded_trips{schedule="\(id)",route="1"} 40
            traveltimes_schedule_recorded_trips{schedule="\(id)",route="96"} 40
            """), "\(text)")
        // The calendar feed's planned departure says it too, in its description.
        let ics = sandbox.home + "-leave.ics"
        defer { try? FileManager.default.removeItem(atPath: ics) }
        try sandbox.ok(["export", "add", "ics", ics, "--now", Self.now])
        let unfolded = try String(contentsOfFile: ics, encoding: .utf8).replacingOccurrences(of: "\r\n ", with: "")
        #expect(unfolded.contains(
            "\\nWhich way (north): Everett-Seattle 34 min (usual 33)\\; Seattle-Bellevue via 90 14 min (usual 18): take Seattle-Bellevue via 90\\, 20 min faster."
                + "\\nOn time by Everett-Seattle: 40 of the last 40 recorded days\\nOn time by Seattle-Bellevue via 90: 40 of the last 40 recorded days\r\n"),
            "\(unfolded)")
        let added = try sandbox.run(["export", "add", "homeassistant", server.base, "--token", "-", "--now", Self.now], stdin: "good-token\n")
        #expect(added.status == 0, "\(added)")
        let bodies = server.entries().compactMap { $0["body"] as? String }
        #expect(bodies.first == #"{"state":"34","attributes":{"unit_of_measurement":"min","device_class":"duration","friendly_name":"Everett-Seattle","route":"1","typical":33,"status":"CLEAR","updated":"2025-11-04T16:00:00-08:00","next_leave":"2025-11-05T08:21:00-08:00","best_way":{"commute":"north","route":"96","name":"Seattle-Bellevue via 90","margin_minutes":20},"on_time":{"schedule":"\#(id)","on_time":40,"days":40}}}"#, "\(bodies)")
    }

    @Test func aFreeFlowEstimateIsShownAsOneAndNeverWinsOnItsOwn() throws {
        let server = try EngineServer()
        let sandbox = try FreeFlowTests().sandbox(server)
        let at = "2026-11-24T06:00:00-08:00"
        try sandbox.ok(["route", "add", "drive", "--provider", "osrm", "--from", "home", "--to", "work", "--now", at])
        try sandbox.ok(["route", "add", "drive2", "--provider", "valhalla", "--from", "home", "--to", "work", "--now", at])
        // The same places: `compare drive` finds the other way unnamed; neither has a time to
        // compare, and neither wins on its estimate.
        #expect(try sandbox.ok(["compare", "drive", "--now", at]).stdout.hasPrefix(
            "home → work (OSRM), Tue, Nov 24, 6:00 AM: home → work (OSRM) ~17 min (free-flow estimate, no traffic; no usual time yet); "
                + "home → work (Valhalla) ~17 min (free-flow estimate, no traffic; no usual time yet): no way has a live or usual time to compare.\n"))
        // With seven Tuesdays of history at 6:00, drive competes with its usual time, said as such.
        let csv = sandbox.home + "-drive.csv"
        defer { try? FileManager.default.removeItem(atPath: csv) }
        let days = ["2026-10-06T06:00:00-07:00", "2026-10-13T06:00:00-07:00", "2026-10-20T06:00:00-07:00", "2026-10-27T06:00:00-07:00",
                    "2026-11-03T06:00:00-08:00", "2026-11-10T06:00:00-08:00", "2026-11-17T06:00:00-08:00"]
        try Sandbox.write(csv, Data((["route,at,minutes,source,suspicious"] + days.map { "drive,\($0),25,osrm,false" }).joined(separator: "\n").utf8))
        try sandbox.ok(["history", "import", csv, "--now", at])
        let compared = try sandbox.ok(["compare", "drive", "--now", at]).stdout
        #expect(compared.hasPrefix(
            "home → work (OSRM), Tue, Nov 24, 6:00 AM: home → work (OSRM) usually 25 min (no live time; free-flow estimate 17); "
                + "home → work (Valhalla) ~17 min (free-flow estimate, no traffic; no usual time yet): only home → work (OSRM) has a live or usual time.\n"), "\(compared)")
    }

    /// A car route and a transit route between the same places are ways of one commute unnamed:
    /// an alert of a schedule on the car route puts the bus beside it. (A WSDOT route's HOV twin is
    /// not: the sample feed's alerts on route 1, compared whole in `UnattendedTests` and others,
    /// carry no such line; `compare 1` shows the twins.)
    @Test func aCarAndABusBetweenTheSamePlacesAreComparedInTheCarsAlertUnnamed() throws {
        let transitous = try TransitousServer()
        let engines = try EngineServer()
        let sandbox = try TransitousTests().prepared(transitous)
        sandbox.environment.merge(engines.environment) { _, new in new }
        try sandbox.ok(["route", "add", "drive", "--provider", "osrm", "--from", "home", "--to", "work", "--now", "2026-11-24T06:00:00-08:00"])
        try sandbox.ok(["favorites", "add", "drive", "bus"])
        try sandbox.ok(["notify", "add", "stdout"])
        try sandbox.ok(["schedule", "add", "--at", "8:00", "--route", "drive", "--days", "weekdays", "--now", "2026-11-24T06:00:00-08:00"])
        // The bus is no schedule's, but it is a way of the car's commute, whose alert is due: it is
        // asked with it.
        let refreshed = try sandbox.ok(["refresh", "--now", "2026-11-24T07:58:00-08:00"])
        #expect(refreshed.stdout == """
            Fetched 1 custom route: bus 40 min (Transitous); 5 alerts scheduled (cap 64).
            Kept 1 custom route as it was (1 free-flow estimate asked today).

            """, "\(refreshed)")
        // The car's estimate is shown as one and does not compete; the bus's live time does.
        let alert = try sandbox.ok(["tick", "--now", "2026-11-24T08:00:00-08:00"]).stdout
        #expect(alert == """
            Commute at 8:00 AM (Weekdays)
            home → work (OSRM): 28 min (free-flow estimate from OSRM, no live traffic)
            Which way (home → work (OSRM)): home → work (OSRM) ~28 min (free-flow estimate, no traffic; no usual time yet); \
            home → work (Transitous) 40 min (no usual time yet): only home → work (Transitous) has a live or usual time.


            """, "\(alert)")
        // The exports say it too: the Prometheus textfile names the best way of the car's commute.
        let prom = sandbox.home + "-ways.prom"
        defer { try? FileManager.default.removeItem(atPath: prom) }
        try sandbox.ok(["export", "add", "prometheus", prom, "--now", "2026-11-24T08:00:00-08:00"])
        let metrics = try String(contentsOfFile: prom, encoding: .utf8).components(separatedBy: "\n").filter { $0.contains("commute_best_way") }
        // (The car's free-flow estimate does not compete: no 0 for it.)
        #expect(metrics == [
            "# HELP traveltimes_commute_best_way 1 for the way of each commute that is best now, 0 for the others that compete.",
            "# TYPE traveltimes_commute_best_way gauge",
            #"traveltimes_commute_best_way{commute="home → work (OSRM)",route="bus"} 1"#,
        ], "\(metrics)")
        // Named together, they are that commute's, under its name, and not again unnamed.
        try sandbox.ok(["commute", "add", "work", "--routes", "bus,drive"])
        try sandbox.ok(["schedule", "add", "--at", "8:05", "--route", "drive", "--days", "weekdays", "--now", "2026-11-24T08:00:00-08:00"])
        let named = try sandbox.ok(["tick", "--now", "2026-11-24T08:05:00-08:00"]).stdout
        #expect(named.components(separatedBy: "\n").filter { $0.hasPrefix("Which way") } == [
            "Which way (work): home → work (Transitous) 40 min (no usual time yet); home → work (OSRM) ~28 min (free-flow estimate, no traffic; no usual time yet): only home → work (Transitous) has a live or usual time."
        ], "\(named)")
    }
}
