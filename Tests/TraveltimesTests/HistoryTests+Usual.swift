@_spi(Store) import CommuteCore
import Foundation
import Testing

extension HistoryTests {
    // MARK: Alerts that know what is usual

    @Test func alertsCompareWithAUsualWeekdayAndAutoThresholdsUseTheHistory() throws {
        let sandbox = try Sandbox().prepared().withoutHealthAlerts()
        // Tuesdays at 7:00 usually take 36–40 min (median 38, 90th percentile 40).
        let rows = Self.tuesdays.flatMap { day in
            [(0, 36), (5, 38), (10, 40)].map { (route: "1", at: Self.pacific(day.0, day.1, 7, $0.0), minutes: $0.1) }
        }
        try sandbox.ok(["history", "import", try Self.file(sandbox, "tuesdays.csv", Self.csv(rows))])
        try sandbox.ok(["schedule", "add", "--at", "7:00", "--days", "tue", "--route", "1", "--now", "2025-11-04T06:00:00-08:00"])
        try sandbox.ok([
            "schedule", "add", "--at", "7:01", "--days", "tue", "--route", "1", "--only-when-delayed", "auto",
            "--now", "2025-11-04T06:00:00-08:00",
        ])
        #expect(Whole.normal(try sandbox.ok(["schedule", "list"]).stdout) == """
            $ID  7:00 AM  Weekdays  3 routes  enabled  always
            $ID  7:00 AM  Tue       1 route   enabled  always
            $ID  7:01 AM  Tue       1 route   enabled  only when slower than usual

            """)
        try sandbox.ok(["watch", "add", "1", "--over", "auto"])
        func reading(_ name: String, _ minutes: Int, at millis: Int) throws -> String {
            try sandbox.feed(name) { routes in
                routes[1]?["TimeUpdated"] = "/Date(\(millis)-0800)/"
                routes[1]?["CurrentTime"] = minutes
            }
        }
        // 39 min: not slower than usual — the auto alert holds, the watch stays quiet.
        let calm = try sandbox.ok(["refresh", "--source", try reading("calm", 39, at: 1_762_268_100_000), "--now", "2025-11-04T06:56:00-08:00"])
        #expect(!calm.stdout.contains("Delay") && !calm.stderr.contains("watch"))
        let first = try sandbox.ok(["tick", "--now", "2025-11-04T07:00:10-08:00"])
        #expect(first.stdout == """
            Commute at 7:00 AM (Tue)\u{A}Everett-Seattle: 39 min (-6 min, CLEAR), +1 vs a usual Tuesday at 7:00 AM\u{A}\u{A}Commute at 7:00 AM (Weekdays)\u{A}Everett-Seattle: 39 min (-6 min, CLEAR), +1 vs a usual Tuesday at 7:00 AM\u{A}Seattle-Bellevue via 90: 14 min (-1 min, CLEAR)\u{A}Seattle-Everett: 48 min (-9 min, CLEAR)\u{A}\u{A}
            """, "\(first)")
        let held = try sandbox.ok(["tick", "--now", "2025-11-04T07:01:10-08:00"])
        #expect(!held.stdout.contains("Commute at 7:01"))
        let ledger = try sandbox.ok(["delivered", "--now", "2025-11-04T07:02:00-08:00"]).stdout
        #expect(ledger.contains("not delayed: no route is slower than 9 times in 10 at this hour"), "\(ledger)")

        // 52 min: only +7 over the feed's average of 45, but slower than any usual Tuesday at 7:00.
        let slow = try sandbox.ok(["refresh", "--source", try reading("slow", 52, at: 1_762_268_400_000), "--now", "2025-11-04T07:02:00-08:00"])
        #expect(Whole.normal(slow.stdout) == """
            Refreshed 163 routes from $TMP-slow (3 without data); 7 alerts scheduled (cap 64).
            Everett-Seattle is running +7 min (usually 45)
            Everett-Seattle: 52 min (+7 min, CONGESTED)


            """, "the watch fires: \(slow)")
        try sandbox.ok(["schedule", "add", "--at", "7:03", "--days", "tue", "--route", "1", "--only-when-delayed", "auto", "--now", "2025-11-04T07:02:00-08:00"])
        let sent = try sandbox.ok(["tick", "--now", "2025-11-04T07:03:10-08:00"])
        #expect(sent.stdout == """
            Delay: Everett-Seattle +7 min (7:03 AM alert)\u{A}Everett-Seattle: 52 min (+7 min, CONGESTED), +14 vs a usual Tuesday at 7:00 AM\u{A}\u{A}
            """, "\(sent)")
    }

    @Test func anArriveByWithoutACurrentTimeLeavesOnTheUsualNinetiethPercentile() throws {
        let sandbox = try Sandbox().prepared().withoutHealthAlerts()
        // Tuesdays leaving around 8:10: 30 to 40 min; the 90th percentile of the 8:00 quarter is 39.
        let rows = Self.tuesdays.enumerated().map { index, day in
            (route: "1", at: Self.pacific(day.0, day.1, 8, 5), minutes: [30, 31, 32, 33, 34, 35, 36, 40][index])
        }
        try sandbox.ok(["history", "import", try Self.file(sandbox, "eight.csv", Self.csv(rows))])
        let noData = try sandbox.feed("no-data") { routes in routes[1]?["CurrentTime"] = 0 }
        try sandbox.ok(["refresh", "--source", noData, "--now", "2025-11-04T06:00:00-08:00"])
        try sandbox.ok(["schedule", "add", "--arrive-by", "9:00", "--days", "tue", "--route", "1", "--now", "2025-11-04T06:00:00-08:00"])
        let pending = try #require(try sandbox.json(["pending", "--json", "--now", "2025-11-04T06:00:00-08:00"]) as? [String: Any])
        let requests = try #require(pending["requests"] as? [[String: Any]])
        let leave = try #require(requests.first { ($0["arriveBy"] as? String)?.hasPrefix("2025-11-04T09:00") == true })
        // 9:00 less 38 (the 90th percentile, 37.2, rounded up) less 5 min to spare.
        #expect(leave["nextFire"] as? String == "2025-11-04T08:17:00-08:00", "\(leave)")
        #expect((leave["body"] as? String)?.contains("(no current times: 9 times in 10 it takes no longer)") == true)
    }

    // MARK: best-time and the chart

    @Test func bestTimeChoosesTheLeastTravelAndTheSafeDepartureFromHistory() throws {
        let sandbox = try Sandbox().prepared()
        // Each quarter hour on Tuesdays takes the same every week, but 8:30, late once in eight.
        let usual = [(7, 0, 40), (7, 15, 38), (7, 30, 45), (7, 45, 50), (8, 0, 35), (8, 15, 30), (8, 45, 20)]
        var rows = Self.tuesdays.flatMap { day in usual.map { (route: "1", at: Self.pacific(day.0, day.1, $0.0, $0.1), minutes: $0.2) } }
        rows += Self.tuesdays.enumerated().map { index, day in (route: "1", at: Self.pacific(day.0, day.1, 8, 30), minutes: index == 7 ? 45 : 25) }
        try sandbox.ok(["history", "import", try Self.file(sandbox, "quarters.csv", Self.csv(rows))])
        let best = try #require(try sandbox.json(["best-time", "1", "--arrive-by", "9:00", "--window", "7:00-9:00", "--json"]) as? [String: Any])
        let days = try #require(best["days"] as? [[String: Any]])
        #expect(days.map { $0["weekday"] as? Int } == [2, 3, 4, 5, 6])
        let tuesday = try #require(days.first { $0["weekday"] as? Int == 3 })
        let least = try #require(tuesday["leastTravel"] as? [String: Any])
        let safe = try #require(tuesday["onTime"] as? [String: Any])
        // Sep 9's mornings are before the 8 weeks before now (Nov 4, 4:00 PM): 7 weeks count.
        // 8:30 and 8:35 both take 25 as a rule: the later; 9 times in 10 (33 min), only 8:25 (30) is in time.
        #expect(least["leave"] as? String == "08:35" && least["minutes"] as? Double == 25 && least["weeks"] as? Int == 7)
        #expect(safe["leave"] as? String == "08:25" && safe["minutes"] as? Double == 30 && safe["arrival"] as? String == "08:55")
        #expect(days.filter { $0["weekday"] as? Int != 3 }.allSatisfy { $0["leastTravel"] is NSNull && $0["onTime"] is NSNull })
        let text = try sandbox.ok(["best-time", "1", "--arrive-by", "9:00", "--window", "7:00-9:00", "--days", "tue,wed"]).stdout
        #expect(text == """
            To arrive by 9:00 AM, leaving 7:00 AM–8:59 AM, from the last 8 weeks of history:
                       LEAST TRAFFIC                      ON TIME 9 TIMES IN 10
            Tuesday    8:35 AM, 25 min usually (7 weeks)  8:25 AM, 30 min at worst (7 weeks)
            Wednesday  too few readings                   too few readings
            A quarter hour needs 5 readings from 3 weeks; refresh keeps recording.

            """)
        let bad = try sandbox.run(["best-time", "1", "--arrive-by", "9:00", "--window", "9:30-8:00"])
        #expect(bad.status == 64 && bad.stderr == "traveltimes: Invalid --window '9:30-8:00': use START-END within one day, starting before --arrive-by, such as 7:00-9:00. See 'traveltimes best-time --help'.\n")
    }

    @Test func theChartIsColouredOnlyOnATerminalAndNeverWithNoColor() throws {
        let sandbox = try Sandbox(runner: .binary).prepared()
        try sandbox.ok(["history", "import", Self.sampleHistory])
        let piped = try sandbox.ok(["history", "1", "--now", "2025-11-04T16:05:00-08:00"]).stdout
        #expect(piped == "Everett-Seattle (route 1): 1812 readings recorded; usual times from the last 8 weeks, America/Los_Angeles\n\nToday, Tuesday 11/4, against a usual Tuesday:  █ usual  ░ up to 9 times in 10  ▲ above that\n 6:00 AM  ████████████████████░                  36 ▲  usually 32, 34.3 at worst\n 6:30 AM  █████████████████████████░             40    usually 39.5, 42 at worst\n 7:00 AM  █████████████████████████████░░░       51    usually 47.5, 51 at worst\n 7:30 AM  █████████████████████████████████░░░   48    usually 53, 58 at worst\n 8:00 AM  ██████████████████████████████░        41    usually 48, 50.3 at worst\n 8:30 AM  █████████████████████████░             38    usually 39.5, 41.3 at worst\n 9:00 AM  ████████████████████░░                 33    usually 31.5, 35 at worst\n 9:30 AM  ██████████████████░░                   30    usually 29.5, 32.2 at worst\n       ⋮\n 3:00 PM  █████████████████████░                 35    usually 33.5, 35 at worst\n 3:30 PM  ███████████████████░░░                 30    usually 31, 35 at worst\n 4:00 PM  ████████████████████░░░                      usually 33, 36.4 at worst\n 4:30 PM  ██████████████████████░                      usually 36, 37.4 at worst\n 5:00 PM  ███████████████████████░░                    usually 37, 40.4 at worst\n 5:30 PM  █████████████████████████                    usually 41, 41 at worst\n 6:00 PM  ██████████████████████░░                     usually 36, 38.3 at worst\n 6:30 PM  ████████████████████░                        usually 32.5, 34.6 at worst\n\nTypical delay by hour, over the quietest usual time (28.5 min):\n        0     3     6     9     12    15    18    21    \n  Mon   ············▓▓▓▓▓▓░░··········░░▒▒▒▒▒▒··········\n  Tue   ············▓▓▓▓▓▓░░··········▒▒▒▒▒▒▒▒··········\n  Wed   ············▓▓▓▓▓▓░░··········▒▒▒▒▒▒▒▒··········\n  Thu   ············▓▓▓▓▓▓░░··········░░▒▒▒▒▒▒··········\n  Fri   ············▓▓▓▓▓▓░░··········░░▒▒▒▒▒▒··········\n  Sat   ············░░░░░░░░··········░░░░░░░░··········\n  Sun   ············░░▒▒▒▒░░··········░░░░▒▒░░··········\n  ░ under 5 min  ▒ 5–14  ▓ 15–29  █ 30 or more  · too few readings\n" && piped == "Everett-Seattle (route 1): 1812 readings recorded; usual times from the last 8 weeks, America/Los_Angeles\n\nToday, Tuesday 11/4, against a usual Tuesday:  █ usual  ░ up to 9 times in 10  ▲ above that\n 6:00 AM  ████████████████████░                  36 ▲  usually 32, 34.3 at worst\n 6:30 AM  █████████████████████████░             40    usually 39.5, 42 at worst\n 7:00 AM  █████████████████████████████░░░       51    usually 47.5, 51 at worst\n 7:30 AM  █████████████████████████████████░░░   48    usually 53, 58 at worst\n 8:00 AM  ██████████████████████████████░        41    usually 48, 50.3 at worst\n 8:30 AM  █████████████████████████░             38    usually 39.5, 41.3 at worst\n 9:00 AM  ████████████████████░░                 33    usually 31.5, 35 at worst\n 9:30 AM  ██████████████████░░                   30    usually 29.5, 32.2 at worst\n       ⋮\n 3:00 PM  █████████████████████░                 35    usually 33.5, 35 at worst\n 3:30 PM  ███████████████████░░░                 30    usually 31, 35 at worst\n 4:00 PM  ████████████████████░░░                      usually 33, 36.4 at worst\n 4:30 PM  ██████████████████████░                      usually 36, 37.4 at worst\n 5:00 PM  ███████████████████████░░                    usually 37, 40.4 at worst\n 5:30 PM  █████████████████████████                    usually 41, 41 at worst\n 6:00 PM  ██████████████████████░░                     usually 36, 38.3 at worst\n 6:30 PM  ████████████████████░                        usually 32.5, 34.6 at worst\n\nTypical delay by hour, over the quietest usual time (28.5 min):\n        0     3     6     9     12    15    18    21    \n  Mon   ············▓▓▓▓▓▓░░··········░░▒▒▒▒▒▒··········\n  Tue   ············▓▓▓▓▓▓░░··········▒▒▒▒▒▒▒▒··········\n  Wed   ············▓▓▓▓▓▓░░··········▒▒▒▒▒▒▒▒··········\n  Thu   ············▓▓▓▓▓▓░░··········░░▒▒▒▒▒▒··········\n  Fri   ············▓▓▓▓▓▓░░··········░░▒▒▒▒▒▒··········\n  Sat   ············░░░░░░░░··········░░░░░░░░··········\n  Sun   ············░░▒▒▒▒░░··········░░░░▒▒░░··········\n  ░ under 5 min  ▒ 5–14  ▓ 15–29  █ 30 or more  · too few readings\n" && !piped.contains("\u{1B}"))
        func onATerminal(_ extra: [String: String]) throws -> String {
            let script = "import os, pty, sys\nos.environ.update(dict(a.split('=', 1) for a in sys.argv[2:]))\n"
                + "pty.spawn([sys.argv[1], 'history', '1', '--now', '2025-11-04T16:05:00-08:00'])"
            let outcome = try execute(
                ["python3", "-c", script, Paths.binary] + extra.map { "\($0.key)=\($0.value)" }, environment: sandbox.environment)
            #expect(outcome.status == 0, "\(outcome)")
            return outcome.stdout
        }
        #expect(try onATerminal([:]).contains("\u{1B}[32m░░\u{1B}[0m"))
        let plain = try onATerminal(["NO_COLOR": "1"])
        #expect(!plain.contains("\u{1B}[") && plain == "Everett-Seattle (route 1): 1812 readings recorded; usual times from the last 8 weeks, America/Los_Angeles\r\n\r\nToday, Tuesday 11/4, against a usual Tuesday:  █ usual  ░ up to 9 times in 10  ▲ above that\r\n 6:00 AM  ████████████████████░                  36 ▲  usually 32, 34.3 at worst\r\n 6:30 AM  █████████████████████████░             40    usually 39.5, 42 at worst\r\n 7:00 AM  █████████████████████████████░░░       51    usually 47.5, 51 at worst\r\n 7:30 AM  █████████████████████████████████░░░   48    usually 53, 58 at worst\r\n 8:00 AM  ██████████████████████████████░        41    usually 48, 50.3 at worst\r\n 8:30 AM  █████████████████████████░             38    usually 39.5, 41.3 at worst\r\n 9:00 AM  ████████████████████░░                 33    usually 31.5, 35 at worst\r\n 9:30 AM  ██████████████████░░                   30    usually 29.5, 32.2 at worst\r\n       ⋮\r\n 3:00 PM  █████████████████████░                 35    usually 33.5, 35 at worst\r\n 3:30 PM  ███████████████████░░░                 30    usually 31, 35 at worst\r\n 4:00 PM  ████████████████████░░░                      usually 33, 36.4 at worst\r\n 4:30 PM  ██████████████████████░                      usually 36, 37.4 at worst\r\n 5:00 PM  ███████████████████████░░                    usually 37, 40.4 at worst\r\n 5:30 PM  █████████████████████████                    usually 41, 41 at worst\r\n 6:00 PM  ██████████████████████░░                     usually 36, 38.3 at worst\r\n 6:30 PM  ████████████████████░                        usually 32.5, 34.6 at worst\r\n\r\nTypical delay by hour, over the quietest usual time (28.5 min):\r\n        0     3     6     9     12    15    18    21    \r\n  Mon   ············▓▓▓▓▓▓░░··········░░▒▒▒▒▒▒··········\r\n  Tue   ············▓▓▓▓▓▓░░··········▒▒▒▒▒▒▒▒··········\r\n  Wed   ············▓▓▓▓▓▓░░··········▒▒▒▒▒▒▒▒··········\r\n  Thu   ············▓▓▓▓▓▓░░··········░░▒▒▒▒▒▒··········\r\n  Fri   ············▓▓▓▓▓▓░░··········░░▒▒▒▒▒▒··········\r\n  Sat   ············░░░░░░░░··········░░░░░░░░··········\r\n  Sun   ············░░▒▒▒▒░░··········░░░░▒▒░░··········\r\n  ░ under 5 min  ▒ 5–14  ▓ 15–29  █ 30 or more  · too few readings\r\n")
    }
}
