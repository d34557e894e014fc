@_spi(Store) import CommuteCore
import Foundation
import TestThreads
import Testing

/// The loopback stand-in for the open routing engines (OSRM, Valhalla): see
/// `Tests/Support/engine_server.py`.
final class EngineServer: SteeredServer, @unchecked Sendable {
    init() throws { try super.init(script: "engine_server.py") }

    var environment: [String: String] { ["TRAVELTIMES_OSRM_URL": base, "TRAVELTIMES_VALHALLA_URL": base] }

    struct Request {
        var engine: String
        var detail: String
        var userAgent: String
        var at: Double
    }

    func requests() -> [Request] {
        entries().map { object in
            Request(
                engine: object["engine"] as? String ?? "", detail: object["detail"] as? String ?? "",
                userAgent: object["userAgent"] as? String ?? "", at: object["at"] as? Double ?? 0)
        }
    }
}

@Suite(.ownThreads) struct FreeFlowTests {
    static let attribution = "Route by OSRM · map data © OpenStreetMap contributors (openstreetmap.org/copyright) · fix the map: openstreetmap.org/fixthemap\n"

    func sandbox(_ server: EngineServer) throws -> Sandbox {
        let sandbox = Sandbox()
        sandbox.environment.merge(server.environment) { _, new in new }
        sandbox.environment["TRAVELTIMES_TZ"] = "America/Los_Angeles"
        try sandbox.ok(["config", "set", "contact", "https://example.org/me"])
        try sandbox.ok(["place", "add", "home", "47.6205,-122.3493"])
        try sandbox.ok(["place", "add", "work", "47.6101,-122.2015"])
        return sandbox
    }

    @Test func aCarRouteWithNoKeyIsAnHonestEstimateAndItsArriveByHasAMargin() throws {
        let server = try EngineServer()
        let sandbox = try sandbox(server)
        let added = try sandbox.ok(["route", "add", "drive", "--provider", "osrm", "--from", "home", "--to", "work", "--now", "2026-11-24T06:00:00-08:00"])
        // In Seattle's zone, miles, as the road signs there; the same unit wherever it is shown.
        #expect(added.stdout == "Added route drive: home → work (OSRM): 17 min, a free-flow estimate from OSRM (no live traffic), 9.0 mi.\n" + Self.attribution)
        #expect(try sandbox.ok(["route", "drive", "--now", "2026-11-24T06:00:00-08:00"]).stdout.components(separatedBy: "\n").contains("  Distance: 9.0 mi"))
        // OSRM takes longitude first; the request names traveltimes, its version and the contact.
        let first = try #require(server.requests().first)
        #expect(first.detail == "/route/v1/driving/-122.3493,47.6205;-122.2015,47.6101?overview=false&alternatives=false&steps=true")
        #expect(first.userAgent == "traveltimes/0.4.0 (+https://example.org/me)")
        let valhalla = try sandbox.ok(["route", "add", "drive2", "--provider", "valhalla", "--from", "home", "--to", "work", "--now", "2026-11-24T06:00:00-08:00"])
        #expect(valhalla.stdout.hasPrefix("Added route drive2: home → work (Valhalla): 17 min, a free-flow estimate from Valhalla (no live traffic), 9.0 mi.\n"))
        // `km`, a value Valhalla's units take (km, kilometers, miles, mi).
        let body = try #require(server.requests().last?.detail)
        #expect(body == #"{"locations":[{"lat":47.6205,"lon":-122.3493},{"lat":47.6101,"lon":-122.2015}],"costing":"auto","units":"km","directions_type":"none"}"#)
        // Kilometres when asked for, in every view alike.
        #expect(try sandbox.ok(["config", "set", "units", "km"]).stdout == "units set to km: distances are shown in kilometres.\n")
        #expect(try sandbox.ok(["route", "drive", "--now", "2026-11-24T06:00:00-08:00"]).stdout.components(separatedBy: "\n").contains("  Distance: 14.5 km"))
        #expect(try sandbox.ok(["route", "edit", "drive2", "--name", "Drive"]).stdout
            == "Route drive2: Drive; 17 min, a free-flow estimate from Valhalla (no live traffic), 14.5 km.\n")
        try sandbox.ok(["route", "edit", "drive2", "--name", "home → work (Valhalla)"])
        try sandbox.ok(["config", "unset", "units", "--yes"])
        #expect(try sandbox.ok(["routes", "--now", "2026-11-24T06:10:00-08:00"]).stdout == """
            Updated: osrm 6:00 AM; valhalla 6:00 AM
                  ID  NAME                        NOW  AVG  DELAY  STATUS    SOURCE    UPDATED
               drive  home → work (OSRM)      17 min~    -      -  ESTIMATE  osrm      6:00 AM
              drive2  home → work (Valhalla)  17 min~    -      -  ESTIMATE  valhalla  6:00 AM
            ~ A free-flow estimate from an open routing engine (OSRM, Valhalla): no live traffic.

            """)
        let json = try #require(try sandbox.json(["route", "drive", "--json", "--now", "2026-11-24T06:10:00-08:00"]) as? [String: Any])
        #expect(json["source"] as? String == "osrm" && json["freeFlowMinutes"] as? Int == 17)
        #expect(json["distanceKm"] as? Double == 14.5 && json["live"] as? Bool == false)

        // Arrive by 9:00 with 5 min to spare: 17 min × 1.25 = 22 min, so leave at 8:33.
        try sandbox.ok(["favorites", "add", "drive"])
        let schedule = try sandbox.ok(["schedule", "add", "--arrive-by", "9:00", "--route", "drive", "--days", "weekdays", "--heads-up", "off", "--now", "2026-11-24T06:10:00-08:00"])
        #expect(schedule.stdout.hasPrefix("Added schedule \(try sandbox.scheduleIDs()[0].prefix(8)): Arrive by 9:00 AM on Weekdays, 1 route (home → work (OSRM)), 5 min to spare; next: leave Tue, Nov 24, 8:33 AM to arrive by 9:00 AM (free-flow estimate × 1.25, no live traffic).\n"))
        // The estimate is not asked again the same day, however near the alert.
        let asked = server.requests().count
        #expect(try sandbox.ok(["refresh", "--now", "2026-11-24T08:00:00-08:00"]).stdout == "Kept 2 custom routes as they were (2 free-flow estimate asked today).\n")
        #expect(server.requests().count == asked)
        #expect(try sandbox.ok(["tick", "--now", "2026-11-24T08:33:00-08:00"]).stdout == """
            Leave now to arrive by 9:00 AM
            home → work (OSRM): 17 min (free-flow estimate from OSRM, no live traffic)
            Expected arrival 8:55 AM by home → work (OSRM) (free-flow estimate: 17 min × 1.25, no live traffic)


            """)
        // Another margin, said where it is used.
        try sandbox.ok(["config", "set", "free-flow-margin", "1.5", "--now", "2026-11-24T09:00:00-08:00"])
        let pending = try #require(try sandbox.json(["pending", "--json", "--now", "2026-11-24T09:00:00-08:00"]) as? [String: Any])
        #expect((pending["requests"] as? [[String: Any]])?.first?["nextFire"] as? String == "2026-11-25T08:29:00-08:00")
        // A day later it is asked again.
        try sandbox.ok(["refresh", "--now", "2026-11-25T07:00:00-08:00"])
        #expect(server.requests().count == asked + 1)
        // A free-flow estimate is not history: nothing is recorded for it.
        #expect(try sandbox.ok(["history", "drive", "--json", "--now", "2026-11-25T07:00:00-08:00"]).stdout == """
            {
              "damaged" : 0,
              "name" : "home → work (OSRM)",
              "readings" : [],
              "recorded" : true,
              "route" : "drive",
              "since" : "2026-11-25T00:00:00-08:00",
              "slots" : [],
              "total" : 0,
              "weeks" : 8,
              "zone" : "America/Los_Angeles"
            }

            """)
    }

    @Test func aFailingEngineKeepsTheLastEstimateAndIsNotHammered() throws {
        let server = try EngineServer()
        let sandbox = try sandbox(server)
        try sandbox.ok(["route", "add", "drive", "--provider", "osrm", "--from", "home", "--to", "work", "--now", "2026-11-23T06:00:00-08:00"])
        try server.steer(#"{"fault": "503"}"#)
        let failed = try sandbox.run(["refresh", "--all", "--timeout", "2", "--now", "2026-11-24T07:00:00-08:00"])
        #expect(failed.status != 0)
        let route = try sandbox.ok(["route", "drive", "--now", "2026-11-24T07:05:00-08:00"]).stdout
        #expect(route.components(separatedBy: "\n").contains("  Estimate: 17 min, free-flow: no live traffic (arrive-by leave times allow × 1.25)"), "\(route)")
        let asked = server.requests().count
        // Within the hour, the failing engine is left alone; the refresh still did not refresh.
        let resting = try sandbox.run(["refresh", "--all", "--now", "2026-11-24T07:30:00-08:00"])
        #expect(resting.status == 75 && resting.stdout == "Kept 1 custom route as it was (1 its engine failed within the hour).\n", "\(resting)")
        #expect(server.requests().count == asked)
        // Garbage and absurd answers: one line each, nothing saved.
        let before = sandbox.bytes("routes.json")
        for (fault, message) in [
            ("garbage", "traveltimes: OSRM answered oddly: the answer is not a JSON object; route x was not added\n"),
            ("noroute", "traveltimes: no route: OSRM: No route found between points; route x was not added\n"),
        ] {
            try server.steer(#"{"fault": "\#(fault)"}"#)
            let outcome = try sandbox.run(["route", "add", "x", "--provider", "osrm", "--from", "home", "--to", "work"])
            #expect(outcome.status != 0 && outcome.stderr == message, "\(fault): \(outcome)")
            #expect(sandbox.bytes("routes.json") == before)
        }
        // 10 km in 2 s is faster than any road: held back, as any provider's reading.
        try server.steer(#"{"fault": "absurd"}"#)
        let absurd = try sandbox.run(["route", "add", "y", "--provider", "osrm", "--from", "home", "--to", "work"])
        #expect(absurd.stderr == "traveltimes: warning: OSRM reported 1 min for home → work (OSRM) (held back until a second reading confirms it)\n", "\(absurd)")
    }

    @Test func aKeyedRouteWhoseBudgetIsSpentFallsBackAndSaysSo() throws {
        let server = try EngineServer()
        let providers = try ProviderServer()
        let sandbox = try sandbox(server)
        sandbox.environment.merge(providers.environment) { _, new in new }
        sandbox.environment["TOMTOM_API_KEY"] = "tomtom-key"
        try sandbox.ok(["config", "set", "budget.tomtom", "1"])
        let added = try sandbox.ok([
            "route", "add", "hw", "--provider", "tomtom", "--from", "home", "--to", "work", "--fallback", "osrm", "--name", "Home to work",
            "--now", "2026-11-24T06:00:00-08:00",
        ])
        #expect(added.stdout == """
            Added route hw: Home to work: 25 min now (usually 22 min; +3 min, SLOWING), 8.4 mi.
            When TomTom cannot answer, OSRM's free-flow estimate stands in: 17 min, no live traffic.

            """ + Self.attribution)
        try sandbox.ok(["favorites", "add", "hw"])
        try sandbox.ok(["schedule", "add", "--arrive-by", "9:00", "--route", "hw", "--days", "weekdays", "--heads-up", "off", "--now", "2026-11-24T06:10:00-08:00"])
        // The budget is spent: the route keeps TomTom's old time, and its alerts use the estimate.
        let refresh = try sandbox.ok(["refresh", "--now", "2026-11-24T08:00:00-08:00"])
        #expect(refresh.stderr == "traveltimes: warning: TomTom's daily budget of 1 requests is spent (`config set budget.tomtom N`); hw keeps its time from 2 h ago\n")
        #expect(try sandbox.ok(["tick", "--now", "2026-11-24T08:33:00-08:00"]).stdout == """
            Leave now to arrive by 9:00 AM
            Home to work: no live time (TomTom's daily budget of 1 requests is spent (`config set budget.tomtom N`)): 17 min (free-flow estimate from OSRM, no live traffic)
            Expected arrival 8:55 AM by Home to work (free-flow estimate: 17 min × 1.25, no live traffic)


            """)
        // A new day, a new budget: TomTom answers again, and the alerts are live again.
        try sandbox.ok(["refresh", "--now", "2026-11-25T08:00:00-08:00"])
        let route = try #require(try sandbox.store.routes().byID["hw"])
        #expect(route.custom?.liveProblem == nil && route.hasLiveTime)
    }

    @Test func withHistoryTheRoutesTypicalTimeIsUsedAndSaid() throws {
        let server = try EngineServer()
        let sandbox = try sandbox(server)
        try sandbox.ok(["route", "add", "drive", "--provider", "osrm", "--from", "home", "--to", "work", "--now", "2026-11-24T06:00:00-08:00"])
        // Eight Tuesdays of 30 min at 8:30–8:40 (a live source's, imported).
        var csv = "route,at,minutes,source,suspicious\n"
        for week in 1...8 {
            let day = Calendar(identifier: .gregorian).date(byAdding: .day, value: -7 * week, to: try #require(ISO8601DateFormatter().date(from: "2026-11-24T16:30:00Z")))!
            for minute in [0, 5, 10] {
                let moment = day.addingTimeInterval(TimeInterval(minute * 60))
                let offset = moment < ISO8601DateFormatter().date(from: "2026-11-01T09:00:00Z")! ? "-07:00" : "-08:00"
                let formatter = ISO8601DateFormatter()
                formatter.timeZone = TimeZone(identifier: "America/Los_Angeles")
                formatter.formatOptions = [.withInternetDateTime]
                let text = formatter.string(from: moment).replacingOccurrences(of: "Z", with: offset)
                csv += "drive,\(text),30,tomtom,false\n"
            }
        }
        try Sandbox.write(sandbox.path("history.csv"), Data(csv.utf8))
        try sandbox.ok(["history", "import", sandbox.path("history.csv"), "--now", "2026-11-24T06:05:00-08:00"])
        try sandbox.ok(["favorites", "add", "drive"])
        let schedule = try sandbox.ok(["schedule", "add", "--arrive-by", "9:00", "--route", "drive", "--days", "weekdays", "--heads-up", "off", "--now", "2026-11-24T06:10:00-08:00"])
        #expect(Whole.normal(schedule.stdout) == """
            Added schedule $ID: Arrive by 9:00 AM on Weekdays, 1 route (home → work (OSRM)), 5 min to spare; next: leave Tue, Nov 24, 8:25 AM to arrive by 9:00 AM (on its history: on time 9 times in 10).
            Schedules are in America/Los_Angeles from now on, whatever TZ cron runs with (change it with `traveltimes config set timezone ZONE`).

            """, "\(schedule)")
        #expect(try sandbox.ok(["tick", "--now", "2026-11-24T08:25:00-08:00"]).stdout == """
            Leave now to arrive by 9:00 AM
            home → work (OSRM): 17 min (free-flow estimate from OSRM, no live traffic)
            Expected arrival 8:55 AM by home → work (OSRM) (its typical time from history, not the free-flow estimate: 9 times in 10 it takes no longer)


            """)
    }

    @Test func theEnginesPaceIsKeptAcrossProcesses() throws {
        let server = try EngineServer()
        let sandbox = try sandbox(server)
        let runs = try (0..<3).map { index in
            try sandbox.start(["route", "add", "r\(index)", "--provider", "osrm", "--from", "home", "--to", "work"])
        }
        for run in runs { #expect(try run.wait().status == 0) }
        let times = server.requests().map(\.at).sorted()
        #expect(times.count == 3)
        // A second apart as the stand-in saw them arrive: its clock reads each on arrival, which a
        // busy machine delays by some tens of milliseconds (a request held back not at all would
        // arrive at once).
        for (earlier, later) in zip(times, times.dropFirst()) { #expect(later - earlier >= 0.9, "\(times)") }
    }
}
