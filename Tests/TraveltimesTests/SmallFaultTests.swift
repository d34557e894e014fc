@_spi(Store) import CommuteCore
import Foundation
import TestThreads
import Testing

/// The smaller faults a new user met (issue 17, items 16–26), each through the binary.
@Suite(.ownThreads) struct SmallFaultTests {
    @Test func aTickAMomentAfterTheMinuteIsNotLate() throws {
        let sandbox = try Sandbox().prepared()
        try sandbox.ok(["schedule", "add", "--arrive-by", "9:00", "--buffer", "0", "--route", "1", "--days", "wed", "--now", Paths.capturedAt])
        // Everett-Seattle takes 34 min: leave at 8:26, and the tick runs at 8:26:00.3.
        let tick = try sandbox.ok(["tick", "--now", "2025-11-05T08:26:00.300-08:00"]).stdout
        #expect(tick.hasPrefix("Leave now to arrive by 9:00 AM\n"), "\(tick)")
        #expect(!tick.contains("late"), "\(tick)")
    }

    @Test func aTestNamesTheNotifiersItReachedApartFromThoseThatFailed() throws {
        let sandbox = try Sandbox().prepared()
        try sandbox.ok(["notify", "add", "stdout"])
        try sandbox.ok(["notify", "add", "exec", "false"])
        let test = try sandbox.run(["notify", "test", "--now", Paths.capturedAt])
        #expect(test.status != 0, "\(test)")
        let lines = test.stderr.split(separator: "\n").map(String.init)
        #expect(lines.first == #"Sent "Test: Commute at 4:00 PM (Tue)" to 1 of 2 notifiers (stdout). Failed: 1."#, "\(test)")
        #expect(lines.dropFirst().first?.hasPrefix("traveltimes: failed: exec false: ") == true, "\(test)")
    }

    @Test func noSwiftValueReachesAMessage() throws {
        let sandbox = Sandbox()
        // Nothing listens on port 9 of the loopback: a connection failure.
        try sandbox.ok(["refresh", "--source", Paths.fixture, "--now", Paths.capturedAt])
        try sandbox.ok(["notify", "add", "webhook", "http://127.0.0.1:9/topic"])
        try sandbox.ok(["favorites", "add", "1"])
        let test = try sandbox.run(["notify", "test", "--now", Paths.capturedAt])
        #expect(test.status != 0)
        #expect(!test.stderr.contains("connection(") && !test.stderr.contains("permanent("), "\(test)")
        #expect(HTTPClientError.connection("Couldn't connect to server").description == "Couldn't connect to server")
    }

    @Test func scheduleShowGivesAnArriveBySchedulesLeaveTimes() throws {
        let sandbox = try Sandbox().prepared()
        try sandbox.ok(["schedule", "add", "--arrive-by", "9:00", "--route", "1", "--days", "wed,thu", "--now", Paths.capturedAt])
        let id = String(try #require(try sandbox.scheduleIDs().last).prefix(8))
        let show = try sandbox.ok(["schedule", "show", id, "--now", Paths.capturedAt]).stdout
        #expect(show.hasSuffix("""
              Next alerts:
                Wed, Nov 5, 8:21 AM  leave, to arrive by 9:00 AM
                Thu, Nov 6, 8:21 AM  leave, to arrive by 9:00 AM

            """), "\(show)")
    }

    @Test func deliveredIsNewestFirstByWhenDueWithReadableIDs() throws {
        let sandbox = try Sandbox().prepared()
        try sandbox.ok(["schedule", "add", "--at", "16:30", "--days", "tue", "--route", "1", "--now", Paths.capturedAt])
        // One tick handles both: the 7:00 AM alert of Wednesday is due after Tuesday's 4:30 PM.
        try sandbox.ok(["tick", "--now", "2025-11-04T16:30:05-08:00"])
        try sandbox.ok(["tick", "--now", "2025-11-05T07:00:05-08:00"])
        let rows = try sandbox.ok(["delivered", "--now", "2025-11-05T07:01:00-08:00"]).stdout.split(separator: "\n").dropFirst()
        #expect(rows.count == 2)
        #expect(rows.first?.hasPrefix("Wed, Nov 5, 7:00 AM") == true && rows.last?.hasPrefix("Tue, Nov 4, 4:30 PM") == true, "\(rows)")
        let ids = try sandbox.scheduleIDs().map { String($0.prefix(8)) }
        #expect(rows.first?.contains("schedule.\(ids[0]).weekday.4") == true, "\(rows)")
        #expect(rows.last?.contains("schedule.\(ids[1]).weekday.3") == true, "\(rows)")
    }

    @Test func duplicateIDsNegativeNumbersAndUnknownRoutesAreSaidRight() throws {
        let sandbox = Sandbox()
        try sandbox.ok(["refresh", "--source", Paths.fixture, "--now", Paths.capturedAt])
        #expect(try sandbox.ok(["favorites", "add", "96", "96"]).stdout == "Added to favorites: 96 (Seattle-Bellevue via 90).\n")
        let cap = try sandbox.run(["config", "set", "daily-cap", "-3"])
        #expect(cap.status == 64 && cap.stderr.hasPrefix("traveltimes: Invalid daily-cap '-3'"), "\(cap)")
        let unknown = try sandbox.run(["schedule", "add", "--route", "999", "--now", Paths.capturedAt])
        #expect(unknown.status == 64 && unknown.stderr == "traveltimes: Unknown route ID '999': it is not in the route cache; see `traveltimes routes`\n" && !unknown.stderr.contains("favorites add 999"), "\(unknown)")
        let notYet = try sandbox.run(["schedule", "add", "--route", "1", "--now", Paths.capturedAt])
        #expect(notYet.stderr == "traveltimes: Route '1' is not a favorite: add it first with `traveltimes favorites add 1`\n", "\(notYet)")
    }

    @Test func bothSpellingsAreAcceptedAndOutputSaysFavorites() throws {
        let sandbox = Sandbox()
        try sandbox.ok(["refresh", "--source", Paths.fixture, "--now", Paths.capturedAt])
        #expect(try sandbox.ok(["favourites", "add", "1"]).stdout == "Added to favorites: 1 (Everett-Seattle).\n")
        #expect(try sandbox.ok(["favourites"]).stdout == (try sandbox.ok(["favorites"]).stdout))
        #expect(try sandbox.ok(["routes", "--favourites", "--now", Paths.capturedAt]).stdout == """
            Updated at 4:00 PM\u{A}   ID  NAME                NOW     AVG    DELAY  STATUS  SOURCE  UPDATED\u{A}*   1  Everett-Seattle  34 min  45 min  -11 min  CLEAR   wsdot   4:00 PM\u{A}
            """)
        #expect(try sandbox.ok(["completions", "candidates", "favou"]).stdout == "favourites\n")
        #expect(try sandbox.ok(["completions", "candidates", "favourites", "mo"]).stdout.hasPrefix("move\t"))
        for command in [["--help"], ["favorites", "--help"], ["schedule", "add", "--help"], ["manpage"]] {
            #expect(!(try sandbox.ok(command).stdout.contains("favourite")), "\(command)")
        }
    }

    @Test func aMissedAlertGivesOneReasonAndAHeadsUpNeverSaysLeaveInZero() throws {
        let sandbox = try Sandbox().prepared()
        try sandbox.ok(["schedule", "add", "--arrive-by", "9:00", "--heads-up", "15m", "--route", "1", "--days", "wed", "--now", Paths.capturedAt])
        // Leave at 8:21; a tick 20 seconds before it says nothing of "Leave in 0 min".
        let late = try sandbox.ok(["tick", "--now", "2025-11-05T08:20:40-08:00"])
        #expect(!late.stdout.contains("Leave in"), "\(late)")
        // The arrival goes by unsent: stderr and the ledger give the same reason.
        let missed = try sandbox.ok(["tick", "--now", "2025-11-05T09:30:00-08:00"])
        let reason = "its arrival time, 9:00 AM, went by before it was sent"
        let id = try #require(try sandbox.scheduleIDs().last)
        #expect(missed.stderr == "traveltimes: missed schedule.\(id).weekday.4 due Wed, Nov 5, 9:00 AM: its arrival time, 9:00 AM, went by before it was sent; not delivered\n", "\(missed)")
        let ledger = try #require(try sandbox.json(["delivered", "--json", "--now", "2025-11-05T09:31:00-08:00"]) as? [[String: Any]])
        #expect(ledger.contains { $0["outcome"] as? String == "missed" && $0["reason"] as? String == reason }, "\(ledger)")
        // A fixed time says its grace window, in both places too.
        let fixed = try sandbox.ok(["tick", "--now", "2025-11-06T07:30:00-08:00"])
        #expect(Whole.normal(fixed.stderr) == "traveltimes: missed schedule.$UUID.weekday.5 due Thu, Nov 6, 7:00 AM: 30 min late, past the 10 min grace window; not delivered\n", "\(fixed)")
    }

    @Test func refreshJSONIsCheckedAndJSONOutputIsTidy() throws {
        let sandbox = try Sandbox().prepared()
        let bytes = try #require(sandbox.bytes("refresh.json"))
        var log = try #require(try JSONSerialization.jsonObject(with: bytes) as? [String: Any])
        log["providerRequests"] = ["day": "x", "counts": ["here": 1]]
        try Sandbox.write(sandbox.path("refresh.json"), try JSONSerialization.data(withJSONObject: log))
        let day = try sandbox.run(["status"])
        #expect(day.status == 65 && Whole.normal(day.stderr) == "traveltimes: $TMP/refresh.json: impossible value: providerRequests.day is 'x', not a date (YYYY-MM-DD); nothing was changed (the file was left untouched) — fix or move it aside, then try again\n", "\(day)")
        log["providerRequests"] = ["day": "2026-11-23", "counts": ["here": 1.5]]
        try Sandbox.write(sandbox.path("refresh.json"), try JSONSerialization.data(withJSONObject: log))
        let count = try sandbox.run(["status"])
        #expect(Whole.normal(count.stderr) == "traveltimes: $TMP/refresh.json: wrong shape: providerRequests.counts: here is 1.5, not a whole number of requests; nothing was changed (the file was left untouched) — fix or move it aside, then try again\n", "\(count)")
        try FileManager.default.removeItem(atPath: sandbox.path("refresh.json"))
        let refresh = try sandbox.ok(["refresh", "--source", Paths.fixture, "--json", "--now", Paths.capturedAt]).stdout
        #expect(refresh.contains(#""routes" : 0"#) && !refresh.contains(#""routes" : null"#), "\(refresh)")
        #expect(try Sandbox().ok(["pending", "--json"]).stdout == """
            {
              "cap" : 64,
              "deferred" : [],
              "pauses" : [],
              "requested" : 0,
              "requests" : []
            }

            """)
    }
}

/// Calm under cron, loud once: a failure is said when it starts or changes, and when it mends.
@Suite(.ownThreads) struct CalmUnderCronTests {
    @Test func aFailingRefreshIsSaidOnceAndItsEndToo() throws {
        let sandbox = try Sandbox().prepared()
        let missing = sandbox.home + "-no-such-feed.json"
        let first = try sandbox.run(["refresh", "--quiet", "--source", missing, "--now", "2025-11-04T16:15:00-08:00"])
        #expect(first.status != 0 && Whole.normal(first.stderr) == "traveltimes: refresh failed: cannot read feed $TMP-no-such-feed.json: no such file; keeping routes updated at 4:00 PM (15 min ago)\n", "\(first)")
        let second = try sandbox.run(["refresh", "--quiet", "--source", missing, "--now", "2025-11-04T16:30:00-08:00"])
        #expect(second.status == first.status && second.stderr.isEmpty && second.stdout.isEmpty, "\(second)")
        // Loud without --quiet.
        let loud = try sandbox.run(["refresh", "--source", missing, "--now", "2025-11-04T16:40:00-08:00"])
        #expect(Whole.normal(loud.stderr) == "traveltimes: refresh failed: cannot read feed $TMP-no-such-feed.json: no such file; keeping routes updated at 4:00 PM (40 min ago)\n", "\(loud)")
        let mended = try sandbox.ok(["refresh", "--quiet", "--source", Paths.fixture, "--now", "2025-11-04T16:45:00-08:00"])
        #expect(mended.stderr == "traveltimes: refresh works again, after 3 failed tries since 4:15 PM\n", "\(mended)")
        #expect(try sandbox.ok(["refresh", "--quiet", "--source", Paths.fixture, "--now", "2025-11-04T17:00:00-08:00"]).stderr.isEmpty)
    }

    @Test func aFailingNotifierIsSaidWhenItStartsFailing() throws {
        let sandbox = try Sandbox().prepared().withoutHealthAlerts()
        try sandbox.ok(["notify", "add", "exec", "false"])
        let first = try sandbox.run(["tick", "--quiet", "--now", "2025-11-05T07:00:05-08:00"])
        #expect(first.status == 1 && Whole.normal(first.stderr) == """
            traveltimes: notifier 1 failed for schedule.$UUID.weekday.4: false exited with status 1; retrying while the grace window lasts
            traveltimes: 1 delivery failed; see `traveltimes delivered`

            """, "\(first)")
        let second = try sandbox.run(["tick", "--quiet", "--now", "2025-11-05T07:01:05-08:00"])
        #expect(second.status == 1 && second.stderr.isEmpty, "\(second)")
        let json = try #require(try sandbox.json(["delivered", "--json", "--now", "2025-11-05T07:02:00-08:00"]) as? [[String: Any]])
        #expect(json.count { $0["outcome"] as? String == "failed" } == 2, "both attempts are in the ledger")
    }
}
