@_spi(Store) import CommuteCore
import Foundation
import TestThreads
import Testing

/// The loopback TomTom whose travel time follows a rush-hour curve (`Tests/Support/rush_server.py`),
/// and its oracle: the time at every minute. The test sets its clock (`now`) and incidents.
final class RushServer: SteeredServer, @unchecked Sendable {
    init() throws { try super.init(script: "rush_server.py") }

    var environment: [String: String] { ["TRAVELTIMES_TOMTOM_URL": base, "TOMTOM_API_KEY": "rush-key"] }

    /// Its clock, at `time` on Tue 24 Nov 2026 in Seattle (`07:58`), with `incidents` as
    /// `(from, minutes)` lasting an hour.
    func set(_ time: String, incidents: [(String, Int)] = []) throws {
        let now = Int(AskPlanTests.at(time).timeIntervalSince1970)
        let list = incidents.map { from, minutes in
            let start = Int(AskPlanTests.at(from).timeIntervalSince1970)
            return #"{"start": \#(start), "end": \#(start + 3_600), "minutes": \#(minutes)}"#
        }
        try steer(#"{"now": \#(now), "offset": -28800, "seed": 7, "incidents": [\#(list.joined(separator: ", "))]}"#)
    }

    /// Each request as `06:01 departAt 16:27Z` or `07:58 now`, local time of the clock it came at.
    func asked() -> [String] {
        entries().map { entry in
            let now = Date(timeIntervalSince1970: (entry["now"] as? Double) ?? 0)
            let clock = AskPlanTests.local(now)
            let departAt = ((entry["query"] as? [String: Any])?["departAt"] as? String).map { "departAt \($0.dropFirst(11).prefix(5))Z" }
            return "\(clock) \(departAt ?? "now")"
        }
    }

    /// The oracle's minutes for leaving at each minute from `from` to `to`.
    func truth(from: String, to: String) throws -> [Date: Double] {
        let outcome = try execute(
            ["/usr/bin/env", "python3", Paths.root.appendingPathComponent("Tests/Support/rush_server.py").path, "--oracle", control, "47.6712,-122.1185",
             String(Int(AskPlanTests.at(from).timeIntervalSince1970)), String(Int(AskPlanTests.at(to).timeIntervalSince1970))],
            environment: ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Double])
        return Dictionary(uniqueKeysWithValues: object.compactMap { key, value in Double(key).map { (Date(timeIntervalSince1970: $0), value) } })
    }
}

/// The request plan through the binary (issue 49): a TomTom route asked about the moment the rider
/// will leave, once when an alert's window opens and once close to it, the leave time against the
/// oracle's; what `refresh --dry-run`, `status` and `doctor` say of it; an incident caught before
/// the leave alert; and each provider asked for a departure as it documents.
@Suite(.ownThreads) struct AskPlanTests {
    static func at(_ time: String) -> Date { ISO8601.parse("2026-11-24T\(time):00-08:00")?.instant ?? .distantPast }
    static func local(_ date: Date) -> String {
        let minutes = (Int(date.timeIntervalSince1970) - 8 * 3_600).floorModulo(86_400) / 60
        return String(format: "%02d:%02d", minutes / 60, minutes % 60)
    }

    /// A store with the route drive (TomTom, from the stand-in), an arrive-by alert at 9:00 (5
    /// minutes to spare) and one at 7:00, weekdays.
    func prepared(_ server: RushServer) throws -> Sandbox {
        let sandbox = Sandbox()
        sandbox.environment.merge(server.environment) { _, new in new }
        try server.set("05:00")
        try sandbox.ok(["route", "add", "drive", "--provider", "tomtom", "--from", "47.6097,-122.3422", "--to", "47.6712,-122.1185", "--now", "2026-11-24T05:00:00-08:00"])
        try sandbox.ok(["favorites", "add", "drive"])
        try sandbox.ok(["schedule", "add", "--arrive-by", "9:00", "--buffer", "5m", "--heads-up", "off", "--route", "drive", "--days", "weekdays", "--now", "2026-11-24T05:00:00-08:00"])
        try sandbox.ok(["schedule", "add", "--at", "7:00", "--route", "drive", "--days", "weekdays", "--now", "2026-11-24T05:00:00-08:00"])
        return sandbox
    }

    /// Refresh and tick at each minute, as cron runs them; what the ticks printed, by minute.
    func morning(_ sandbox: Sandbox, _ server: RushServer, _ minutes: [String], incidents: [(String, Int)] = []) throws -> [String: String] {
        var printed: [String: String] = [:]
        for time in minutes {
            try server.set(time, incidents: incidents)
            try sandbox.ok(["refresh", "--quiet", "--now", "2026-11-24T\(time):00-08:00"])
            let tick = try sandbox.ok(["tick", "--now", "2026-11-24T\(time):00-08:00"]).stdout
            if !tick.isEmpty { printed[time] = tick }
        }
        return printed
    }

    /// Every minute from `from` to `to`, `07:58`.
    static func minutes(_ from: String, _ to: String) -> [String] {
        let start = Int(at(from).timeIntervalSince1970), end = Int(at(to).timeIntervalSince1970)
        return stride(from: start, through: end, by: 60).map { local(Date(timeIntervalSince1970: Double($0))) }
    }

    @Test func aMorningAsksAboutTheMomentOfLeavingAndLeavesOnTheOraclesMinute() throws {
        let server = try RushServer()
        let sandbox = try prepared(server)
        // Cron every minute around the moments that matter (the plan asks nothing in between:
        // those minutes are checked too, a few of them).
        let minutes = Self.minutes("05:58", "06:03") + ["06:20", "06:40"] + Self.minutes("06:45", "07:01") + ["07:20", "07:40"] + Self.minutes("07:55", "08:10")
        let printed = try morning(sandbox, server, minutes)
        // Leaving now at 5:00 (route add); when the windows open, about leaving at 7:00, and about
        // 8:24 (where the 7:00 answer would land it) then 8:14 where that answer moved it; 12
        // minutes before each alert, a reading of now — and for the arrival, 8:08, where today's
        // traffic moved it. Two requests for the fixed alert, four for the arrival.
        #expect(server.asked() == [
            "05:00 now", "06:00 departAt 15:00Z", "06:01 departAt 16:24Z", "06:01 departAt 16:14Z", "06:48 now", "07:58 now", "07:58 departAt 16:08Z",
        ])
        #expect(printed == [
            "07:00": """
                Commute at 7:00 AM (Weekdays)
                47.6097,-122.3422 → 47.6712,-122.1185 (TomTom): 31 min (on time, CLEAR), TomTom's prediction for leaving 7:00 AM


                """,
            "08:09": """
                Leave now to arrive by 9:00 AM
                47.6097,-122.3422 → 47.6712,-122.1185 (TomTom): 46 min (+2 min, SLOWING), TomTom's prediction for leaving 8:09 AM
                Expected arrival 8:55 AM by 47.6097,-122.3422 → 47.6712,-122.1185 (TomTom)


                """,
        ], "\(printed)")
        // Against the oracle: the latest minute that arrives by 8:55 is 8:09, the alert's, and at
        // 7:00 the drive takes 31 min.
        let truth = try server.truth(from: "07:00", to: "08:55")
        let latest = Self.minutes("07:30", "08:54").last { time in (truth[Self.at(time)] ?? 99) * 60 + Self.at(time).timeIntervalSince1970 <= Self.at("08:55").timeIntervalSince1970 }
        #expect(latest == "08:09")
        #expect(abs((truth[Self.at("07:00")] ?? 0) - 31) < 0.5)
        // What it cost, said: 7 requests (route add's among them) for 2 delivered alerts today, the
        // month at that pace.
        let status = try sandbox.ok(["status", "--now", "2026-11-24T09:30:00-08:00"]).stdout
        #expect(status.contains("\nRequests:   TomTom 3.5 requests per delivered alert over 1 day (7 requests, 2 alerts); this month ~49 of 75,000 at this pace\n"), "\(status)")
        let costs = try #require((try sandbox.json(["status", "--json", "--now", "2026-11-24T09:30:00-08:00"]) as? [String: Any])?["requestCosts"] as? [[String: Any]])
        #expect(costs.count == 1 && costs.first?["perAlert"] as? Double == 3.5 && costs.first?["projectedThisMonth"] as? Int == 49, "\(costs)")
        let doctor = try sandbox.run(["doctor", "--now", "2026-11-24T09:30:00-08:00"]).stdout
        #expect(doctor.contains("\nok       requests         TomTom 3.5 requests per delivered alert over 1 day (7 requests, 2 alerts); this month ~49 of 75,000 at this pace\n"), "\(doctor)")
    }

    @Test func aDryRunSaysWhatWouldBeAskedAndWhyAndAsksNothing() throws {
        let server = try RushServer()
        let sandbox = try prepared(server)
        _ = try morning(sandbox, server, ["06:00"])
        let before = server.asked().count
        let routes = sandbox.bytes("routes.json")
        let outputs = try ["06:01", "06:30", "06:48"].map { time in
            try sandbox.ok(["refresh", "--dry-run", "--now", "2026-11-24T\(time):00-08:00"]).stdout
        }
        #expect(outputs == [
            """
            Would ask 1 custom route now:
              drive (TomTom): first ask for the 9:00 AM arrive-by alert, leaving 8:24 AM
            Nothing was asked or changed (--dry-run).

            """,
            """
            Would ask 1 custom route now:
              drive (TomTom): first ask for the 9:00 AM arrive-by alert, leaving 8:24 AM
            Nothing was asked or changed (--dry-run).

            """,
            """
            Would ask 1 custom route now:
              drive (TomTom): last ask before the 7:00 AM alert goes out, leaving now
            Nothing was asked or changed (--dry-run).

            """,
        ], "\(outputs)")
        _ = try morning(sandbox, server, ["06:01"])
        #expect(try sandbox.ok(["refresh", "--dry-run", "--now", "2026-11-24T06:30:00-08:00"]).stdout == """
            Would not ask 1:
              drive (TomTom): not needed now: asked 6:01 AM; next at 6:48 AM, before the 7:00 AM alert
            Nothing was asked or changed (--dry-run).

            """)
        #expect(server.asked().count == before + 2, "only the two refreshes asked")
        #expect(sandbox.bytes("routes.json") != routes)
        let unchanged = sandbox.bytes("routes.json")
        _ = try sandbox.ok(["refresh", "--dry-run", "--all", "--now", "2026-11-24T06:31:00-08:00"])
        #expect(sandbox.bytes("routes.json") == unchanged && server.asked().count == before + 2)
        let json = try sandbox.run(["refresh", "--dry-run", "--json", "--now", "2026-11-24T06:31:00-08:00"])
        #expect(json.status == 64 && json.stderr == "traveltimes: --dry-run prints its plan as text: leave out --json. See 'traveltimes refresh --help'.\n", "\(json.stderr)")
    }

    @Test func anIncidentAtSevenFortyIsCaughtBeforeTheLeaveAlert() throws {
        let server = try RushServer()
        let sandbox = try prepared(server)
        // 20 more minutes from 7:40: the reading at 7:58 (a reading of now: no prediction to
        // name) sees it, and the leave alert goes out at once, saying how late.
        let printed = try morning(sandbox, server, ["06:00", "06:01"] + Self.minutes("07:50", "08:10"), incidents: [("07:40", 20)])
        #expect(printed == [
            "07:58": """
                Leave now: expected arrival 9:04 AM, 4 min late
                47.6097,-122.3422 → 47.6712,-122.1185 (TomTom): 67 min (+22 min, CONGESTED)
                Expected arrival 9:04 AM by 47.6097,-122.3422 → 47.6712,-122.1185 (TomTom)


                """,
        ], "\(printed)")
        #expect(server.asked() == ["05:00 now", "06:00 departAt 15:00Z", "06:01 departAt 16:24Z", "06:01 departAt 16:14Z", "07:58 now"])
    }

    @Test func eachProviderIsAskedForTheDepartureAsItDocumentsIt() throws {
        let server = try ProviderServer()
        let sandbox = Sandbox()
        sandbox.environment.merge(server.environment) { _, new in new }
        sandbox.environment.merge(["TOMTOM_API_KEY": "t-key", "HERE_API_KEY": "h-key", "GOOGLE_MAPS_API_KEY": "g-key"]) { _, new in new }
        for (id, provider) in [("a", "tomtom"), ("b", "here"), ("c", "google")] {
            try sandbox.ok(["route", "add", id, "--provider", provider, "--from", "47.6097,-122.3422", "--to", "47.6712,-122.1185", "--now", "2026-11-24T05:00:00-08:00"])
            try sandbox.ok(["favorites", "add", id])
            try sandbox.ok(["schedule", "add", "--at", "7:00", "--route", id, "--days", "weekdays", "--now", "2026-11-24T05:00:00-08:00"])
        }
        let before = server.requests().count
        try sandbox.ok(["refresh", "--now", "2026-11-24T06:00:00-08:00"])
        let asked = server.requests().dropFirst(before)
        #expect(asked.compactMap { $0.query["departAt"] } == ["2026-11-24T15:00:00Z"])
        #expect(asked.compactMap { $0.query["departureTime"] } == ["2026-11-24T15:00:00Z"])
        #expect(asked.filter { $0.path == "/directions/v2:computeRoutes" }.map(\.body)
            == [#"{"origin":{"location":{"latLng":{"latitude":47.6097,"longitude":-122.3422}}},"destination":{"location":{"latLng":{"latitude":47.6712,"longitude":-122.1185}}},"travelMode":"DRIVE","routingPreference":"TRAFFIC_AWARE","departureTime":"2026-11-24T15:00:00Z"}"#])
        // 12 minutes before: TomTom and HERE read now; Google (whose usual is free flow, no usual
        // to move a prediction by) is asked about 7:00 again, nearer.
        let again = server.requests().count
        try sandbox.ok(["refresh", "--now", "2026-11-24T06:48:00-08:00"])
        let last = server.requests().dropFirst(again)
        #expect(last.count == 3 && last.compactMap { $0.query["departAt"] ?? $0.query["departureTime"] }.isEmpty)
        #expect(last.filter { $0.path == "/directions/v2:computeRoutes" }.map { $0.body.contains(#""departureTime":"2026-11-24T15:00:00Z""#) } == [true])
    }

    @Test func predictionsInTheRouteCacheAreBoundedAndImpossibleOnesNamed() throws {
        let server = try RushServer()
        let sandbox = try prepared(server)
        _ = try morning(sandbox, server, ["06:00"])
        let text = try #require(sandbox.bytes("routes.json").map { String(decoding: $0, as: UTF8.self) })
        let one = #"{"departure": "2026-11-24T16:00:00Z", "minutes": 40, "seconds": 2400, "askedAt": "2026-11-24T14:00:00Z"}"#
        // 100,000 predictions: read as the 12 a route keeps.
        let many = text.replacing(/"predictions" ?: ?\[/, with: "\"predictions\": [" + Array(repeating: one, count: 100_000).joined(separator: ", ") + ", ")
        try Sandbox.write(sandbox.path("routes.json"), Data(many.utf8))
        #expect(try sandbox.ok(["refresh", "--dry-run", "--now", "2026-11-24T06:30:00-08:00"]).stdout.contains("drive (TomTom)"))
        // A prediction of 1e308 seconds is named, and nothing is changed.
        let absurd = text.replacing(/"seconds" ?: ?[0-9.]+/, with: "\"seconds\": 1e308")
        try Sandbox.write(sandbox.path("routes.json"), Data(absurd.utf8))
        let refused = try sandbox.run(["refresh", "--now", "2026-11-24T06:30:00-08:00"])
        #expect(refused.status == 65 && refused.stderr.contains("routes.json") && refused.stderr.contains("not a travel time"), "\(refused.stderr)")
        #expect(sandbox.bytes("routes.json") == Data(absurd.utf8))
    }
}
