@_spi(Store) import CommuteCore
@_spi(Store) import CommuteStore
import Foundation
import TestThreads
import Testing

@Suite(.ownThreads) struct DelayWatchTests {
    /// The fixture with route 70's current time changed, as a feed file.
    func feed(_ sandbox: Sandbox, route70 minutes: Int, name: String) throws -> String {
        var routes = try WSDOTFeed.decode(Data(contentsOf: URL(fileURLWithPath: Paths.fixture)))
        if let index = routes.firstIndex(where: { $0.id == "70" }) { routes[index].currentMinutes = minutes }
        let path = sandbox.path(name)
        try Sandbox.write(path, WSDOTFeed.encode(routes))
        return path
    }

    @Test func oneCriticalAlertEachWayPerDayAndNeverWithoutData() throws {
        let sandbox = Sandbox()
        try sandbox.ok(["refresh", "--source", Paths.fixture, "--now", Paths.capturedAt])
        // Renton-Auburn (70) usually takes 24 min and runs 35 in the sample: +11.
        #expect(try sandbox.ok(["watch", "add", "70", "--over", "10"]).stdout
            == "Watching Renton-Auburn (70): an alert when it runs +10 min or more, and when it clears.\n")
        try sandbox.ok(["watch", "add", "39", "--over", "1"])  // lanes closed: no data
        let log = sandbox.path("critical.log")
        try sandbox.ok(["notify", "add", "exec", "sh", "-c", "echo \"$TRAVELTIMES_URGENCY|$TRAVELTIMES_TITLE\" >> \(log)"])
        let now = "2025-11-04T16:00:00-08:00"
        try sandbox.ok(["refresh", "--source", Paths.fixture, "--now", now])
        try sandbox.ok(["refresh", "--source", Paths.fixture, "--now", "2025-11-04T16:15:00-08:00"])
        let clear = try feed(sandbox, route70: 25, name: "clear.json")
        try sandbox.ok(["refresh", "--source", clear, "--now", "2025-11-04T16:30:00-08:00"])
        try sandbox.ok(["refresh", "--source", Paths.fixture, "--now", "2025-11-04T16:45:00-08:00"])
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        // The delay is critical; its clearing is news, not urgent.
        #expect(lines == ["critical|Renton-Auburn is running +11 min (usually 24)", "normal|Renton-Auburn has cleared: 25 min (usually 24)"])
        let ledger = try #require(try sandbox.json(["delivered", "--json"]) as? [[String: Any]])
        #expect(ledger.first?["outcome"] as? String == "suppressed")
        #expect(ledger.first?["reason"] as? String == "already alerted today (over)")
        #expect(try sandbox.ok(["watch", "list"]).stdout == """
            70  Renton-Auburn  over +10 min  (over now)\u{A}39  Everett-Seattle EL  over +1 min  (not checked yet)\u{A}
            """)
        // The second delay of the day was held back, so its clearing the next morning is not sent:
        // there is nothing the user was told to clear.
        try sandbox.ok(["refresh", "--source", clear, "--now", "2025-11-05T08:00:00-08:00"])
        #expect(try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").count == 2)
        let held = try #require(try sandbox.json(["delivered", "--json"]) as? [[String: Any]])
        #expect(held.first?["requestID"] as? String == "watch.70.clear")
        #expect(held.first?["reason"] as? String == "its delay alert was not delivered, so there is nothing to clear")
        // A new day: a new delay alerts again, and its clearing follows it.
        try sandbox.ok(["refresh", "--source", Paths.fixture, "--now", "2025-11-05T08:15:00-08:00"])
        try sandbox.ok(["refresh", "--source", clear, "--now", "2025-11-05T08:30:00-08:00"])
        #expect(try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").suffix(2)
            == ["critical|Renton-Auburn is running +11 min (usually 24)", "normal|Renton-Auburn has cleared: 25 min (usually 24)"])
    }

    @Test func watchCommandsRefuseBadInput() throws {
        let sandbox = Sandbox()
        #expect(try sandbox.run(["watch", "add", "70", "--over", "10"]).status == 1, "no route data yet")
        try sandbox.ok(["refresh", "--source", Paths.fixture])
        let unknown = try sandbox.run(["watch", "add", "9999", "--over", "10"])
        #expect(unknown.status == 64 && unknown.stderr == "traveltimes: Unknown route ID '9999': it is not in the route cache; see `traveltimes routes`\n")
        let noOver = try sandbox.run(["watch", "add", "70"])
        #expect(noOver.status == 64 && noOver.stderr == "traveltimes: Missing --over MIN|auto. See 'traveltimes watch add --help'.\n")
        let off = try sandbox.run(["watch", "add", "70", "--over", "off"])
        #expect(off.status == 64 && off.stderr == "traveltimes: Invalid delay threshold 'off': use a whole number of minutes, 1 or more, or 'off'\n")
        try sandbox.ok(["watch", "add", "70", "--over", "10"])
        let refused = try sandbox.run(["watch", "remove", "70"])
        #expect(refused.status == 64 && refused.stderr == "traveltimes: This will stop delay alerts for route 70. Re-run with --yes to confirm. See 'traveltimes watch remove --help'.\n")
        #expect(try sandbox.ok(["watch", "remove", "70", "--yes"]).stdout == "Stopped watching route 70.\n")
        #expect(try sandbox.ok(["watch"]).stdout == "No routes watched: add one with `traveltimes watch add ROUTE --over MIN`.\n")
        #expect(try sandbox.run(["watch", "remove", "70", "--yes"]).status == 64)
    }

    /// The wiring test: every alert kind — scheduled, smart, test, delay — reaches a notifier
    /// through the real command path.
    @Test func everyAlertKindReachesANotifier() throws {
        let sandbox = Sandbox()
        let log = sandbox.path("all.log")
        try sandbox.ok(["refresh", "--source", Paths.fixture, "--now", Paths.capturedAt])
        try sandbox.ok(["favorites", "add", "1", "70"])
        try sandbox.ok(["notify", "add", "exec", "sh", "-c", "echo \"$TRAVELTIMES_ID\" >> \(log)"])
        try sandbox.ok(["schedule", "add", "--at", "16:30", "--days", "tue", "--route", "1", "--now", Paths.capturedAt])
        try sandbox.ok(["schedule", "add", "--at", "16:40", "--days", "tue", "--route", "70", "--only-when-delayed", "5", "--now", Paths.capturedAt])
        try sandbox.ok(["watch", "add", "70", "--over", "10"])
        try sandbox.ok(["refresh", "--source", Paths.fixture, "--now", "2025-11-04T16:15:00-08:00"])  // delay
        try sandbox.ok(["tick", "--now", "2025-11-04T16:30:00-08:00"])  // scheduled
        try sandbox.ok(["tick", "--now", "2025-11-04T16:40:00-08:00"])  // smart
        try sandbox.ok(["test", "--delay", "0", "--now", "2025-11-04T16:41:00-08:00"])  // test
        let kinds = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map { String($0.split(separator: ".")[0]) }
        #expect(kinds == ["watch", "schedule", "schedule", "test"])
    }
}

@Suite(.ownThreads) struct LedgerUpkeepTests {
    @Test func theLedgerPrunesItselfAndStatusReportsTheLastAlert() throws {
        let sandbox = try Sandbox().withoutHealthAlerts()
        try sandbox.ok(["refresh", "--source", Paths.fixture, "--now", Paths.capturedAt])
        try sandbox.ok(["favorites", "add", "1"])
        try sandbox.ok(["schedule", "add", "--at", "16:30", "--days", "tue", "--now", Paths.capturedAt])
        try sandbox.ok(["tick", "--now", "2025-11-04T16:30:00-08:00"])
        let status = try sandbox.ok(["status", "--now", "2025-11-04T16:31:00-08:00"]).stdout
        #expect(Whole.normal(status) == """
            Store:      $TMP
            Time zone:  America/Los_Angeles (saved)
            Routes:     163 (3 without data), updated 4:00 PM (31 min ago)
            Refreshed:  4:00 PM from $ROOT/Fixtures/wsdot/travel-times-2025-11-04T1600-0800.json
            Last try:   4:00 PM: ok
            Source:     not set — `traveltimes config set source URL`
            Favorites:  1
            Schedules:  1 (1 enabled)
            Pending:    1 scheduled (cap 64), 0 deferred; planned 4:30 PM
            Last alert: 4:30 PM delivered; last 24 h: 1 delivered
            Installed:  nothing runs refresh and tick: `traveltimes install systemd` or `traveltimes install cron`

            """)
        // Five weeks later: the tick records last Tuesday's alert as missed (the machine was off),
        // and the 35-day-old delivery is pruned from the ledger.
        try sandbox.ok(["tick", "--now", "2025-12-09T16:00:00-08:00"])
        try sandbox.ok(["tick", "--now", "2025-12-09T16:30:00-08:00"])
        let left = try #require(try sandbox.json(["delivered", "--json"]) as? [[String: Any]])
        #expect(left.compactMap { $0["occurrence"] as? String } == ["2025-12-09T16:30:00-08:00", "2025-12-02T16:30:00-08:00"])
        #expect(left.compactMap { $0["outcome"] as? String } == ["delivered", "missed"])
    }

    @Test func notifyTestSendsAtOnce() throws {
        let sandbox = Sandbox()
        try sandbox.ok(["refresh", "--source", Paths.fixture])
        try sandbox.ok(["favorites", "add", "1"])
        let started = Date()
        let sent = try sandbox.ok(["notify", "test"])
        #expect(Date().timeIntervalSince(started) < 3)
        #expect(sent.stdout.hasPrefix("Test: Commute at "))
        #expect(sent.stderr == "Sent \"Test: Commute at 4:00 PM (Tue)\" to 1 of 1 notifiers (stdout).\n")
    }
}

@Suite(.ownThreads) struct ListingOptionTests {
    @Test func deliveredShowsTodayAndYesterdayUnlessToldAndCountsTheRest() throws {
        let sandbox = Sandbox()
        try sandbox.ok(["refresh", "--source", Paths.fixture, "--now", Paths.capturedAt])
        try sandbox.ok(["favorites", "add", "1"])
        try sandbox.ok(["schedule", "add", "--at", "16:30", "--days", "tue,wed,thu", "--now", Paths.capturedAt])
        for day in ["04", "05", "06"] { try sandbox.ok(["tick", "--now", "2025-11-\(day)T16:30:00-08:00"]) }
        let thursday = "2025-11-06T17:00:00-08:00"
        let id = String(try sandbox.scheduleIDs()[0].prefix(8))
        #expect(try sandbox.ok(["delivered", "--now", thursday]).stdout == """
            DUE                  OUTCOME    ALERT                        NOTIFIER  NOTE
            Thu, Nov 6, 4:30 PM  delivered  schedule.\(id).weekday.5  0         
            Wed, Nov 5, 4:30 PM  delivered  schedule.\(id).weekday.4  0         
            1 older decision not shown: `traveltimes delivered --all` lists every one kept.

            """)
        let window = try #require(try sandbox.json(["delivered", "--json", "--now", thursday]) as? [[String: Any]])
        #expect(window.compactMap { $0["occurrence"] as? String } == ["2025-11-06T16:30:00-08:00", "2025-11-05T16:30:00-08:00"])
        let all = try #require(try sandbox.json(["delivered", "--json", "--all", "--now", thursday]) as? [[String: Any]])
        #expect(all.count == 3)
        #expect(!(try sandbox.ok(["delivered", "--all", "--now", thursday]).stdout.contains("not shown")))
        // A week on, nothing is recent: said so, with the count of what is kept.
        #expect(try sandbox.ok(["delivered", "--now", "2025-11-13T09:00:00-08:00"]).stdout
            == "Nothing delivered since Wed, Nov 12, 12:00 AM; 3 older decisions not shown: `traveltimes delivered --all` lists every one kept.\n")
        let both = try sandbox.run(["delivered", "--all", "--since", "2025-11-05T00:00:00-08:00", "--now", thursday])
        #expect(both.status == 64 && both.stderr == "traveltimes: Give --since TIME or --all, not both. See 'traveltimes delivered --help'.\n")
    }

    @Test func deliveredSinceAndTheJSONListings() throws {
        let sandbox = Sandbox()
        try sandbox.ok(["refresh", "--source", Paths.fixture, "--now", Paths.capturedAt])
        try sandbox.ok(["favorites", "add", "1"])
        try sandbox.ok(["schedule", "add", "--at", "16:30", "--days", "tue,wed", "--now", Paths.capturedAt])
        try sandbox.ok(["tick", "--now", "2025-11-04T16:30:00-08:00"])
        try sandbox.ok(["tick", "--now", "2025-11-05T16:30:00-08:00"])
        let since = try #require(try sandbox.json(["delivered", "--json", "--since", "2025-11-05T00:00:00-08:00"]) as? [[String: Any]])
        #expect(since.compactMap { $0["occurrence"] as? String } == ["2025-11-05T16:30:00-08:00"])
        let bad = try sandbox.run(["delivered", "--since", "yesterday"])
        #expect(bad.status == 64 && bad.stderr == "traveltimes: Invalid --since 'yesterday': use ISO 8601 with an offset, such as 2025-11-04T07:00:00-08:00. See 'traveltimes delivered --help'.\n")

        try sandbox.ok(["watch", "add", "70", "--over", "10"])
        let watches = try #require(try sandbox.json(["watch", "list", "--json"]) as? [[String: Any]])
        #expect(watches.count == 1 && watches[0]["routeID"] as? String == "70" && watches[0]["overMinutes"] as? Int == 10)
        #expect(watches[0]["isOver"] is NSNull)

        try sandbox.ok(["notify", "add", "webhook", "https://hooks.example.invalid/services/SECRET", "--format", "slack"])
        try sandbox.ok(["notify", "add", "tgram://123456:SECRETTOKEN/4242/9999?silent=yes", "--name", "chat"])
        let notifiers = try #require(try sandbox.json(["notify", "list", "--json"]) as? [[String: Any]])
        #expect(notifiers as NSArray == [
            [
                "id": 1, "name": NSNull(), "kind": "webhook", "target": "https://hooks.example.invalid/…", "options": ["format": "slack"],
                "credentials": true, "summary": "webhook https://hooks.example.invalid/… (slack)",
            ] as NSDictionary,
            [
                "id": 2, "name": "chat", "kind": "telegram", "target": "4242,9999", "options": ["silent": true], "credentials": true,
                "summary": "chat: telegram (2 chats)",
            ] as NSDictionary,
        ] as NSArray)
        let listed = try sandbox.ok(["notify", "list", "--json"]).stdout
        #expect(!listed.contains("SECRET") && !listed.contains("services"), "\(listed)")
    }
}
