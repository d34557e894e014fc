@_spi(Store) import CommuteCore
import Foundation
import TestThreads
import Testing

@testable import TraveltimesCLI

/// What the product says must be true at every edge (issue 33): each case as a user met it, run
/// through the built binary, its output compared whole where output is the contract.
@Suite(.serialized, .ownThreads) struct TruthTests {
    /// The sample feed's fixture with `edits` applied to its text (`sed`, as a user would), as a
    /// file beside the sandbox's store.
    func feed(_ sandbox: Sandbox, _ name: String, _ edits: [(String, String)]) throws -> String {
        var text = try String(contentsOfFile: Paths.fixture, encoding: .utf8)
        for (old, new) in edits { text = text.replacingOccurrences(of: old, with: new) }
        let path = sandbox.home + "-\(name).json"
        try Sandbox.write(path, Data(text.utf8))
        return path
    }

    /// The fixture's measurement time (4:00 PM, Nov 4) moved to `instant`, in WCF's milliseconds.
    static func measured(_ instant: String) -> (String, String) {
        let date = ISO8601.parse(instant)?.instant ?? Date(timeIntervalSince1970: 0)
        return ("1762300800000", String(Int(date.timeIntervalSince1970) * 1_000))
    }

    /// Everett-Seattle (26.7 mi, 45 min on average) reading `minutes`.
    static func everett(_ minutes: Int) -> (String, String) {
        ("\"CurrentTime\":34,\"TravelTimeID\":1,", "\"CurrentTime\":\(minutes),\"TravelTimeID\":1,")
    }

    /// A generated timetable of `transit_truth.py` (loop.zip, only-2030.zip).
    func timetable(_ name: String) throws -> String {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("truth-\(UUID().uuidString)").path
        _ = try execute(["python3", Paths.root.appendingPathComponent("Tests/Support/transit_truth.py").path, out], environment: ["PATH": "/usr/bin:/bin"])
        return out + "/" + name
    }

    /// A realtime feed of the sample morning dated `time`, with trips delayed (seconds) or
    /// cancelled (`cancel`), written where the sandbox's transit feed reads it.
    func realtime(_ path: String, at time: String, _ changes: [String]) throws {
        let outcome = try execute(
            ["python3", Paths.root.appendingPathComponent("Tests/Support/transit_sample.py").path, "feed", path, time] + changes,
            environment: ["PATH": "/usr/bin:/bin"])
        try #require(outcome.status == 0, "\(outcome)")
    }

    // MARK: 1. An absurd number with no history behind it

    @Test func anAbsurdReadingWithNoHistoryIsHeldBackUntilASecondConfirmsIt() throws {
        let sandbox = Sandbox(runner: .binary)
        try sandbox.ok(["refresh", "--source", Paths.fixture, "--now", Paths.capturedAt])
        // No history at all: the feed's own average and the route's length are what judge it.
        try sandbox.ok(["config", "set", "history-days", "off"])
        try sandbox.ok(["favorites", "add", "1"])
        try sandbox.ok(["schedule", "add", "--arrive-by", "9:00", "--days", "weekdays", "--route", "1", "--now", Paths.capturedAt])
        let absurd = try feed(sandbox, "absurd", [Self.measured("2025-11-05T07:20:00-08:00"), Self.everett(760)])
        let refresh = try sandbox.run(["refresh", "--source", absurd, "--now", "2025-11-05T07:22:00-08:00"])
        #expect(refresh == Outcome(status: 0, stdout: """
            Refreshed 163 routes from \(absurd) (3 without data); 5 alerts scheduled (cap 64).

            """, stderr: """
            traveltimes: warning: WSDOT reported 760 min for Everett-Seattle (usually 45) (held back until a second reading confirms it)

            """), "\(refresh)")
        let route = try #require((try sandbox.json(["routes", "--favorites", "--json", "--now", "2025-11-05T07:22:00-08:00"]) as? [[String: Any]])?.first)
        #expect(route["suspicious"] as? Bool == true && route["suspiciousMinutes"] as? Int == 760 && route["currentMinutes"] is NSNull)
        // The leave alert plans on the usual time and says why: never "591 min late".
        let alert = try sandbox.ok(["tick", "--now", "2025-11-05T08:10:00-08:00"]).stdout
        #expect(alert == """
            Leave now to arrive by 9:00 AM
            WSDOT reported 760 min for Everett-Seattle (usually 45); ignored until confirmed
            Expected arrival 8:55 AM by Everett-Seattle (no current times: its usual time)


            """, "\(alert)")
        // The same reading again is no confirmation; a later one saying the same is.
        try sandbox.ok(["refresh", "--quiet", "--source", absurd, "--now", "2025-11-05T07:25:00-08:00"])
        let again = try #require((try sandbox.json(["routes", "--favorites", "--json", "--now", "2025-11-05T07:25:00-08:00"]) as? [[String: Any]])?.first)
        #expect(again["suspicious"] as? Bool == true)
        let later = try feed(sandbox, "later", [Self.measured("2025-11-05T07:35:00-08:00"), Self.everett(760)])
        try sandbox.ok(["refresh", "--source", later, "--now", "2025-11-05T07:36:00-08:00"])
        let confirmed = try #require((try sandbox.json(["routes", "--favorites", "--json", "--now", "2025-11-05T07:36:00-08:00"]) as? [[String: Any]])?.first)
        #expect(confirmed["suspicious"] as? Bool == false && confirmed["currentMinutes"] as? Int == 760)
    }

    @Test func aReadingImpossibleOverTheDistanceIsHeldBackWithoutAnAverage() throws {
        let sandbox = Sandbox(runner: .binary)
        try sandbox.ok(["refresh", "--source", Paths.fixture, "--now", Paths.capturedAt])
        try sandbox.ok(["favorites", "add", "1"])
        // No average to judge by: 26.7 miles in 1 minute is faster than any road; in 600, slower
        // than walking it.
        for (minutes, name) in [(1, "fast"), (600, "slow")] {
            let path = try feed(sandbox, name, [
                Self.measured("2025-11-05T07:20:00-08:00"), Self.everett(minutes),
                ("\"Name\":\"Everett-Seattle\",\"AverageTime\":45}", "\"Name\":\"Everett-Seattle\",\"AverageTime\":0}"),
            ])
            let outcome = try sandbox.run(["refresh", "--source", path, "--now", "2025-11-05T07:22:00-08:00"])
            #expect(outcome.stderr == "traveltimes: warning: WSDOT reported \(minutes) min for Everett-Seattle (held back until a second reading confirms it)\n", "\(outcome)")
            let route = try #require((try sandbox.json(["routes", "--favorites", "--json", "--now", "2025-11-05T07:22:00-08:00"]) as? [[String: Any]])?.first)
            #expect(route["suspiciousMinutes"] as? Int == minutes && route["currentMinutes"] is NSNull, "\(route)")
            try sandbox.ok(["refresh", "--quiet", "--source", Paths.fixture, "--now", "2025-11-05T07:23:00-08:00"])
        }
    }

    @Test func aBusDelayOutsideWhatTheTripCanBeIsHeldBackUntilConfirmed() throws {
        let sandbox = Sandbox(runner: .binary)
        let feed = sandbox.home + "-tripupdates.pb"
        try realtime(feed, at: "07:45", ["545-0757=36000"])
        try sandbox.ok(["transit", "add", "metro", "--static", Paths.transit("metro-gtfs.zip"), "--realtime", feed, "--now", TransitTests.at("07:00")])
        try sandbox.ok(["route", "add", "bus", "--transit", "metro", "--from-stop", "1201", "--to-stop", "2301", "--line", "545", "--walk", "6m",
            "--name", "Bus", "--now", TransitTests.at("07:00")])
        try sandbox.ok(["favorites", "add", "bus"])
        // Ten hours late on a 44-minute trip: the timetable stands until the next feed says it too.
        let refresh = try sandbox.run(["refresh", "--now", TransitTests.at("07:50")])
        #expect(refresh.stderr == "traveltimes: warning: The realtime feed reported 644 min for Bus (usually 44) (held back until a second reading confirms it)\n", "\(refresh)")
        let card = try sandbox.ok(["route", "bus", "--now", TransitTests.at("07:50")]).stdout
        #expect(card == """
            Bus (route bus)  * favorite
              Capitol Hill Station Bay 2 → Redmond Technology Station (545)
              From:     Capitol Hill Station Bay 2 (stop 1201)
              To:       Redmond Technology Station (stop 2301)
              Source:   transit feed metro, line 545
              Next:     545 to Redmond: 7:57 AM (timetable; the feed's +600 min held back until confirmed), then 8:12 AM (timetable), 8:27 AM (timetable); walk 6 min: leave by 7:51 AM
              Trip:     - (walk 6 min, then the ride; timetable 44 min)
              Delay:    unknown: the realtime feed says nothing of the next bus
              Arrive:   8:35 AM if you leave now
              Updated:  7:50 AM (0 min ago)
              Schedules: none

            """, "\(card)")
        let json = try #require(try sandbox.json(["route", "bus", "--json", "--now", TransitTests.at("07:50")]) as? [String: Any])
        #expect(json["suspicious"] as? Bool == true && json["suspiciousMinutes"] as? Int == 644 && json["currentMinutes"] is NSNull, "\(json)")
        // A later feed that says it too confirms it: that bus leaves at 5:57 PM, and the next
        // one to take is the 8:12.
        try realtime(feed, at: "07:52", ["545-0757=36000"])
        try sandbox.ok(["refresh", "--quiet", "--now", TransitTests.at("07:52")])
        let confirmed = try #require(try sandbox.json(["route", "bus", "--json", "--now", TransitTests.at("07:52")]) as? [String: Any])
        #expect(confirmed["suspicious"] as? Bool == false && confirmed["currentMinutes"] as? Int == 44, "\(confirmed)")
        let late = try #require((confirmed["departures"] as? [[String: Any]])?.first { $0["trip"] as? String == "545-0757" })
        #expect(late["predicted"] as? String == "2030-01-15T17:57:00-08:00" && late["delayMinutes"] as? Int == 600, "\(late)")
    }

    // MARK: 2. Stale road data beside a fresh transit feed

    @Test func eachSourcesAgeIsSaidWhereverItsRoutesAreShown() throws {
        let sandbox = Sandbox(runner: .binary)
        try sandbox.ok(["refresh", "--source", Paths.fixture, "--now", Paths.capturedAt])
        try sandbox.ok(["favorites", "add", "1", "96"])
        let now = "2026-11-26T07:50:00-08:00"
        try sandbox.ok(["transit", "add", "metro", "--static", Paths.transit("metro-gtfs.zip"), "--now", now])
        try sandbox.ok(["route", "add", "bus", "--transit", "metro", "--from-stop", "CH", "--to-stop", "2301", "--name", "Bus", "--now", now])
        try sandbox.ok(["favorites", "add", "bus"])
        try sandbox.ok(["refresh", "--now", now])
        let routes = try sandbox.ok(["routes", "--favorites", "--now", now]).stdout
        #expect(routes.hasPrefix("""
            Updated: wsdot Tue, Nov 4, 2025, 4:00 PM; transit metro timetable only
            stale: wsdot: the data is 386 days old; run `traveltimes refresh`

            """), "\(routes)")
        let brief = try sandbox.ok(["brief", "--now", now]).stdout
        #expect(brief == """
            Your morning commute looked clear when last measured, 386 days ago. Everett-Seattle is on time at 34 min, and Seattle-Bellevue via 90 is on time at 14 min. Bus takes 38 min by the timetable (no live data).
            stale: wsdot: the data is 386 days old; run `traveltimes refresh`

            """, "\(brief)")
        let status = try sandbox.ok(["status", "--now", now]).stdout
        #expect(status.contains(
            "\nRoutes:     164 (3 without data); updated wsdot Tue, Nov 4, 2025, 4:00 PM (386 days ago, stale); transit metro timetable only\n"),
            "\(status)")
        let card = try sandbox.ok(["route", "1", "--now", now]).stdout
        #expect(card == """
            Everett-Seattle (route 1)  * favorite
              Everett to Downtown Seattle
              From:     I-5 @ 41st St in Everett, road 005, heading S, milepost 192.55
              To:       I-5 @ University St in Seattle, road 005, heading S, milepost 165.83
              Distance: 26.7 mi
              Now:      34 min (usually 45 min)
              Delay:    -11 min, CLEAR
              Arrive:   8:24 AM if you leave now
              Updated:  Tue, Nov 4, 2025, 4:00 PM (386 days ago)
              stale: the data is 386 days old; run `traveltimes refresh`
              Schedules: none

            """, "\(card)")
        let json = try #require(try sandbox.json(["status", "--json", "--now", now]) as? [String: Any])
        let sources = try #require((json["routes"] as? [String: Any])?["sources"] as? [[String: Any]])
        #expect(sources as NSArray == [
            ["source": "wsdot", "updatedAt": "2025-11-04T16:00:00-08:00", "stale": true] as NSDictionary,
            ["source": "transit metro", "updatedAt": NSNull(), "stale": false] as NSDictionary,
        ] as NSArray)
    }

    // MARK: 3. A problem mends when its cause is gone

    @Test func oldDataStaysAProblemUntilFreshDataComes() throws {
        let sandbox = Sandbox(runner: .binary)
        try sandbox.ok(["refresh", "--source", Paths.fixture, "--now", Paths.capturedAt])
        try sandbox.ok(["favorites", "add", "1"])
        try sandbox.ok(["schedule", "add", "--preset", "morning", "--now", Paths.capturedAt])
        let first = try sandbox.ok(["tick", "--now", "2025-11-05T06:01:00-08:00"]).stdout
        #expect(first == """
            Alerts may be wrong: travel times are 14 h old
            The travel times are 14 h old (measured Tue, Nov 4, 4:00 PM); refresh has not run since Tue, Nov 4, 4:00 PM.
            Fix: run refresh every few minutes: `traveltimes install systemd` (or `install cron`).
            Affected: Commute at 7:00 AM (Weekdays), due 7:00 AM.


            """, "\(first)")
        // The 7:00 alert goes out with its old data; the problem is not over because it went by.
        let seven = try sandbox.ok(["tick", "--now", "2025-11-05T07:00:00-08:00"]).stdout
        #expect(seven == """
            Commute at 7:00 AM (Weekdays)
            Everett-Seattle: 34 min (-11 min, CLEAR)
            Data is 15 h old (updated Tue, Nov 4, 4:00 PM)


            """, "\(seven)")
        for time in ["07:01", "08:00"] { #expect(try sandbox.ok(["tick", "--now", "2025-11-05T\(time):00-08:00"]).stdout.isEmpty) }
        // Fresh data is what ends it.
        let fresh = try feed(sandbox, "fresh", [Self.measured("2025-11-05T08:45:00-08:00")])
        try sandbox.ok(["refresh", "--quiet", "--source", fresh, "--now", "2025-11-05T08:50:00-08:00"])
        let mended = try sandbox.ok(["tick", "--now", "2025-11-05T08:51:00-08:00"]).stdout
        #expect(mended == """
            Alerts are current again
            The problem that began Tue, Nov 4, 4:00 PM is over: the travel times are current again.


            """, "\(mended)")
    }

    // MARK: 4. A moved transit leave alert names what moved it

    @Test func aMovedLeaveAlertNamesTheBusItWasOn() throws {
        let sandbox = Sandbox(runner: .binary)
        let feed = sandbox.home + "-tripupdates.pb"
        // 7:15: the 7:57 runs 4 min late and would arrive 8:39, after 8:36: the plan is the 7:42.
        try realtime(feed, at: "07:15", ["545-0757=240"])
        try sandbox.ok(["transit", "add", "metro", "--static", Paths.transit("metro-gtfs.zip"), "--realtime", feed, "--now", TransitTests.at("07:00")])
        try sandbox.ok(["route", "add", "bus", "--transit", "metro", "--from-stop", "1201", "--to-stop", "2301", "--line", "545", "--name", "Bus",
            "--now", TransitTests.at("07:00")])
        try sandbox.ok(["favorites", "add", "bus"])
        try sandbox.ok(["schedule", "add", "--route", "bus", "--arrive-by", "8:36", "--buffer", "0m", "--days", "weekdays", "--now", TransitTests.at("07:00")])
        try sandbox.ok(["refresh", "--quiet", "--now", TransitTests.at("07:15")])
        let planned = try sandbox.ok(["pending", "--now", TransitTests.at("07:15")]).stdout
        #expect(planned.contains("""
            Tue, Jan 15, 7:42 AM  Leave now for the 545 to Redmond at 7:42 AM to arrive by 8:36 AM
                The 7:57 AM is 4 min late and would arrive 8:39 AM: take the 7:42 AM

            """), "\(planned)")
        // 7:20: the 7:42 is cancelled. What moved the plan is the 7:42, not the late 7:57.
        try realtime(feed, at: "07:20", ["545-0757=240", "545-0742=cancel"])
        try sandbox.ok(["refresh", "--quiet", "--now", TransitTests.at("07:20")])
        let alert = try sandbox.ok(["tick", "--now", TransitTests.at("07:27")]).stdout
        #expect(alert == """
            Leave now for the 545 to Redmond at 7:27 AM to arrive by 8:36 AM
            The 7:42 AM is cancelled: take the 7:27 AM
            Bus: the 545 to Redmond at 7:27 AM (timetable) from Capitol Hill Station Bay 2, arriving Redmond Technology Station at 8:05 AM


            """, "\(alert)")
    }

    // MARK: 5. A loop trip's second call

    @Test func bothCallsOfALoopTripAreDepartures() throws {
        let sandbox = Sandbox(runner: .binary)
        try sandbox.ok(["transit", "add", "loop", "--static", try timetable("loop.zip"), "--now", "2030-01-15T07:00:00-08:00"])
        let added = try sandbox.ok(["route", "add", "loop-a-b", "--transit", "loop", "--from-stop", "A", "--to-stop", "B", "--name", "A to B",
            "--now", "2030-01-15T07:00:00-08:00"]).stdout
        #expect(added == "Added route loop-a-b: A to B.\nNext: 1 to Loop: 8:00 AM, then 8:30 AM, Wed, Jan 16, 8:00 AM; leave by 8:00 AM; timetable times, no live data\n", "\(added)")
        let json = try #require(try sandbox.json(["route", "loop-a-b", "--json", "--now", "2030-01-15T07:00:00-08:00"]) as? [String: Any])
        let departures = try #require(json["departures"] as? [[String: Any]])
        #expect(departures.prefix(2).map { "\($0["scheduled"] ?? "") → \($0["arrival"] ?? "")" } == [
            "2030-01-15T08:00:00-08:00 → 2030-01-15T08:10:00-08:00", "2030-01-15T08:30:00-08:00 → 2030-01-15T08:40:00-08:00",
        ])
    }

    // MARK: 8. The bundled bus feed, today; a timetable with no service says why

    @Test func theSampleFeedRunsTodayAndAFeedOutOfItsDatesSaysWhy() throws {
        let sandbox = Sandbox(runner: .binary)
        let today = "2026-11-26T07:00:00-08:00"  // a Thursday, far from the realtime morning of 2030
        try sandbox.ok(["transit", "add", "metro", "--static", Paths.transit("metro-gtfs.zip"), "--now", today])
        let added = try sandbox.ok(["route", "add", "bus", "--transit", "metro", "--from-stop", "CH", "--to-stop", "2301", "--now", today]).stdout
        #expect(added.hasSuffix("\nNext: 542 to Redmond TC: 7:05 AM, then 7:12 AM (545 to Redmond), 7:27 AM (545 to Redmond); leave by 7:05 AM; timetable times, no live data\n"), "\(added)")
        // The sample as it was, with service in 2030 alone: the route says so, and doctor warns.
        try sandbox.ok(["transit", "add", "old", "--static", try timetable("only-2030.zip"), "--now", today])
        let old = try sandbox.ok(["route", "add", "old-bus", "--transit", "old", "--from-stop", "CH", "--to-stop", "2301", "--now", today]).stdout
        #expect(old.hasSuffix("\nNext: no departure in the next day and a half: its timetable has service only from Tue, Jan 1, 2030 to Tue, Dec 31, 2030\n"), "\(old)")
        let doctor = try sandbox.run(["doctor", "--now", today])
        #expect(doctor.stdout.contains("""
            warning  route old-bus  no departure in the next day and a half: its timetable has service only from Tue, Jan 1, 2030 to Tue, Dec 31, 2030
                                    → check the feed's dates with `traveltimes route old-bus`; a newer timetable comes with `traveltimes refresh`

            """), "\(doctor)")
    }

    // MARK: 9. Asked about another day

    @Test func aRouteAskedAboutAnotherDayAnswersForThatDay() throws {
        let sandbox = Sandbox(runner: .binary)
        try sandbox.ok(["transit", "add", "metro", "--static", Paths.transit("metro-gtfs.zip"), "--realtime", Paths.transit("realtime-0715.pb"),
            "--now", TransitTests.at("07:00")])
        try sandbox.ok(["route", "add", "bus", "--transit", "metro", "--from-stop", "1201", "--to-stop", "2301", "--line", "545", "--now", TransitTests.at("07:00")])
        try sandbox.ok(["refresh", "--now", TransitTests.at("07:15")])
        // Christmas before, on the timetable of that day, with no live data: not January 15's buses.
        let json = try #require(try sandbox.json(["route", "bus", "--json", "--now", "2029-12-25T09:00:00-08:00"]) as? [String: Any])
        let first = try #require((json["departures"] as? [[String: Any]])?.first)
        #expect(first["scheduled"] as? String == "2029-12-25T09:12:00-08:00" && first["predicted"] is NSNull, "\(first)")
        #expect((json["transit"] as? [String: Any])?["realtimeAt"] is NSNull)
        // The morning the refresh planned is still its own, live data and all.
        let live = try #require(try sandbox.json(["route", "bus", "--json", "--now", TransitTests.at("07:50")]) as? [String: Any])
        let next = try #require((live["departures"] as? [[String: Any]])?.first)
        #expect(next["scheduled"] as? String == "2030-01-15T07:57:00-08:00" && next["delayMinutes"] as? Int == 4, "\(next)")
    }
}
