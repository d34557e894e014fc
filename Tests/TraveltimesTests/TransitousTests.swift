import Foundation
import TestThreads
import Testing

/// The loopback stand-in for Transitous (plan, geocode) and Nominatim (search): see
/// `Tests/Support/transitous_server.py`.
final class TransitousServer: SteeredServer, @unchecked Sendable {
    init() throws { try super.init(script: "transitous_server.py") }

    var environment: [String: String] { ["TRAVELTIMES_TRANSITOUS_URL": base, "TRAVELTIMES_NOMINATIM_URL": base] }

    struct Request {
        var path: String
        var query: [String: String]
        var userAgent: String
        var at: Double
    }

    func requests() -> [Request] {
        entries().map { object in
            Request(
                path: object["path"] as? String ?? "", query: object["query"] as? [String: String] ?? [:],
                userAgent: object["userAgent"] as? String ?? "", at: object["at"] as? Double ?? 0)
        }
    }
}

@Suite(.ownThreads) struct TransitousTests {
    static let attribution =
        "Transit data: Transitous (transitous.org/sources) · map data © OpenStreetMap contributors (openstreetmap.org/copyright)\n"
    static let nominatim = "Search by Nominatim · map data © OpenStreetMap contributors (openstreetmap.org/copyright)\n"

    /// A store with the stand-in, the places home and work found by name, and the route bus.
    func prepared(_ server: TransitousServer) throws -> Sandbox {
        let sandbox = Sandbox()
        sandbox.environment.merge(server.environment) { _, new in new }
        sandbox.environment["TRAVELTIMES_TZ"] = "America/Los_Angeles"
        try sandbox.ok(["config", "set", "contact", "me@example.org"])
        // These show a planner's answer moving an alert refresh by refresh: asked every
        // min-interval while in play. When the request plan asks is `AskPlanTests`' subject.
        try sandbox.ok(["config", "set", "plan-requests", "off"])
        try sandbox.ok(["place", "add", "home", "--search", "Pike Place Market", "--now", "2026-11-24T06:00:00-08:00"])
        try sandbox.ok(["place", "add", "work", "--search", "redmond town center", "--geocoder", "transitous", "--now", "2026-11-24T06:00:00-08:00"])
        try sandbox.ok(["route", "add", "bus", "--provider", "transitous", "--from", "home", "--to", "work", "--now", "2026-11-24T06:00:00-08:00"])
        return sandbox
    }

    @Test func placesAreFoundOnceByNameAndAnAmbiguousOneIsChosen() throws {
        let server = try TransitousServer()
        let sandbox = Sandbox()
        sandbox.environment.merge(server.environment) { _, new in new }
        let found = try sandbox.ok(["place", "add", "home", "--search", "Pike Place Market"])
        #expect(found.stdout == "Saved place home at 47.6097,-122.3422: Pike Place Market, 85, Pike Street, Seattle, King County, Washington, 98101, United States.\n" + Self.nominatim)
        let ambiguous = try sandbox.run(["place", "add", "office", "--search", "main street"])
        #expect(ambiguous.status == 1)
        #expect(ambiguous.stdout == """
            Nominatim found 3 places for "main street"; nothing saved:
              1. Main Street, Seattle, Washington, United States (47.601,-122.33)
              2. Main Street, Portland, Oregon, United States (45.52,-122.67)
              3. Main Street, New York, United States (40.71,-74.006)

            """ + Self.nominatim)
        #expect(ambiguous.stderr == "traveltimes: several places match; nothing was saved: choose one with `traveltimes place add office --search \"main street\" --pick N`\n")
        // The choice is made from the answer kept: the service is not asked again.
        let picked = try sandbox.ok(["place", "add", "office", "--search", "main street", "--pick", "2"])
        #expect(picked.stdout == "Saved place office at 45.52,-122.67: Main Street, Portland, Oregon, United States (found before; not asked again).\n" + Self.nominatim)
        #expect(server.requests().filter { $0.path == "/search" }.count == 2)
        try sandbox.ok(["place", "add", "gym", "47.6,-122.3"])
        #expect(try sandbox.ok(["place", "list"]).stdout == """
            home    47.6097,-122.3422  Pike Place Market, 85, Pike Street, Seattle, King County, Washington, 98101, United States
            office  45.52,-122.67  Main Street, Portland, Oregon, United States
            gym     47.6,-122.3

            """)
        let json = try #require(try sandbox.json(["place", "list", "--json"]) as? [[String: Any]])
        #expect(json.map { $0["name"] as? String } == ["home", "office", "gym"])
        #expect(json.map { $0["source"] as? String } == ["nominatim", "nominatim", "coordinates"])
        #expect(json[2]["label"] is NSNull)
        // Every request names the application, its version and — with no contact set — no made-up
        // address, only this install's own token (the services limit per User-Agent: one shared by every
        // install would throttle them all together).
        let agents = Set(server.requests().map(\.userAgent))
        #expect(agents.count == 1, "\(agents)")
        #expect(agents.allSatisfy { $0.range(of: #"^traveltimes/0\.4\.0 \(install [0-9a-f]{1,8}\)$"#, options: .regularExpression) != nil }, "\(agents)")
        let missing = try sandbox.run(["route", "add", "x", "--provider", "transitous", "--from", "nowhere", "--to", "gym"])
        #expect(missing.status == 64)
        #expect(missing.stderr == "traveltimes: no place called nowhere (see `traveltimes place list`)\n")
        #expect(try sandbox.ok(["place", "remove", "gym", "--yes"]).stdout == "Removed place gym; routes added with it keep their points.\n")
        // A places.json whose label would drive the terminal is refused, naming the file, and left as it is.
        let hostile = #"{"version":1,"places":[{"name":"x","latitude":1,"longitude":2,"label":"\u001b[2Jgone","source":"nominatim"}],"searches":[]}"#
        try Sandbox.write(sandbox.path("places.json"), Data(hostile.utf8))
        let refused = try sandbox.run(["place", "list"])
        #expect(refused.status == 65 && refused.stdout.isEmpty, "\(refused)")
        #expect(Whole.normal(refused.stderr) == "traveltimes: $TMP/places.json: impossible value: places[0].label holds control characters; nothing was changed (the file was left untouched) — fix or move it aside, then try again\n" && Whole.normal(refused.stderr) == "traveltimes: $TMP/places.json: impossible value: places[0].label holds control characters; nothing was changed (the file was left untouched) — fix or move it aside, then try again\n" && !refused.stderr.contains("\u{1B}"))
        #expect(sandbox.bytes("places.json") == Data(hostile.utf8))
    }

    @Test func anArriveByAlertMovesWithADelayAndSaysWhy() throws {
        let server = try TransitousServer()
        let sandbox = try prepared(server)
        try sandbox.ok(["favorites", "add", "bus"])
        try sandbox.ok(["notify", "add", "stdout"])
        try sandbox.ok(["schedule", "add", "--arrive-by", "9:00", "--buffer", "5m", "--route", "bus", "--days", "weekdays", "--now", "2026-11-24T06:00:00-08:00"])
        #expect(try sandbox.ok(["refresh", "--now", "2026-11-24T07:00:00-08:00"]).stdout
            == "Fetched 1 custom route: bus 40 min (Transitous); 5 alerts scheduled (cap 64).\n")
        // Asked to arrive by 8:55 (9:00, with its 5 minutes to spare), in UTC with Z (a `+` would
        // arrive as a space).
        let plan = try #require(server.requests().last { $0.path == "/api/v6/plan" })
        #expect(plan.query["time"] == "2026-11-24T16:55:00Z")
        #expect(plan.query["arriveBy"] == "true")
        #expect(plan.userAgent == "traveltimes/0.4.0 (+mailto:me@example.org)")
        let first = try #require(try sandbox.json(["pending", "--json", "--now", "2026-11-24T07:00:00-08:00"]) as? [String: Any])
        let request = try #require((first["requests"] as? [[String: Any]])?.first)
        #expect(request["nextFire"] as? String == "2026-11-24T08:11:00-08:00")
        // The bus's own time (8:17), not the door's (8:11, the walk to the stop before it).
        #expect(request["title"] as? String == "Leave now for the 545 to Redmond at 8:17 AM to arrive by 9:00 AM")
        // The 8:17 bus runs 12 min late: the planner no longer offers it for 9:00, the leave time
        // moves to the earlier one, and the alert says why.
        try server.steer(#"{"delays": {"16:17": 12}}"#)
        try sandbox.ok(["refresh", "--now", "2026-11-24T07:40:00-08:00"])
        let tick = try sandbox.ok(["tick", "--now", "2026-11-24T07:56:00-08:00"])
        #expect(tick.stdout == """
            Leave now for the 545 to Redmond at 8:02 AM to arrive by 9:00 AM
            The 8:17 AM no longer arrives in time: take the 8:02 AM
            home → work (Transitous): leave 7:56 AM for the 545 to Redmond at 8:02 AM from Stop A, arriving work at 8:36 AM
            Timetable times: no live data


            """)
        let route = try sandbox.ok(["route", "bus", "--now", "2026-11-24T07:52:00-08:00"])
        #expect(route.stdout == """
            home → work (Transitous) (route bus)  * favorite
              From:     home (47.6097,-122.3422)
              To:       work (47.6712,-122.1185)
              Source:   Transitous (door-to-door public transport, no key)
              Next:
                7:56 AM → 8:36 AM  40 min  545 at 8:02 AM, walk 10 min, timetable
                8:11 AM → 8:51 AM  40 min  545 at 8:17 AM, walk 10 min  no longer arrives in time
              Asked:    7:40 AM (12 min ago)
              Schedules: \(try sandbox.scheduleIDs()[0].prefix(8)) Arrive by 9:00 AM on Weekdays

            """ + Self.attribution)
        let json = try #require(try sandbox.json(["route", "bus", "--json", "--now", "2026-11-24T07:40:00-08:00"]) as? [String: Any])
        // The itineraries offered: the one no longer arriving in time is not among them.
        let itineraries = try #require(json["itineraries"] as? [[String: Any]])
        #expect(itineraries.map { $0["departure"] as? String } == ["2026-11-24T07:41:00-08:00", "2026-11-24T07:56:00-08:00"])
        #expect(itineraries[1]["arrival"] as? String == "2026-11-24T08:36:00-08:00")
        #expect(itineraries[1]["duration"] as? Int == 40)
        #expect(itineraries[1]["transfers"] as? Int == 0)
        let legs = try #require(itineraries[1]["legs"] as? [[String: Any]])
        #expect(legs.map { $0["mode"] as? String } == ["WALK", "BUS", "WALK"])
        #expect(legs.map { $0["from"] as? String } == ["START", "Stop A", "Stop B"])
        #expect(legs[1]["line"] as? String == "545")
        #expect(legs[1]["headsign"] as? String == "Redmond")
        #expect(legs[1]["realtime"] as? Bool == false)
        #expect(legs[1]["cancelled"] as? Bool == false)
        #expect(legs[1]["scheduledDeparture"] as? String == "2026-11-24T08:02:00-08:00")
        #expect(json["source"] as? String == "transitous")
        // doctor names the provider, what its requests say, its budget and its last answer.
        let doctor = try sandbox.run(["doctor", "--now", "2026-11-24T07:52:00-08:00"]).stdout
        // Refreshes that asked only Transitous are refreshes that worked.
        #expect(doctor.components(separatedBy: "\n").contains("ok       refresh              last success 7:40 AM (12 min ago)"), "\(doctor)")
        #expect(doctor.components(separatedBy: "\n").contains(
            "ok       provider transitous  1 route; 3 of 200 requests today; requests say traveltimes/0.4.0 (+mailto:me@example.org); last answered 7:40 AM (12 min ago)"),
            "\(doctor)")
        // A self-hosted MOTIS by configuration works the same as the variable.
        var configured = sandbox.environment
        let removed = configured.removeValue(forKey: "TRAVELTIMES_TRANSITOUS_URL")
        let base = try #require(removed)
        try sandbox.ok(["config", "set", "transitous-url", base])
        let asked = server.requests().count
        let viaConfig = try execute([Paths.binary, "refresh", "--all", "--now", "2026-11-24T07:53:00-08:00"], environment: configured)
        #expect(viaConfig.status == 0, "\(viaConfig)")
        #expect(server.requests().count == asked + 1)
        // History records door-to-door minutes.
        #expect(try sandbox.ok(["history", "bus", "--json", "--now", "2026-11-24T08:00:00-08:00"]).stdout == """
            {
              "damaged" : 0,
              "name" : "home → work (Transitous)",
              "readings" : [
                {
                  "at" : "2026-11-24T06:00:00-08:00",
                  "minutes" : 40,
                  "source" : "transitous",
                  "suspicious" : false
                },
                {
                  "at" : "2026-11-24T07:00:00-08:00",
                  "minutes" : 40,
                  "source" : "transitous",
                  "suspicious" : false
                },
                {
                  "at" : "2026-11-24T07:40:00-08:00",
                  "minutes" : 40,
                  "source" : "transitous",
                  "suspicious" : false
                },
                {
                  "at" : "2026-11-24T07:53:00-08:00",
                  "minutes" : 40,
                  "source" : "transitous",
                  "suspicious" : false
                }
              ],
              "recorded" : true,
              "route" : "bus",
              "since" : "2026-11-24T00:00:00-08:00",
              "slots" : [
                {
                  "enough" : false,
                  "median" : 40,
                  "p90" : 40,
                  "readings" : 1,
                  "start" : "06:00",
                  "weekday" : 3,
                  "weeks" : 1
                },
                {
                  "enough" : false,
                  "median" : 40,
                  "p90" : 40,
                  "readings" : 1,
                  "start" : "07:00",
                  "weekday" : 3,
                  "weeks" : 1
                },
                {
                  "enough" : false,
                  "median" : 40,
                  "p90" : 40,
                  "readings" : 1,
                  "start" : "07:30",
                  "weekday" : 3,
                  "weeks" : 1
                },
                {
                  "enough" : false,
                  "median" : 40,
                  "p90" : 40,
                  "readings" : 1,
                  "start" : "07:45",
                  "weekday" : 3,
                  "weeks" : 1
                }
              ],
              "total" : 4,
              "weeks" : 8,
              "zone" : "America/Los_Angeles"
            }

            """)
    }

    @Test func aCancelledRunMovesTheLeaveAndAFixedTimeAlertListsItineraries() throws {
        let server = try TransitousServer()
        let sandbox = try prepared(server)
        try sandbox.ok(["favorites", "add", "bus"])
        try sandbox.ok(["notify", "add", "stdout"])
        try sandbox.ok(["schedule", "add", "--arrive-by", "9:00", "--buffer", "5m", "--heads-up", "off", "--route", "bus", "--days", "weekdays", "--now", "2026-11-24T06:00:00-08:00"])
        try sandbox.ok(["schedule", "add", "--at", "17:00", "--route", "bus", "--days", "weekdays", "--now", "2026-11-24T06:00:00-08:00"])
        try sandbox.ok(["refresh", "--now", "2026-11-24T07:00:00-08:00"])
        try server.steer(#"{"cancel": ["16:17"]}"#)
        try sandbox.ok(["refresh", "--now", "2026-11-24T07:40:00-08:00"])
        #expect(try sandbox.ok(["tick", "--now", "2026-11-24T07:56:00-08:00"]).stdout == """
            Leave now for the 545 to Redmond at 8:02 AM to arrive by 9:00 AM
            The 8:17 AM is cancelled: take the 8:02 AM
            home → work (Transitous): leave 7:56 AM for the 545 to Redmond at 8:02 AM (timetable) from Stop A, arriving work at 8:36 AM


            """)
        // The 5:00 PM alert asks for departures from 5:00 PM, and lists them.
        try server.steer("{}")
        try sandbox.ok(["refresh", "--now", "2026-11-24T16:10:00-08:00"])
        let plan = try #require(server.requests().last { $0.path == "/api/v6/plan" })
        #expect(plan.query["time"] == "2026-11-25T01:00:00Z" && plan.query["arriveBy"] == "false")
        let evening = try sandbox.ok(["tick", "--now", "2026-11-24T17:00:00-08:00"]).stdout
        #expect(evening.components(separatedBy: "\n").contains(
            "home → work (Transitous): 545 to Redmond: 5:17 PM, then 5:32 PM, 5:47 PM; leave by 5:11 PM; timetable times, no live data"), "\(evening)")
    }

    @Test func thePublicServicesPaceIsKeptAcrossProcesses() throws {
        let server = try TransitousServer()
        let sandbox = Sandbox()
        sandbox.environment.merge(server.environment) { _, new in new }
        // Three searches at once, from three processes: a second apart as sent; at the server,
        // less the stand-in's arrival jitter on a busy machine (0.94 s has been seen).
        let runs = try ["pike place market", "redmond town center", "main street"].enumerated().map { index, text in
            try sandbox.start(["place", "add", "p\(index)", "--search", text, "--pick", "1"])
        }
        for run in runs { #expect(try run.wait().status == 0) }
        let times = server.requests().filter { $0.path == "/search" }.map(\.at).sorted()
        #expect(times.count == 3)
        for (earlier, later) in zip(times, times.dropFirst()) { #expect(later - earlier >= 0.9, "\(times)") }
        // Plans likewise.
        try sandbox.ok(["route", "add", "a", "--provider", "transitous", "--from", "p0", "--to", "p1"])
        try sandbox.ok(["route", "add", "b", "--provider", "transitous", "--from", "p1", "--to", "p0"])
        let plans = server.requests().filter { $0.path == "/api/v6/plan" }.map(\.at)
        #expect(plans.count == 2)
        #expect(plans[1] - plans[0] >= 0.9)
    }

    @Test func hostileAnswersAreRefusedInOneLineAndChangeNothing() throws {
        let server = try TransitousServer()
        let sandbox = try prepared(server)
        let before = try #require(sandbox.bytes("routes.json"))
        let cases: [(fault: String, status: Int32, message: String)] = [
            ("garbage", 69, "Transitous answered oddly: the answer is not a JSON object"),
            ("huge", 69, "Transitous's answer is over 16777216 bytes"),
            ("shape", 69, "Transitous answered oddly: itineraries[0].startTime is not a time"),
            ("error", 69, "Transitous refused: HTTP 400: query time is outside of loaded timetable window"),
            ("empty", 1, "no route: Transitous found no itinerary for that time"),
        ]
        for (fault, status, message) in cases {
            try server.steer(#"{"fault": "\#(fault)"}"#)
            let outcome = try sandbox.run(["route", "add", "x", "--provider", "transitous", "--from", "home", "--to", "work", "--timeout", "2"])
            #expect(outcome.status == status, "\(fault): \(outcome)")
            #expect(outcome.stderr == "traveltimes: \(message); route x was not added\n", "\(fault)")
            #expect(sandbox.bytes("routes.json") == before, "\(fault)")
        }
        // A server failing every time is tried again while the deadline allows (how many times
        // depends on how fast the machine is), then given up on in one line.
        try server.steer(#"{"fault": "503"}"#)
        let failing = try sandbox.run(["route", "add", "x", "--provider", "transitous", "--from", "home", "--to", "work", "--timeout", "2"])
        #expect(failing.status == 75, "\(failing)")
        #expect(failing.stderr.hasPrefix("traveltimes: ") && failing.stderr.hasSuffix(" (last: HTTP 503); route x was not added\n")
            && failing.stderr.filter { $0 == "\n" }.count == 1, "\(failing)")
        #expect(server.requests().filter { $0.path == "/api/v6/plan" }.count >= 2 + cases.count)
        #expect(sandbox.bytes("routes.json") == before)
        // A refresh that meets a fault keeps the last itineraries, with their age.
        try server.steer(#"{"fault": "429"}"#)
        let refresh = try sandbox.run(["refresh", "--all", "--timeout", "2", "--now", "2026-11-24T06:30:00-08:00"])
        #expect(refresh.status != 0)
        let route = try sandbox.ok(["route", "bus", "--now", "2026-11-24T06:30:00-08:00"])
        #expect(route.stdout.components(separatedBy: "\n").contains("  Asked:    6:00 AM (30 min ago)"))
    }
}
