@_spi(Store) import CommuteCore
import Foundation
import TestThreads
import Testing

/// Arrive-by schedules through the binary: the leave time moving with the traffic, the fastest of
/// several routes, a late plan, a miss past the arrival, the fallbacks without data, and the
/// schedule's own fields.
@Suite(.ownThreads) struct ArriveByTests {
    /// The fixture refreshed at `now`, favorites 1 (34 min now, usually 45) and 4 (48, usually 57),
    /// and "arrive by 9:00 on weekdays" over both.
    func sandbox(at now: String) throws -> Sandbox {
        let sandbox = Sandbox()
        try sandbox.ok(["refresh", "--source", Paths.fixture, "--now", now])
        try sandbox.ok(["favorites", "add", "1", "4"])
        try sandbox.ok(["schedule", "add", "--arrive-by", "9:00", "--days", "weekdays", "--route", "1,4", "--now", now])
        return sandbox
    }

    func first(_ sandbox: Sandbox, _ now: String) throws -> [String: Any] {
        let json = try #require(try sandbox.json(["pending", "--json", "--now", now]) as? [String: Any])
        return try #require((json["requests"] as? [[String: Any]])?.first)
    }

    func feed(_ sandbox: Sandbox, _ name: String, route1: Int, route4: Int) throws -> String {
        try sandbox.feed(name) { routes in
            routes[1]?["CurrentTime"] = route1
            routes[4]?["CurrentTime"] = route4
        }
    }

    @Test func theLeaveTimeMovesWithTheTrafficAndIsSentOnce() throws {
        let sandbox = try sandbox(at: "2025-11-05T07:00:00").withoutHealthAlerts()
        let planned = try first(sandbox, "2025-11-05T07:00:00")
        #expect(planned["nextFire"] as? String == "2025-11-05T08:21:00-08:00")
        #expect(planned["arriveBy"] as? String == "2025-11-05T09:00:00-08:00")
        #expect(planned["title"] as? String == "Leave now to arrive by 9:00 AM")
        #expect(planned["body"] as? String == """
            Everett-Seattle: 34 min (-11 min, CLEAR)
            Seattle-Everett: 48 min (-9 min, CLEAR)
            Expected arrival 8:55 AM by Everett-Seattle
            Data is 16 h old (updated Tue, Nov 4, 4:00 PM)
            """)
        // Traffic: route 1 slows to an hour, 4 to 50 min. The leave time moves, and 4 leads.
        let slower = try feed(sandbox, "slower", route1: 60, route4: 50)
        try sandbox.ok(["refresh", "--source", slower, "--now", "2025-11-05T07:30:00"])
        let moved = try first(sandbox, "2025-11-05T07:30:00")
        #expect(moved["nextFire"] as? String == "2025-11-05T08:05:00-08:00")
        #expect((moved["body"] as? String)?.hasPrefix("Seattle-Everett: 50 min (-7 min, CLEAR)\nEverett-Seattle: 60 min (+15 min, CONGESTED)\n") == true)
        #expect(Whole.normal(try sandbox.ok(["pending", "--now", "2025-11-05T07:30:00"]).stdout) == """
            5 alerts scheduled (cap 64); 0 deferred.

            Wed, Nov 5, 8:05 AM  Leave now to arrive by 9:00 AM
                Seattle-Everett: 50 min (-7 min, CLEAR)
                Everett-Seattle: 60 min (+15 min, CONGESTED)
                Expected arrival 8:55 AM by Seattle-Everett
                Data is 16 h old (updated Tue, Nov 4, 4:00 PM)
                id schedule.$UUID.weekday.4

            Thu, Nov 6, 8:05 AM  Leave now to arrive by 9:00 AM
                Seattle-Everett: 50 min (-7 min, CLEAR)
                Everett-Seattle: 60 min (+15 min, CONGESTED)
                Expected arrival 8:55 AM by Seattle-Everett
                Data is 40 h old (updated Tue, Nov 4, 4:00 PM)
                id schedule.$UUID.weekday.5

            Fri, Nov 7, 8:05 AM  Leave now to arrive by 9:00 AM
                Seattle-Everett: 50 min (-7 min, CLEAR)
                Everett-Seattle: 60 min (+15 min, CONGESTED)
                Expected arrival 8:55 AM by Seattle-Everett
                Data is 2 days old (updated Tue, Nov 4, 4:00 PM)
                id schedule.$UUID.weekday.6

            Mon, Nov 10, 8:05 AM  Leave now to arrive by 9:00 AM
                Seattle-Everett: 50 min (-7 min, CLEAR)
                Everett-Seattle: 60 min (+15 min, CONGESTED)
                Expected arrival 8:55 AM by Seattle-Everett
                Data is 5 days old (updated Tue, Nov 4, 4:00 PM)
                id schedule.$UUID.weekday.2

            Tue, Nov 11, 8:05 AM  Leave now to arrive by 9:00 AM
                Seattle-Everett: 50 min (-7 min, CLEAR)
                Everett-Seattle: 60 min (+15 min, CONGESTED)
                Expected arrival 8:55 AM by Seattle-Everett
                Data is 6 days old (updated Tue, Nov 4, 4:00 PM)
                id schedule.$UUID.weekday.3

            """)
        // Nothing before the leave time; at it, once.
        #expect(try sandbox.ok(["tick", "--now", "2025-11-05T08:04:00"]).stdout.isEmpty)
        let sent = try sandbox.ok(["tick", "--now", "2025-11-05T08:05:00"]).stdout
        #expect(sent.hasPrefix("Leave now to arrive by 9:00 AM\nSeattle-Everett: 50 min (-7 min, CLEAR)\n"), "\(sent)")
        #expect(sent == """
            Leave now to arrive by 9:00 AM
            Seattle-Everett: 50 min (-7 min, CLEAR)
            Everett-Seattle: 60 min (+15 min, CONGESTED)
            Expected arrival 8:55 AM by Seattle-Everett
            Data is 16 h old (updated Tue, Nov 4, 4:00 PM)


            """)
        for minute in ["08:06", "08:30", "08:59", "09:00", "09:01"] {
            #expect(try sandbox.ok(["tick", "--now", "2025-11-05T\(minute):00"]).stdout.isEmpty, "\(minute)")
        }
        let ledger = try sandbox.store.ledger().entries
        #expect(ledger.filter { $0.outcome == .delivered }.map(\.occurrence) == [try #require(ISO8601.parse("2025-11-05T09:00:00-08:00")?.instant)])
        // The next plan is Thursday's.
        #expect(try first(sandbox, "2025-11-05T08:06:00")["arriveBy"] as? String == "2025-11-06T09:00:00-08:00")
    }

    @Test func aLatePlanIsSentAtOnceAndAnArrivalGoneByIsMissed() throws {
        let sandbox = try sandbox(at: "2025-11-06T08:00:00")
        // At 8:30 the traffic jumps: the fastest is 70 min, so the leave time (7:45) has passed.
        let jammed = try feed(sandbox, "jammed", route1: 70, route4: 75)
        try sandbox.ok(["refresh", "--source", jammed, "--now", "2025-11-06T08:30:00"])
        let late = try sandbox.ok(["tick", "--now", "2025-11-06T08:30:00"]).stdout
        #expect(late.hasPrefix("Leave now: expected arrival 9:40 AM, 40 min late\nEverett-Seattle: 70 min (+25 min, CONGESTED)\n"), "\(late)")
        // Friday: no tick runs until after 9:00 (the machine slept). The arrival is missed, not sent.
        let after = try sandbox.run(["tick", "--now", "2025-11-07T09:05:00"])
        #expect(after.status == 0 && after.stdout.isEmpty && Whole.normal(after.stderr) == "traveltimes: missed schedule.$UUID.weekday.6 due Fri, Nov 7, 9:00 AM: its arrival time, 9:00 AM, went by before it was sent; not delivered\n", "\(after)")
        let missed = try sandbox.store.ledger().entries.filter { $0.outcome == .missed }
        #expect(missed.map(\.occurrence) == [try #require(ISO8601.parse("2025-11-07T09:00:00-08:00")?.instant)])
        #expect(missed.first?.reason == "its arrival time, 9:00 AM, went by before it was sent")
    }

    @Test func withoutCurrentTimesTheUsualOnesAndWithoutThoseAnHourBefore() throws {
        let sandbox = try sandbox(at: "2025-11-05T07:00:00")
        let usual = try feed(sandbox, "usual", route1: 0, route4: 0)
        try sandbox.ok(["refresh", "--source", usual, "--now", "2025-11-05T07:00:00"])
        let onUsual = try first(sandbox, "2025-11-05T07:00:00")
        // Route 1 usually takes 45 min: leave at 8:10.
        #expect(onUsual["nextFire"] as? String == "2025-11-05T08:10:00-08:00")
        #expect((onUsual["body"] as? String)?.hasSuffix("Expected arrival 8:55 AM by Everett-Seattle (no current times: its usual time)\nData is 16 h old (updated Tue, Nov 4, 4:00 PM)") == true, "\(onUsual)")
        let none = try sandbox.feed("none") { routes in
            for id in [1, 4] {
                routes[id]?["CurrentTime"] = 0
                routes[id]?["AverageTime"] = 0
            }
        }
        try sandbox.ok(["refresh", "--source", none, "--now", "2025-11-05T07:00:00"])
        let blind = try first(sandbox, "2025-11-05T07:00:00")
        #expect(blind["nextFire"] as? String == "2025-11-05T08:00:00-08:00")
        #expect(blind["title"] as? String == "Arrive by 9:00 AM: no travel times")
        #expect((blind["body"] as? String)?.hasSuffix("No travel times right now: this is an hour before 9:00 AM.\nData is 16 h old (updated Tue, Nov 4, 4:00 PM)") == true, "\(blind)")
    }

    @Test func aHeadsUpComesBeforeTheLeaveTimeAndBothAreSentOnce() throws {
        let sandbox = try Sandbox().withoutHealthAlerts()
        try sandbox.ok(["refresh", "--source", Paths.fixture, "--now", "2025-11-05T07:00:00"])
        try sandbox.ok(["favorites", "add", "1", "4"])
        try sandbox.ok(["schedule", "add", "--arrive-by", "9:00", "--heads-up", "15m", "--days", "wed", "--route", "1,4", "--now", "2025-11-05T07:00:00"])
        let pending = try #require(try sandbox.json(["pending", "--json", "--now", "2025-11-05T07:00:00"]) as? [String: Any])
        let requests = try #require(pending["requests"] as? [[String: Any]])
        #expect(requests.map { $0["nextFire"] as? String } == ["2025-11-05T08:06:00-08:00", "2025-11-05T08:21:00-08:00"])
        #expect(requests.map { $0["title"] as? String } == ["Leave in 15 min (8:21 AM) to arrive by 9:00 AM", "Leave now to arrive by 9:00 AM"])
        #expect((requests.first?["id"] as? String)?.hasSuffix(".weekday.4.heads-up") == true)
        var sent: [String] = []
        for minute in 4...22 {
            let outcome = try sandbox.ok(["tick", "--now", String(format: "2025-11-05T08:%02d:00", minute)])
            if let title = outcome.stdout.split(separator: "\n").first { sent.append("\(minute) \(title)") }
        }
        #expect(sent == ["6 Leave in 15 min (8:21 AM) to arrive by 9:00 AM", "21 Leave now to arrive by 9:00 AM"])
        // Next week's pair is planned.
        let next = try #require(try sandbox.json(["pending", "--json", "--now", "2025-11-05T08:30:00"]) as? [String: Any])
        #expect((next["requests"] as? [[String: Any]])?.map { $0["arriveBy"] as? String } == ["2025-11-12T09:00:00-08:00", "2025-11-12T09:00:00-08:00"])
    }

    @Test func smartAlertsAndQuietHoursApplyAsToAnyAlert() throws {
        let sandbox = try sandbox(at: "2025-11-05T07:00:00")
        let id = try #require(try sandbox.scheduleIDs().first)
        // Neither route is 10 minutes over its usual time: the smart alert is held back.
        try sandbox.ok(["schedule", "edit", id, "--only-when-delayed", "10", "--now", "2025-11-05T07:00:00"])
        #expect(try sandbox.ok(["tick", "--now", "2025-11-05T08:21:00"]).stdout.isEmpty)
        let suppressed = try sandbox.store.ledger().entries.filter { $0.outcome == .suppressed }
        #expect(suppressed.count == 1 && suppressed.first?.reason?.hasPrefix("not delayed") == true)
        // Thursday, in quiet hours: held back too.
        try sandbox.ok(["schedule", "edit", id, "--only-when-delayed", "off", "--now", "2025-11-05T08:30:00"])
        try sandbox.ok(["config", "set", "quiet-hours", "08:00-08:30"])
        #expect(try sandbox.ok(["tick", "--now", "2025-11-06T08:21:00"]).stdout.isEmpty)
        #expect(try sandbox.store.ledger().entries.contains { $0.outcome == .suppressed && $0.reason?.hasPrefix("quiet hours") == true })
    }

    @Test func aScheduleSwitchesBetweenAFixedTimeAndAnArrival() throws {
        let sandbox = try sandbox(at: "2025-11-05T07:00:00")
        let id = try #require(try sandbox.scheduleIDs().first)
        var listed = try #require((try sandbox.json(["schedule", "list", "--json"]) as? [[String: Any]])?.first)
        #expect(listed["kind"] as? String == "arrive-by" && listed["arriveBy"] as? String == "09:00" && listed["bufferMinutes"] as? Int == 5)
        #expect(listed["headsUpMinutes"] is NSNull)
        #expect(listed["timeLabel"] as? String == "Arrive by 9:00 AM")
        #expect(Whole.normal(try sandbox.ok(["schedule", "list", "--verbose"]).stdout) == """
            $ID  Enabled leave-by notification, arrive by 9:00 AM, Monday, Tuesday, Wednesday, Thursday, Friday, 2 routes
                Everett-Seattle: 34 min (-11 min, CLEAR)
                Seattle-Everett: 48 min (-9 min, CLEAR)

            """)
        try sandbox.ok(["schedule", "edit", id, "--at", "7:15"])
        listed = try #require((try sandbox.json(["schedule", "list", "--json"]) as? [[String: Any]])?.first)
        #expect(listed["kind"] as? String == "at" && listed["arriveBy"] is NSNull && listed["bufferMinutes"] is NSNull)
        let refused = try sandbox.run(["schedule", "edit", id, "--buffer", "10m"])
        #expect(refused.status == 64 && refused.stderr == "traveltimes: --buffer, --heads-up and --on-time are for arrive-by schedules: give --arrive-by TIME too. See 'traveltimes schedule edit --help'.\n")
        let both = try sandbox.run(["schedule", "edit", id, "--at", "7:00", "--arrive-by", "9:00"])
        #expect(both.status == 64 && both.stderr == "traveltimes: Give --at or --arrive-by, not both.\n")
        let edited = try sandbox.ok(["schedule", "edit", id, "--arrive-by", "8:30", "--buffer", "10m", "--now", "2025-11-05T07:00:00"])
        #expect(Whole.normal(edited.stdout) == "Updated schedule $ID: Arrive by 8:30 AM on Weekdays, 2 routes (Everett-Seattle, Seattle-Everett), 10 min to spare; next: leave Wed, Nov 5, 7:46 AM to arrive by 8:30 AM.\n", "\(edited)")
        try sandbox.ok(["schedule", "edit", id, "--heads-up", "15m"])
        try sandbox.ok(["schedule", "edit", id, "--buffer", "0"])
        listed = try #require((try sandbox.json(["schedule", "list", "--json"]) as? [[String: Any]])?.first)
        #expect(listed["arriveBy"] as? String == "08:30" && listed["bufferMinutes"] as? Int == 0 && listed["headsUpMinutes"] as? Int == 15)
        try sandbox.ok(["schedule", "edit", id, "--heads-up", "off"])
        #expect((try sandbox.json(["schedule", "list", "--json"]) as? [[String: Any]])?.first?["headsUpMinutes"] is NSNull)
        let atWithBuffer = try sandbox.run(["schedule", "edit", id, "--at", "7:00", "--buffer", "5m"])
        #expect(atWithBuffer.status == 64 && atWithBuffer.stderr == "traveltimes: --buffer, --heads-up and --on-time are for arrive-by schedules, not --at.\n")
        let bad = try sandbox.run(["schedule", "add", "--arrive-by", "9:00", "--buffer", "4h", "--route", "1"])
        #expect(bad.status == 64 && bad.stderr == "traveltimes: Invalid --buffer '4h': use whole minutes such as 5m or 0 (at most 3h).\n")
    }
}
