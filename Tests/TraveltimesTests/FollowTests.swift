import Foundation
import TestThreads
import Testing

/// After "leave now": the trip a leave alert named is followed until its line leaves, and the
/// alert is updated once for each change that matters (`Alerts+Follow.swift`), against the
/// Transitous stand-in, whose itineraries are a recorded answer re-timed
/// (`Tests/Support/transitous_server.py`: `plan` and `refresh-itinerary`).
@Suite(.ownThreads) struct FollowTests {
    /// The 9:00 arrival's leave alert at 8:11 AM names the 8:17 AM bus (a 6-minute walk first);
    /// then the stand-in is steered with `control`. The requests after the leave alert are
    /// counted from there.
    func leaveAlert(_ control: String, configure: [[String]] = []) throws -> (TransitousServer, Sandbox, Int) {
        let server = try TransitousServer()
        let sandbox = try TransitousTests().prepared(server)
        try sandbox.ok(["favorites", "add", "bus"])
        try sandbox.ok(["notify", "add", "stdout"])
        for arguments in configure { try sandbox.ok(arguments) }
        try sandbox.ok(["schedule", "add", "--arrive-by", "9:00", "--buffer", "5m", "--heads-up", "off", "--route", "bus", "--days", "weekdays", "--now", "2026-11-24T06:00:00-08:00"])
        try sandbox.ok(["refresh", "--now", "2026-11-24T07:40:00-08:00"])
        #expect(try sandbox.ok(["tick", "--now", "2026-11-24T08:11:00-08:00"]).stdout == """
            Leave now for the 545 to Redmond at 8:17 AM to arrive by 9:00 AM
            home → work (Transitous): leave 8:11 AM for the 545 to Redmond at 8:17 AM from Stop A, arriving work at 8:51 AM
            Timetable times: no live data


            """)
        try server.steer(control)
        return (server, sandbox, server.requests().count)
    }

    /// The requests sent after `since`: path, and the itinerary or time asked.
    func asked(_ server: TransitousServer, since: Int) -> [String] {
        server.requests().dropFirst(since).map { request in
            request.path + " " + (request.query["itineraryId"] ?? request.query["time"] ?? "")
        }
    }

    @Test func aCancelledTripUpdatesItsAlertOnceWithTheNextToTake() throws {
        let (server, sandbox, before) = try leaveAlert(#"{"cancel": ["16:17"]}"#)
        // Not yet due a look: nothing asked, nothing said.
        #expect(try sandbox.ok(["tick", "--now", "2026-11-24T08:13:00-08:00"]).stdout == "")
        #expect(asked(server, since: before) == [])
        #expect(try sandbox.ok(["tick", "--now", "2026-11-24T08:14:00-08:00"]).stdout == """
            Your 8:17 AM 545 to Redmond is cancelled: take the 8:32 AM (leave 8:26 AM)
            The 545 to Redmond arrives 9:06 AM, 6 min late


            """)
        // The same itinerary asked again by its ID, then the plan from when the rider left for the next run.
        #expect(asked(server, since: before) == ["/api/v6/refresh-itinerary it-20261124T1617", "/api/v6/plan 2026-11-24T16:11:00Z"])
        // `status` and `doctor` say what following costs.
        let following = "1 trip followed until its line leaves, 2 requests so far (each asked at most every 6 min, "
            + "at most 6 requests a trip, none for a GTFS route; follow-threshold 5 min)"
        let status = try sandbox.ok(["status", "--now", "2026-11-24T08:15:00-08:00"]).stdout
        #expect(status.contains("\nFollowing:  \(following)\n"), "\(status)")
        let doctor = try sandbox.run(["doctor", "--now", "2026-11-24T08:15:00-08:00"]).stdout
        #expect(doctor.contains(following), "\(doctor)")
        // Said once: the next looks follow the 8:32 AM (at 8:20, 8:26 and 8:29), which runs as planned.
        for minute in [16, 19, 20, 24, 26, 29] {
            #expect(try sandbox.ok(["tick", "--now", "2026-11-24T08:\(minute):00-08:00"]).stdout == "")
        }
        #expect(Array(asked(server, since: before).dropFirst(2)) == Array(repeating: "/api/v6/refresh-itinerary it-20261124T1632", count: 3))
        let delivered = try sandbox.ok(["delivered", "--now", "2026-11-24T08:30:00-08:00"]).stdout
        // Columns as cells (the schedule's ID differs from run to run).
        let rows = delivered.split(separator: "\n").map { row in
            row.replacingOccurrences(of: #"schedule\.[0-9a-f]{8}"#, with: "schedule.ID", options: .regularExpression)
                .replacingOccurrences(of: #" {2,}"#, with: " | ", options: .regularExpression).trimmingCharacters(in: CharacterSet(charactersIn: " |"))
        }
        #expect(rows == [
            "DUE | OUTCOME | ALERT | NOTIFIER | NOTE",
            "Tue, Nov 24, 9:00 AM | updated | schedule.ID.weekday.3 | 1 | followed (cancelled): Your 8:17 AM 545 to Redmond is cancelled: take the 8:32 AM (leave 8:26 AM)",
            "Tue, Nov 24, 9:00 AM | delivered | schedule.ID.weekday.3 | 1",
        ], "\(delivered)")
        let json = try #require(try sandbox.json(["delivered", "--json", "--now", "2026-11-24T08:30:00-08:00"]) as? [[String: Any]])
        #expect(json.first?["action"] as? String == "updated")
        #expect(json.first?["reason"] as? String == "followed (cancelled): Your 8:17 AM 545 to Redmond is cancelled: take the 8:32 AM (leave 8:26 AM)")
    }

    @Test func onNtfyTheLeaveAlertItselfIsChangedInPlace() throws {
        let channel = try ChannelServer()
        let (server, sandbox, _) = try leaveAlert(#"{"cancel": ["16:17"]}"#, configure: [["notify", "add", "ntfy://\(channel.host)/commute"]])
        let tick = try sandbox.run(["tick", "--now", "2026-11-24T08:14:00-08:00"])
        let delivered = try sandbox.run(["delivered", "--now", "2026-11-24T08:14:00-08:00"])
        let context = "\(tick)\n\(delivered)\n\(server.requests().map(\.path))\n\((try? String(contentsOfFile: sandbox.home + "/alerts.json", encoding: .utf8)) ?? "")"
        #expect(tick.stdout.hasPrefix("Your 8:17 AM"), "\(context)")
        let messages = try #require((try channel.state()["ntfy"] as? [String: [[String: Any]]])?["commute"])
        // One notification: the leave alert, now saying what to do instead.
        #expect(messages.count == 1, "\(messages)")
        let id = try #require(messages.first?["sequence"] as? String)
        #expect(messages.first?["versions"] as? Int == 2, "\(messages)")
        let requests = channel.requests().filter { $0.path.hasPrefix("/commute") }
        #expect(requests.map { "\($0.method) \($0.path)" } == ["POST /commute", "POST /commute/\(id)"])
        #expect(decodeTitle(requests[1].headers["Title"]) == "Your 8:17 AM 545 to Redmond is cancelled: take the 8:32 AM (leave 8:26 AM)")
    }

    @Test func homeAssistantCarriesTheFollowedTripAsItIsNow() throws {
        let home = try SteeredServer(script: "homeassistant_server.py")
        let server = try TransitousServer()
        let sandbox = try TransitousTests().prepared(server)
        try sandbox.ok(["favorites", "add", "bus"])
        try sandbox.ok(["notify", "add", "stdout"])
        try sandbox.ok(["schedule", "add", "--arrive-by", "9:00", "--buffer", "5m", "--heads-up", "off", "--route", "bus", "--days", "weekdays", "--now", "2026-11-24T06:00:00-08:00"])
        try sandbox.ok(["refresh", "--now", "2026-11-24T07:40:00-08:00"])
        let added = try sandbox.run(["export", "add", "homeassistant", home.base, "--token", "-", "--now", "2026-11-24T07:41:00-08:00"], stdin: "good-token\n")
        #expect(added.status == 0, "\(added)")
        try sandbox.ok(["tick", "--now", "2026-11-24T08:11:00-08:00"])
        try server.steer(#"{"cancel": ["16:17"]}"#)
        try sandbox.ok(["tick", "--now", "2026-11-24T08:14:00-08:00"])
        // The sensor's last two states: the trip as the leave alert named it, then as followed.
        let trips = home.entries().suffix(2).map { entry -> String in
            let body = (entry["body"] as? String).flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            let trip = (body?["attributes"] as? [String: Any])?["followed_trip"]
            return (trip.flatMap { try? JSONSerialization.data(withJSONObject: $0, options: [.sortedKeys]) }).map { String(decoding: $0, as: UTF8.self) } ?? "none"
        }
        #expect(trips == [
            #"{"arrives":"2026-11-24T08:51:00-08:00","leave_door":"2026-11-24T08:11:00-08:00","leaves_stop":"2026-11-24T08:17:00-08:00","line":"545 to Redmond","stopped":null,"update":null}"#,
            #"{"arrives":"2026-11-24T09:06:00-08:00","leave_door":"2026-11-24T08:26:00-08:00","leaves_stop":"2026-11-24T08:32:00-08:00","line":"545 to Redmond","stopped":null,"update":"Your 8:17 AM 545 to Redmond is cancelled: take the 8:32 AM (leave 8:26 AM)"}"#,
        ], "\(home.entries())")
    }

    @Test func aDelayThatStillArrivesInTimeIsSaidOnceAndNothingChangedSendsNothing() throws {
        let (server, sandbox, before) = try leaveAlert(#"{"delays": {"16:17": 6}}"#)
        #expect(try sandbox.ok(["tick", "--now", "2026-11-24T08:14:00-08:00"]).stdout == """
            The 8:17 AM 545 to Redmond runs 6 min late: you still arrive 8:57 AM



            """)
        #expect(try sandbox.ok(["tick", "--now", "2026-11-24T08:17:00-08:00"]).stdout == "")
        #expect(try sandbox.ok(["tick", "--now", "2026-11-24T08:19:00-08:00"]).stdout == "")
        #expect(try sandbox.ok(["tick", "--now", "2026-11-24T08:22:00-08:00"]).stdout == "")
        // One request a look (8:14, 8:19, 8:22), the last 2 minutes before the late bus leaves at 8:23 AM.
        #expect(asked(server, since: before) == Array(repeating: "/api/v6/refresh-itinerary it-20261124T1617", count: 3))

        // Nothing changed: looked at, nothing sent.
        let (quietServer, quiet, quietBefore) = try leaveAlert("{}")
        for minute in 12...17 {
            #expect(try quiet.ok(["tick", "--now", "2026-11-24T08:\(minute):00-08:00"]).stdout == "")
        }
        // One look, at 8:14: the bus leaves at 8:17, and a look after 8:15 would find the rider at the stop.
        #expect(asked(quietServer, since: quietBefore) == ["/api/v6/refresh-itinerary it-20261124T1617"])
        #expect(!(try quiet.ok(["delivered", "--now", "2026-11-24T08:30:00-08:00"]).stdout.contains("updated")))
    }

    @Test func withoutTheItineraryEndpointThePlanIsMatchedAndALateArrivalSaysSo() throws {
        let (server, sandbox, before) = try leaveAlert(#"{"delays": {"16:17": 14}, "refreshFault": 404}"#)
        #expect(try sandbox.ok(["tick", "--now", "2026-11-24T08:14:00-08:00"]).stdout == """
            The 8:17 AM 545 to Redmond runs 14 min late: you arrive 9:05 AM, 5 min late



            """)
        #expect(try sandbox.ok(["tick", "--now", "2026-11-24T08:20:00-08:00"]).stdout == "")
        // Refused once, the ID is not asked for again: one plan a look.
        #expect(asked(server, since: before) == [
            "/api/v6/refresh-itinerary it-20261124T1617", "/api/v6/plan 2026-11-24T16:11:00Z", "/api/v6/plan 2026-11-24T16:20:00Z",
        ])
    }

    /// A refresh-itinerary answer that is not an itinerary is no news of the trip: the plan is
    /// asked and matched, as when the endpoint refuses.
    @Test(arguments: ["garbage", "shape"]) func aHostileItineraryAnswerFallsBackToThePlan(fault: String) throws {
        // The stand-in lives as long as `server` does: held to the end.
        let (server, sandbox, _) = try leaveAlert("{\"delays\": {\"16:17\": 14}, \"refreshFault\": \"\(fault)\"}")
        defer { withExtendedLifetime(server) {} }
        let tick = try sandbox.run(["tick", "--now", "2026-11-24T08:14:00-08:00"])
        #expect(tick.status == 0 && tick.stderr == "", "\(tick)")
        #expect(tick.stdout.trimmingCharacters(in: .newlines) == "The 8:17 AM 545 to Redmond runs 14 min late: you arrive 9:05 AM, 5 min late", "\(tick)")
    }

    @Test func aSpentBudgetStopsFollowingAndSaysSoAndOffFollowsNothing() throws {
        let (server, sandbox, before) = try leaveAlert(#"{"cancel": ["16:17"]}"#)
        try sandbox.ok(["config", "set", "budget.transitous", "0"])
        #expect(try sandbox.ok(["tick", "--now", "2026-11-24T08:14:00-08:00"]).stdout == "")
        #expect(try sandbox.ok(["tick", "--now", "2026-11-24T08:16:00-08:00"]).stdout == "")
        #expect(asked(server, since: before) == [])
        let delivered = try sandbox.ok(["delivered", "--now", "2026-11-24T08:30:00-08:00"]).stdout
        #expect(delivered.contains("unchanged  schedule."), "\(delivered)")
        #expect(delivered.contains("following stopped: Transitous's daily budget of 0 requests is spent (`config set budget.transitous N`)"), "\(delivered)")
        #expect(delivered.components(separatedBy: "following stopped").count == 2, "said once: \(delivered)")

        let (offServer, off, offBefore) = try leaveAlert(#"{"cancel": ["16:17"]}"#, configure: [["config", "set", "follow-threshold", "off"]])
        #expect(try off.ok(["tick", "--now", "2026-11-24T08:14:00-08:00"]).stdout == "")
        #expect(asked(offServer, since: offBefore) == [])
    }
}


/// A GTFS route's trip is followed in the realtime feed each refresh reads: no request of its own.
@Suite(.ownThreads) struct FollowGTFSTests {
    /// The sample agency with a 30-minute walk to Capitol Hill: the 7:57 AM bus (4 min late in the
    /// 7:15 feed) is left for at 7:31 AM, and followed for half an hour; the 7:30 feed cancels it.
    @Test func aGTFSTripCancelledAfterItsLeaveAlertNamesTheNextBus() throws {
        let server = try TransitServer()
        let sandbox = Sandbox(runner: .binary)
        try server.serve(Paths.transit("metro-gtfs.zip"), as: "gtfs.zip")
        try server.serve(Paths.transit("realtime-0715.pb"), as: "tripupdates.pb")
        try sandbox.ok(["transit", "add", "metro", "--static", server.url("gtfs.zip"), "--realtime", server.url("tripupdates.pb"), "--now", TransitTests.at("07:00")])
        try sandbox.ok(["route", "add", "commute", "--transit", "metro", "--from-stop", "CH", "--to-stop", "2301", "--walk", "30m", "--now", TransitTests.at("07:00")])
        try sandbox.ok(["favorites", "add", "commute"])
        try sandbox.ok(["schedule", "add", "--route", "commute", "--arrive-by", "8:45", "--buffer", "3m", "--heads-up", "off", "--days", "weekdays", "--now", TransitTests.at("07:00")])
        try sandbox.ok(["refresh", "--quiet", "--now", TransitTests.at("07:15")])
        let leave = try sandbox.ok(["tick", "--now", TransitTests.at("07:31")]).stdout
        #expect(leave.hasPrefix("Leave now for the 545 to Redmond at 8:01 AM to arrive by 8:45 AM\n"), "\(leave)")
        // The next feed cancels the 7:57 run, which the rider, walking, can no longer be sent
        // to from the stop's departures: the refresh keeps it in view, the next look says so.
        try server.serve(Paths.transit("realtime-0730.pb"), as: "tripupdates.pb")
        try sandbox.ok(["refresh", "--quiet", "--now", TransitTests.at("07:32")])
        let requests = server.requests().count
        #expect(try sandbox.ok(["tick", "--now", TransitTests.at("07:36")]).stdout == "")
        let followed = try sandbox.ok(["tick", "--now", TransitTests.at("07:37")]).stdout
        #expect(followed == """
            Your 7:57 AM 545 to Redmond is cancelled: take the 8:12 AM (leave 7:42 AM)
            The 545 to Redmond arrives 8:50 AM, 5 min late


            """, "\(followed)")
        for minute in 38...45 {
            #expect(try sandbox.ok(["tick", "--now", TransitTests.at("07:\(minute)")]).stdout == "")
        }
        #expect(server.requests().count == requests, "following a GTFS trip asks nothing")
    }
}

/// A GTFS route's service alerts are those in force in the window of its next trip: from now until
/// that trip arrives (the sample's alerts on Bay 2, made by `transit_sample.py alerts`).
@Suite(.ownThreads) struct GTFSAlertWindowTests {
    @Test func onlyTheAlertsOfTheNextTripsWindowAreShown() throws {
        let server = try TransitServer()
        let sandbox = Sandbox(runner: .binary)
        let alerts = sandbox.home + "-alerts.pb"
        defer { try? FileManager.default.removeItem(atPath: alerts) }
        let made = try execute([
            "python3", Paths.root.appendingPathComponent("Tests/Support/transit_sample.py").path, "alerts", alerts, "07:30",
            "Bay 2 elevator out of service@08:00-08:30", "Bay 2 closed for works@06:00-07:00", "Bay 2 repainted@08:00-09:00+1d",
            "<p>Bay&nbsp;2 <b>moved</b> north</p>@07:00-12:00",
        ], environment: ["PATH": "/usr/bin:/bin"])
        #expect(made.status == 0, "\(made)")
        try server.serve(Paths.transit("metro-gtfs.zip"), as: "gtfs.zip")
        try server.serve(Paths.transit("realtime-0730.pb"), as: "tripupdates.pb")
        try server.serve(alerts, as: "alerts.pb")
        try sandbox.ok(["transit", "add", "metro", "--static", server.url("gtfs.zip"), "--realtime", server.url("tripupdates.pb"),
                        "--alerts", server.url("alerts.pb"), "--now", TransitTests.at("07:00")])
        try sandbox.ok(["route", "add", "commute", "--transit", "metro", "--from-stop", "CH", "--to-stop", "2301", "--walk", "6m", "--now", TransitTests.at("07:00")])
        try sandbox.ok(["refresh", "--quiet", "--now", TransitTests.at("07:40")])
        // The next trip that runs is the 8:05 AM 542 (the 7:57 AM is cancelled), arriving 8:50 AM:
        // the elevator (from 8:00) and the moved bay (all morning) are in its window; the works
        // that ended at 7:00 and tomorrow's painting are not. The HTML is taken out.
        let shown = try sandbox.ok(["route", "commute", "--now", TransitTests.at("07:40")]).stdout.components(separatedBy: "\n")
        #expect(shown.filter { $0.contains("Service alert") } == [
            "  Service alert: Bay 2 elevator out of service", "  Service alert: Bay 2 moved north",
        ], "\(shown)")
    }
}
