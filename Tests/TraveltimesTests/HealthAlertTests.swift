@_spi(Store) import CommuteCore
import Foundation
import TestThreads
import Testing

/// Health alerts: when refreshes fail for `stale-after`, or an alert due within the lead window
/// would carry data that old, `tick` tells the user once through the notifiers — what is wrong,
/// since when, the fix, the alerts it touches — and once when it mends; through the gateway, and
/// in the ledger.
@Suite(.ownThreads) struct HealthAlertTests {
    /// A store with the sample feed (measured Tue, Nov 4 at 4:00 PM), favorite 1, a 6:30 PM alert
    /// on Tuesdays, and a notifier that writes each alert's ID, title and body to `alerts.log`.
    func sandbox() throws -> (Sandbox, log: String) {
        let sandbox = Sandbox()
        let log = sandbox.path("alerts.log")
        try sandbox.ok(["refresh", "--source", Paths.fixture, "--now", Paths.capturedAt])
        try sandbox.ok(["favorites", "add", "1"])
        try sandbox.ok(["schedule", "add", "--at", "18:30", "--days", "tue", "--now", Paths.capturedAt])
        try sandbox.ok(["notify", "add", "exec", "sh", "-c", "printf '%s\\n%s\\n%s\\n--\\n' \"$TRAVELTIMES_ID\" \"$TRAVELTIMES_TITLE\" \"$TRAVELTIMES_BODY\" >> \(log)"])
        return (sandbox, log)
    }

    func alerts(_ log: String) -> String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }

    func ledger(_ sandbox: Sandbox) throws -> [String] {
        let entries = try sandbox.store.ledger().entries.filter { $0.alert.kind == .health }
        return entries.map { "\($0.alert) \($0.outcome.rawValue)" + ($0.reason.map { ": \($0)" } ?? "") }
    }

    @Test func aRevokedAccessCodeIsToldOnceWithItsFixAndAgainWhenItMends() throws {
        let server = try FeedServer()
        let (sandbox, log) = try sandbox()
        let tuesday = "2025-11-04T"
        // Refresh starts failing at 4:10 PM: under an hour, nothing is said.
        for minute in ["16:10", "16:40"] {
            #expect(try sandbox.run(["refresh", "--quiet", "--source", server.url("/unauthorized"), "--now", tuesday + minute]).status == 69)
            try sandbox.ok(["tick", "--now", tuesday + minute])
        }
        #expect(alerts(log).isEmpty)
        // An hour of failures: one health alert, whatever the number of ticks after it.
        #expect(try sandbox.run(["refresh", "--quiet", "--source", server.url("/unauthorized"), "--now", tuesday + "17:10"]).status == 69)
        for minute in ["17:10", "17:11", "17:20"] { try sandbox.ok(["tick", "--now", tuesday + minute]) }
        #expect(alerts(log) == """
            health.refresh
            Alerts may be wrong: refresh has failed for 1 h
            Refresh has failed 3 times since 4:10 PM: the server answered HTTP 401.
            Fix: set the access code with `traveltimes config set access-code -`.
            No alert in the next 1 h carries old data yet.
            --

            """, "\(alerts(log))")
        // It works again: the end is said once, naming the problem that ended.
        try sandbox.ok(["refresh", "--quiet", "--source", Paths.fixture, "--now", tuesday + "17:25"])
        for minute in ["17:26", "17:27"] { try sandbox.ok(["tick", "--now", tuesday + minute]) }
        #expect(alerts(log).hasSuffix("""
            health.refresh.mended
            Alerts are current again
            The problem that began 4:10 PM is over: refresh works again.
            --

            """), "\(alerts(log))")
        // Then the 6:30 PM alert comes into its lead window with data from 4:00 PM: a new problem,
        // whose fix is not the access code — refresh runs; the source has nothing newer.
        try sandbox.ok(["tick", "--now", tuesday + "17:35"])
        #expect(alerts(log).hasSuffix("""
            health.data
            Alerts may be wrong: travel times are 1 h old
            The travel times are 1 h old (measured 4:00 PM); refresh runs, but its source has nothing newer.
            Fix: `traveltimes status` shows the source and each route's age; a provider's budget may be spent.
            Affected: Commute at 6:30 PM (Tue), due 6:30 PM.
            --

            """), "\(alerts(log))")
        #expect(try ledger(sandbox) == ["health.refresh delivered", "health.refresh.mended delivered", "health.data delivered"])
        // `delivered` lists them with every other alert.
        let delivered = try sandbox.ok(["delivered", "--now", tuesday + "17:36"]).stdout
        #expect(delivered == "DUE                  OUTCOME    ALERT                  NOTIFIER  NOTE\nTue, Nov 4, 5:35 PM  delivered  health.data            1         \nTue, Nov 4, 5:10 PM  delivered  health.refresh.mended  1         \nTue, Nov 4, 5:10 PM  delivered  health.refresh         1         \n" && delivered == "DUE                  OUTCOME    ALERT                  NOTIFIER  NOTE\nTue, Nov 4, 5:35 PM  delivered  health.data            1         \nTue, Nov 4, 5:10 PM  delivered  health.refresh.mended  1         \nTue, Nov 4, 5:10 PM  delivered  health.refresh         1         \n", "\(delivered)")
    }

    @Test func quietHoursHoldAHealthAlertUntilTheyEnd() throws {
        let (sandbox, log) = try sandbox()
        try sandbox.ok(["schedule", "add", "--at", "6:30", "--days", "wed", "--now", Paths.capturedAt])
        try sandbox.ok(["config", "set", "quiet-hours", "22:00-06:00"])
        // Wednesday 5:45: the 6:30 alert would carry data 13 h old — but it is quiet hours.
        for minute in ["05:45", "05:50", "05:59"] {
            #expect(try sandbox.ok(["tick", "--now", "2025-11-05T\(minute)"]).stdout.isEmpty)
        }
        #expect(alerts(log).isEmpty)
        let held = "health.data suppressed: quiet hours (10:00 PM–6:00 AM); sent when they end, if the problem lasts"
        #expect(try ledger(sandbox) == [held], "said once, not every minute")
        try sandbox.ok(["tick", "--now", "2025-11-05T06:00"])
        #expect(alerts(log).hasPrefix("health.data\nAlerts may be wrong: travel times are 14 h old\n"), "\(alerts(log))")
        #expect(alerts(log) == """
            health.data
            Alerts may be wrong: travel times are 14 h old
            The travel times are 14 h old (measured Tue, Nov 4, 4:00 PM); refresh has not run since Tue, Nov 4, 4:00 PM.
            Fix: run refresh every few minutes: `traveltimes install systemd` (or `install cron`).
            Affected: Commute at 6:30 AM (Wed), due 6:30 AM.
            --

            """, "\(alerts(log))")
        #expect(try ledger(sandbox) == [held, "health.data delivered"])
    }

    /// The sample feed as if measured at `time` on Tuesday, Nov 4 (Pacific): a fresh reading.
    func feed(measuredAt time: String, _ sandbox: Sandbox) throws -> String {
        let instant = try #require(ISO8601.parse("2025-11-04T\(time):00-08:00")?.instant)
        let text = try String(contentsOfFile: Paths.fixture, encoding: .utf8)
            .replacingOccurrences(of: "1762300800000", with: String(Int(instant.timeIntervalSince1970) * 1_000))
        let path = sandbox.home + "-feed-\(time.replacingOccurrences(of: ":", with: ""))"
        try Sandbox.write(path, Data(text.utf8))
        return path
    }

    @Test func aProblemThatMendsBeforeItCanBeToldIsNotTold() throws {
        let (sandbox, log) = try sandbox()
        try sandbox.ok(["config", "set", "quiet-hours", "17:00-18:00"])
        try sandbox.ok(["tick", "--now", "2025-11-04T17:40"])  // held: quiet hours
        // Fresh data comes in quiet hours: the problem's cause is gone before it could be told.
        try sandbox.ok(["refresh", "--quiet", "--source", try feed(measuredAt: "17:45", sandbox), "--now", "2025-11-04T17:50"])
        try sandbox.ok(["tick", "--now", "2025-11-04T17:51"])
        try sandbox.ok(["tick", "--now", "2025-11-04T18:00"])
        #expect(!alerts(log).contains("health."), "\(alerts(log))")
        #expect(try ledger(sandbox) == [
            "health.data suppressed: quiet hours (5:00 PM–6:00 PM); sent when they end, if the problem lasts",
            "health.data suppressed: mended before it could be sent",
        ])
        #expect(sandbox.bytes("health.json").map { String(decoding: $0, as: UTF8.self) } == "{\"version\":1}\n")
    }

    @Test func aProblemThatComesAndGoesIsToldAtMostFourTimesADay() throws {
        let (sandbox, log) = try sandbox()
        // The 6:30 PM alert's data (4:00 PM) is old in its lead window; a fresh reading mends it,
        // and the old one coming back brings it back.
        let fresh = try feed(measuredAt: "17:30", sandbox)
        for (minute, source) in [("17:40", Paths.fixture), ("17:41", fresh), ("17:42", Paths.fixture), ("17:43", fresh), ("17:44", Paths.fixture)] {
            try sandbox.ok(["refresh", "--quiet", "--source", source, "--now", "2025-11-04T\(minute)"])
            try sandbox.ok(["tick", "--now", "2025-11-04T\(minute)"])
        }
        #expect(alerts(log).components(separatedBy: "\n--\n").count - 1 == 4, "\(alerts(log))")
        #expect(try ledger(sandbox) == [
            "health.data delivered", "health.data.mended delivered", "health.data delivered", "health.data.mended delivered",
            "health.data suppressed: daily cap of 4 health alerts reached; sent tomorrow, if the problem lasts",
        ])
    }

    @Test func aRejectedProviderKeyIsTold() throws {
        let server = try ProviderServer()
        let sandbox = try CustomRouteTests().sandbox(server)
        try #require(try CustomRouteTests().add(sandbox, "home-work", "tomtom").status == 0)
        try sandbox.ok(["favorites", "add", "home-work"])
        try sandbox.ok(["schedule", "add", "--at", "10:30", "--days", "mon", "--route", "home-work", "--now", "2026-11-23T08:00:00"])
        let bad = ["TOMTOM_API_KEY": "bad-ENVSECRET-key"]
        for time in ["09:00", "09:30", "10:01"] {
            #expect(try sandbox.run(["refresh", "--all", "--quiet", "--now", "2026-11-23T\(time):00"], environment: bad).status == 69)
        }
        let told = try sandbox.ok(["tick", "--now", "2026-11-23T10:01:30"]).stdout
        #expect(told.hasPrefix("""
            Alerts may be wrong: refresh has failed for 1 h
            Refresh has failed 3 times since 9:00 AM: TomTom rejected the key (Developer key REDACTED is not valid): set a valid one with `traveltimes config set tomtom-key KEY` (or TOMTOM_API_KEY); not refreshed: home-work.
            Affected: Commute at 10:30 AM (Mon), due 10:30 AM.

            """), "\(told)")
        #expect(!told.contains("SECRET"))
        // The key works again: the next refresh answers, and the end is said.
        try sandbox.ok(["refresh", "--all", "--quiet", "--now", "2026-11-23T10:05:00"])
        #expect(try sandbox.store.refreshLog().failingProviders == nil)
        #expect(try sandbox.ok(["tick", "--now", "2026-11-23T10:05:30"]).stdout == """
            Alerts are current again
            The problem that began 9:00 AM is over: refresh works again.


            """)
    }

    @Test func staleAfterIsASettingAndOffMeansNone() throws {
        let (sandbox, log) = try sandbox()
        #expect(try sandbox.ok(["config", "show"]).stdout.contains(
            "\nstale-after:    1 h: older data, or refreshes failing that long, send a health alert\n"))
        for bad in ["0m", "30s", "8days", "eight", "10081"] {
            let outcome = try sandbox.run(["config", "set", "stale-after", bad])
            #expect(outcome.status == 64 && outcome.stderr.contains("Invalid stale-after"), "\(bad): \(outcome)")
        }
        #expect(try sandbox.ok(["config", "set", "stale-after", "3h"]).stdout
            == "stale-after set to 3 h: tick sends a health alert when data is older, or refreshes fail that long.\n")
        try sandbox.ok(["tick", "--now", "2025-11-04T17:45"])  // data 1 h 45 min old: under 3 h
        #expect(alerts(log).isEmpty)
        #expect(try sandbox.ok(["config", "set", "stale-after", "off"]).stdout == "stale-after set to off: no health alerts.\n")
        try sandbox.ok(["config", "set", "stale-after", "1h"])
        try sandbox.ok(["config", "unset", "stale-after", "--yes"])
        #expect(try sandbox.store.configuration().staleAfterMinutes == nil)
        try sandbox.ok(["config", "set", "stale-after", "off"])
        try sandbox.ok(["tick", "--now", "2025-11-04T18:25"])  // data 2 h 25 min old
        #expect(alerts(log).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: sandbox.path("health.json")))
    }

    @Test func aDamagedHealthRecordDoesNotStopTheAlertsDue() throws {
        let (sandbox, log) = try sandbox()
        try Sandbox.write(sandbox.path("health.json"), Data("{\"version\":1,\"problem\":{\"kind\":\"nonsense\"}}\n".utf8))
        let outcome = try sandbox.run(["tick", "--now", "2025-11-04T18:30"])
        #expect(outcome.status == 65, "\(outcome)")
        #expect(outcome.stderr.hasPrefix("traveltimes: \(sandbox.path("health.json")): "), "\(outcome)")
        #expect(outcome.stderr.hasSuffix(
            "; the alerts due were handled, but health alerts cannot be checked until it is fixed or moved aside\n"), "\(outcome)")
        #expect(alerts(log).hasPrefix("schedule."), "the 6:30 PM alert went out: \(alerts(log))")
    }
}
