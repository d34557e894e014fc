@_spi(Store) import CommuteCore
@_spi(Store) import CommuteStore
import Foundation
import TestThreads
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Feeds, store files, arguments and servers from outside: never a crash, never a hang, never a
/// broken store, never a control sequence on the terminal. Through the binary.
@Suite(.ownThreads) struct HostileInputTests {
    /// Every command that reads the cache, as a user would run them after a refresh.
    static let readers: [[String]] = [
        ["routes", "--now", Paths.capturedAt], ["routes", "--json"], ["routes", "--search", "seattle"], ["route", "1"],
        ["pending"], ["pending", "--json"], ["brief"], ["favorites"], ["status"], ["schedule", "list", "--verbose"],
    ]

    @Test func impossibleFeedValuesLeaveTheirRouteOutAndEverythingReadsBack() throws {
        let sandbox = Sandbox()
        let feed = try sandbox.feed("hostile.json") { routes in
            routes[2]?["TimeUpdated"] = "/Date(253402300800000)/"  // 10000-01-01
            routes[3]?["CurrentTime"] = 200_000_000_000_000_000
            routes[4]?["TimeUpdated"] = "/Date(-62167219200001)/"  // before 0000
            routes[5]?["AverageTime"] = 1_441
            routes[6]?["Distance"] = 1e300
        }
        let refresh = try sandbox.run(["refresh", "--source", feed, "--now", Paths.capturedAt])
        #expect(refresh.status == 0, "\(refresh)")
        #expect(refresh.stdout == "Refreshed 158 routes from \(feed) (3 without data); 0 alerts scheduled (cap 64).\n")
        // The fixture begins with routes 2 to 6, in that order.
        #expect(refresh.stderr == """
            traveltimes: warning: route #1 (ID 2) was left out: its update time is after the year 9999
            traveltimes: warning: route #2 (ID 3) was left out: its current time, 200000000000000000 min, is over a day: not a travel time
            traveltimes: warning: route #3 (ID 4) was left out: its update time is before the year 0000
            traveltimes: warning: route #4 (ID 5) was left out: its usual time, 1441 min, is over a day: not a travel time
            traveltimes: warning: route #5 (ID 6) was left out: its distance, 1e+300 mi, is not a road's

            """, "\(refresh.stderr)")
        try sandbox.ok(["favorites", "add", "1", "96"])
        try sandbox.ok(["schedule", "add", "--preset", "morning", "--now", Paths.capturedAt])
        for command in Self.readers {
            let outcome = try sandbox.run(command)
            #expect(outcome.status == 0, "\(command): \(outcome)")
        }
        // The rest of the feed was saved: whatever is written reads back.
        #expect(try sandbox.store.routes().routes.count == 158)
    }

    @Test func nothingTypedCanOverflow() throws {
        let sandbox = Sandbox()
        for (arguments, message) in [
            (["config", "set", "grace", "200000000000000000m"], "Invalid grace '200000000000000000m'"),
            (["config", "set", "daily-cap", "99999999999999999999"], "Invalid daily-cap"),
            (["pending", "--now", "9999-12-31T23:59:00Z"], "Invalid --now '9999-12-31T23:59:00Z': use a time from 1970 to 9999-11-30"),
            (["pending", "--now", "1969-12-31T23:59:00Z"], "Invalid --now"),
            (["refresh", "--source", Paths.fixture, "--timeout", "1e400"], "Invalid --timeout '1e400'"),
            (["test", "--delay", "0x10"], "Invalid --delay '0x10'"),
            (["test", "--delay", "nan"], "Invalid --delay 'nan'"),
            (["schedule", "add", "--only-when-delayed", "99999999999"], "Invalid delay threshold '99999999999'"),
            (["favorites", "add", "99999999999999999999"], "Invalid route ID '99999999999999999999'"),
            (["notify", "remove", "9999999999999999999999"], "Invalid notifier number"),
        ] {
            let outcome = try sandbox.run(arguments)
            #expect(outcome.status == 64, "\(arguments): \(outcome)")
            #expect(outcome.stderr.contains(message), "\(arguments): \(outcome.stderr)")
        }
        let lockWait = try sandbox.run(["status"], environment: ["TRAVELTIMES_LOCK_TIMEOUT": "0x10"])
        #expect(lockWait.status == 64 && lockWait.stderr == "traveltimes: Invalid TRAVELTIMES_LOCK_TIMEOUT '0x10': use seconds, such as 10 or 0.5. See 'traveltimes status --help'.\n")
    }

    @Test(arguments: [
        ("schedules.json", #"{"version":1,"schedules":[{"id":"6F9619FF-8B86-D011-B42D-00CF4FC964FF","routeIDs":["1"],"days":[3],"hour":99,"minute":0,"isEnabled":true,"createdAt":"2025-11-04T16:00:00Z"}]}"#,
         "schedules[0].hour is 99, outside 0–23", ["schedule", "add", "--preset", "evening"]),
        ("schedules.json", #"{"version":1,"schedules":[{"id":"6F9619FF-8B86-D011-B42D-00CF4FC964FF","routeIDs":[],"days":[3],"hour":7,"minute":0,"isEnabled":true,"createdAt":"2025-11-04T16:00:00Z"}]}"#,
         "schedules[0].routeIDs is empty", ["schedule", "list"]),
        ("schedules.json", #"{"version":1,"schedules":[{"id":"6F9619FF-8B86-D011-B42D-00CF4FC964FF","routeIDs":["1"],"days":[3],"hour":9,"minute":0,"isEnabled":true,"createdAt":"2025-11-04T16:00:00Z","arriveBy":{"bufferMinutes":5,"onTimePercent":5000000000}}]}"#,
         "schedules[0].arriveBy.onTimePercent is 5000000000, outside 50–100", ["reliability"]),
        ("favorites.json", #"{"version":1,"routeIDs":[],"groups":[],"commutes":[{"name":"w\u001b[2J","routeIDs":["1","96"]}]}"#,
         "commutes[0].name is not a commute name", ["compare", "w"]),
        ("pending.json", #"{"version":1,"cap":64,"requested":1,"requests":[{"id":"schedule.6f9619ff-8b86-d011-b42d-00cf4fc964ff.weekday.3","scheduleID":"6F9619FF-8B86-D011-B42D-00CF4FC964FF","weekday":3,"hour":9999999999,"minute":0,"nextFire":"2025-11-04T16:00:00Z"}],"deferred":[]}"#,
         "requests[0].hour is 9999999999, outside 0–23", ["tick"]),
        ("pending.json", #"{"version":1,"cap":-4,"requested":0,"requests":[],"deferred":[]}"#,
         "cap is -4, outside 1–10000", ["refresh", "--source", Paths.fixture]),
        ("config.json", #"{"version":1,"graceSeconds":-600}"#, "graceSeconds is -600, outside 0–86400", ["tick"]),
        ("config.json", #"{"version":1,"quietHours":{"start":99999,"end":0}}"#, "quietHours", ["tick"]),
        ("config.json", #"{"version":1,"timeZone":"Nowhere/Atlantis"}"#, "timeZone 'Nowhere/Atlantis' is not a time zone", ["pending"]),
        ("config.json", #"{"version":1,"notifiers":[{"id":9223372036854775807,"kind":{"stdout":{}}}]}"#, "notifiers[0].id", ["notify", "add", "stdout"]),
        ("delivered.json", #"{"version":1,"entries":[{"requestID":"test.1","occurrence":"2025-11-04T16:00:00Z","outcome":"delivered","at":"2025-11-04T16:00:00Z","attempts":-1}]}"#,
         "entries[0].attempts is -1", ["tick", "--now", "2025-11-05T07:00:30-08:00"]),
        ("refresh.json", #"{"version":1,"failuresSinceSuccess":9223372036854775807}"#, "failuresSinceSuccess", ["status"]),
        ("refresh.json", #"{"version":1,"failuresSinceSuccess":0,"providerRequests":{"day":"2026-11-23","counts":{"bing":3}}}"#, "not a provider", ["status"]),
        ("refresh.json", #"{"version":1,"failuresSinceSuccess":0,"failingProviders":{"bing":{"since":"2025-11-04T16:00:00Z","reason":"x"}}}"#, "failingProviders has 'bing', not a provider", ["status"]),
        // The request counts of earlier days (`status`'s requests per alert): a day that is no
        // date, a count no day holds, a provider there is none of.
        ("refresh.json", #"{"version":1,"failuresSinceSuccess":0,"earlierRequests":[{"day":"2026-02-30","counts":{"tomtom":3}}]}"#,
         "earlierRequests.day is '2026-02-30', not a date (YYYY-MM-DD)", ["status"]),
        ("refresh.json", #"{"version":1,"failuresSinceSuccess":0,"earlierRequests":[{"day":"2026-11-20","counts":{"tomtom":3000000000}}]}"#,
         "earlierRequests.counts.tomtom is 3000000000, outside 0–2147483647", ["status"]),
        ("refresh.json", #"{"version":1,"failuresSinceSuccess":0,"earlierRequests":[{"day":"2026-11-20","counts":{"bing":1}}]}"#,
         "earlierRequests has 'bing', not a provider", ["status"]),
        ("health.json", #"{"version":1,"problem":{"kind":"refresh","since":"2025-11-04T16:00:00Z","foundAt":"2025-11-04T16:00:00Z","heldBecause":"quiet\u001b[2J"}}"#,
         "problem.heldBecause: 'quiet\u{FFFD}[2J' is not a reason to hold an alert", ["tick"]),
        ("alerts.json", #"{"version":1,"alerts":[{"key":"test.1@2025-11-04T16:00:00Z","notifier":1,"handle":"7\u001b[2J","requestID":"test.1","occurrence":"2025-11-04T16:00:00Z","isHeadsUp":false}]}"#,
         "alerts[0].handle is not one short line", ["tick"]),
        ("delivered.json", #"{"version":1,"entries":[{"requestID":"test.1","occurrence":"2025-11-04T16:00:00Z","outcome":"delivered","at":"2025-11-04T16:00:00Z","attempts":1,"key":"k\u0007"}]}"#,
         "entries[0].key 'k\u{FFFD}' is not an alert's key", ["tick", "--now", "2025-11-05T07:00:30-08:00"]),
        ("config.json", #"{"version":1,"notifiers":[{"id":1,"kind":{"channel":{"url":"tgram://123456:SECRET"}}}]}"#,
         "notifiers[0] has a URL that is not a notifier: name the chat", ["tick"]),
        ("schedules.json", #"{"version":1,"schedules":[],"pauses":[{"number":1,"from":"2026-11-27","until":"2026-11-26"}]}"#, "pauses[0] ends before it starts", ["pause", "list"]),
        ("schedules.json", #"{"version":1,"schedules":[],"pauses":[{"number":1,"from":"2026-01-01","until":"2099-01-01"}]}"#, "pauses[0] is longer than 731 days", ["schedule", "list"]),
        ("config.json", #"{"version":1,"budgets":{"here":-5}}"#, "budgets.here is -5", ["tick"]),
        ("config.json", #"{"version":1,"historyDays":99999}"#, "historyDays is 99999, outside 0–3650", ["history", "1"]),
        ("config.json", #"{"version":1,"typicalWeeks":0}"#, "typicalWeeks is 0, outside 1–52", ["best-time", "1", "--arrive-by", "9:00"]),
        ("schedules.json", #"{"version":1,"schedules":[{"id":"6F9619FF-8B86-D011-B42D-00CF4FC964FF","routeIDs":["1"],"days":[3],"hour":7,"minute":0,"isEnabled":true,"createdAt":"2025-11-04T16:00:00Z","onlyWhenAboveUsual":true}]}"#,
         "schedules[0].onlyWhenAboveUsual has no onlyWhenDelayedBy to stand in", ["schedule", "list"]),
        ("routes.json", #"{"version":1,"fetchedAt":null,"source":null,"validators":null,"routes":[{"id":"1","name":"x","description":null,"currentMinutes":null,"averageMinutes":40,"distanceMiles":1,"updatedAt":"2025-11-04T16:00:00Z","startPoint":null,"endPoint":null,"suspiciousMinutes":99999}]}"#,
         "routes[0]: its suspicious time, 99999 min, is over a day", ["route", "1"]),
        ("routes.json", #"{"version":1,"fetchedAt":null,"source":null,"validators":null,"routes":[{"id":"home","name":"x","description":null,"currentMinutes":20,"averageMinutes":20,"distanceMiles":1,"updatedAt":"2025-11-04T16:00:00Z","startPoint":null,"endPoint":null,"custom":{"provider":"here","from":{"latitude":99,"longitude":0},"to":{"latitude":1,"longitude":1}}}]}"#,
         "routes[0].custom.from is not a point on the Earth", ["routes"]),
        ("routes.json", #"{"version":1,"fetchedAt":null,"source":null,"validators":null,"routes":[{"id":"cal-work-1a2b3c4d","name":"x","description":null,"currentMinutes":20,"averageMinutes":20,"distanceMiles":1,"updatedAt":"2025-11-04T16:00:00Z","startPoint":null,"endPoint":null,"custom":{"provider":"osrm","from":{"latitude":47,"longitude":-122},"to":{"latitude":47.1,"longitude":-122},"calendar":"Work\u001b[2J"}}]}"#,
         "routes[0].custom.calendar 'Work\u{FFFD}[2J' is not a calendar name", ["routes"]),
        ("favorites.json", #"{"version":1,"routeIDs":["1\u001b[2J"],"groups":[]}"#, "is not a route ID", ["favorites"]),
        ("routes.json", #"{"version":1,"fetchedAt":null,"source":null,"validators":null,"routes":[{"id":"1","name":"x","description":null,"currentMinutes":200000000000000000,"averageMinutes":40,"distanceMiles":1,"updatedAt":"2025-11-04T16:00:00Z","startPoint":null,"endPoint":null}]}"#,
         "routes[0]: its current time, 200000000000000000 min, is over a day", ["route", "1"]),
    ] as [(String, String, String, [String])])
    func impossibleStoreValuesAreRefusedWithThePathAndChangeNothing(file: String, text: String, reason: String, command: [String]) throws {
        let sandbox = try Sandbox().prepared()
        try Sandbox.write(sandbox.path(file), Data(text.utf8))
        let before = try #require(sandbox.bytes(file))
        let takesNow = !["notify", "favorites"].contains(command[0]) && !command.contains("--now")
        let outcome = try sandbox.run(command + (takesNow ? ["--now", Paths.capturedAt] : []))
        #expect(outcome.status == 65, "\(command): \(outcome)")
        #expect(outcome.stderr.contains("\(sandbox.path(file)): impossible value: ") || outcome.stderr.contains("\(sandbox.path(file)): wrong shape"), "\(outcome)")
        #expect(outcome.stderr.contains(reason), "\(outcome.stderr)")
        #expect(sandbox.bytes(file) == before, "the file was left byte for byte as it was")
        #expect(!outcome.stderr.contains("\u{1B}"))
    }

    @Test func whateverStandsInPlaceOfAStoreFileIsRefusedAtOnce() throws {
        let sandbox = try Sandbox().prepared()
        let schedules = sandbox.path("schedules.json")
        let pending = sandbox.path("pending.json")
        let favorites = sandbox.path("favorites.json")
        let routes = sandbox.path("routes.json")
        try FileManager.default.removeItem(atPath: schedules)
        #expect(mkfifo(schedules, 0o600) == 0)
        // A 2 GiB file that takes no disk: it must not be read.
        try FileManager.default.removeItem(atPath: pending)
        #expect(FileManager.default.createFile(atPath: pending, contents: nil))
        #expect(truncate(pending, 2 << 30) == 0)
        try FileManager.default.removeItem(atPath: favorites)
        try FileManager.default.createDirectory(atPath: favorites, withIntermediateDirectories: false)
        try FileManager.default.removeItem(atPath: routes)
        try FileManager.default.createSymbolicLink(atPath: routes, withDestinationPath: routes)
        for (command, path, reason) in [
            (["schedule", "list"], schedules, "it is a FIFO (named pipe), not a store file"),
            (["tick", "--now", Paths.capturedAt], pending, "it is 2.0 GiB, far larger than a store file can be (at most 64 MiB)"),
            (["favorites"], favorites, "it is a directory, not a store file"),
            (["route", "1"], routes, "it is a symbolic link that loops; no file can be read through it"),
        ] {
            let started = Date()
            let outcome = try sandbox.run(command)
            #expect(Date().timeIntervalSince(started) < 5, "\(command) hung")
            #expect(outcome.status == 65, "\(command): \(outcome)")
            #expect(outcome.stderr == "traveltimes: \(path): \(reason); nothing was changed (the file was left untouched) — fix or move it aside, then try again\n", "\(outcome.stderr)")
        }
        let info = try FileManager.default.attributesOfItem(atPath: pending)
        #expect((info[.size] as? Int) == 2 << 30)
    }

    @Test func namesCannotReachTheTerminalAsControlSequences() throws {
        let sandbox = Sandbox()
        let forged = "Everett\u{1B}]0;pwned\u{07}\u{1B}[2J\rSeattle\nFAKE LINE: all clear\u{9B}31m\u{202E}"
        let feed = try sandbox.feed("forged.json") { routes in
            routes[1]?["Name"] = forged
            routes[1]?["Description"] = "desc\u{1B}[1m\nFAKE LINE: described"
            var point = routes[1]?["StartPoint"] as? [String: Any] ?? [:]
            point["Description"] = "start\rFAKE LINE: start"
            routes[1]?["StartPoint"] = point
        }
        try sandbox.ok(["refresh", "--source", feed, "--now", Paths.capturedAt])
        try sandbox.ok(["favorites", "add", "1", "96"])
        try sandbox.ok(["group", "add", "commute", "--route", "1,96"])
        try sandbox.ok(["schedule", "add", "--at", "16:30", "--days", "tue", "--now", Paths.capturedAt])
        let typed = try sandbox.run(["group", "add", "evil\u{1B}[2J", "--route", "1"])
        #expect(typed.status == 64 && typed.stderr == "traveltimes: Invalid group name 'evil�[2J': use 1 to 40 characters on one line, without control characters\n")
        let commands: [[String]] = [
            ["routes", "--now", Paths.capturedAt], ["routes", "--search", "everett"], ["route", "1", "--now", Paths.capturedAt],
            ["pending", "--now", Paths.capturedAt], ["brief", "--now", Paths.capturedAt], ["favorites"],
            ["schedule", "list", "--verbose"], ["group", "list"], ["tick", "--now", "2025-11-04T16:30:00-08:00"],
            ["favorites", "remove", "96", "--yes"], ["route", "1", "--json"], ["routes", "--json"],
        ]
        for command in commands {
            let outcome = try sandbox.run(command)
            #expect(outcome.status == 0, "\(command): \(outcome)")
            for (stream, text) in [("stdout", outcome.stdout), ("stderr", outcome.stderr)] {
                let bad = text.unicodeScalars.filter {
                    ($0.value < 0x20 && $0 != "\n" && $0 != "\t") || (0x7F..<0xA0).contains($0.value) || $0.value == 0x202E
                }
                #expect(bad.isEmpty, "\(command) \(stream) has \(bad.map { String($0.value, radix: 16) })")
                let forgedLines = text.split(separator: "\n").filter { $0.hasPrefix("FAKE LINE") || $0.hasPrefix("    FAKE LINE") }
                #expect(forgedLines.isEmpty, "\(command) \(stream): \(forgedLines)")
            }
        }
        // A typed notifier command line is shown as one line too.
        try sandbox.ok(["notify", "add", "exec", "printf", "\u{1B}[2J\nFAKE LINE: %s", "{title}"])
        let notifiers = try sandbox.ok(["notify", "list"]).stdout
        #expect(notifiers == "1  exec printf \u{FFFD}[2J\u{FFFD}FAKE LINE: %s {title}\n", "\(notifiers)")
        try sandbox.ok(["notify", "remove", "1", "--yes"])
        // A server's error page is quoted on one line, its escapes neutralised.
        let server = try FeedServer()
        let page = try sandbox.run(["refresh", "--source", server.url("/html-forged")])
        #expect(page.status == 69)
        #expect(page.stderr.hasPrefix("traveltimes: refresh failed: the server sent an HTML page instead of the feed: \"Error\u{FFFD}]0;pwned\u{FFFD}\u{FFFD}[2J\u{FFFD}FAKE LINE: refresh ok\""), "\(page.stderr)")
        #expect(page.stderr.split(separator: "\n").count == 1)
        #expect(Whole.normal(try sandbox.ok(["status"]).stdout) == """
            Store:      $TMP
            Time zone:  America/Los_Angeles (saved)
            Routes:     163 (3 without data), updated 4:00 PM (0 min ago)
            Refreshed:  4:00 PM from $TMP-forged.json
            Last try:   4:00 PM: the server sent an HTML page instead of the feed: "Error�]0;pwned��[2J�FAKE LINE: refresh ok" (a bad access code does this)
            Source:     not set — `traveltimes config set source URL`
            Favorites:  1
            Schedules:  1 (1 enabled)
            Pending:    1 scheduled (cap 64), 0 deferred; planned 4:00 PM
            Last alert: 4:30 PM delivered; last 24 h: 1 delivered
            Installed:  nothing runs refresh and tick: `traveltimes install systemd` or `traveltimes install cron`

            """)
        #expect(!(String(decoding: sandbox.bytes("refresh.json") ?? Data(), as: UTF8.self)).contains("\\u001b"))
        // The stdout notifier prints the name as one line, its control characters shown as U+FFFD.
        let tick = try sandbox.ok(["tick", "--now", "2025-11-11T16:30:00-08:00"])
        #expect(tick.stdout == """
            Commute at 4:30 PM (Tue)\u{A}Everett�]0;pwned��[2J�Seattle�FAKE LINE: all clear�31m�: 34 min (-11 min, CLEAR)\u{A}Data is 7 days old (updated Tue, Nov 4, 4:00 PM)\u{A}\u{A}Alerts may be wrong: refresh has failed for 7 days\u{A}Refresh has failed once since Tue, Nov 4, 4:00 PM: the server sent an HTML page instead of the feed: "Error�]0;pwned��[2J�FAKE LINE: refresh ok" (a bad access code does this).\u{A}Fix: check the access code: `traveltimes config set access-code -`.\u{A}No alert in the next 1 h carries old data yet.\u{A}\u{A}
            """, "\(tick)")
    }
}

@Suite(.ownThreads) struct TruthfulRefreshTests {
    @Test func anUnreadableLedgerOrLogDoesNotStopARefreshAndMessagesSayWhatWasWritten() throws {
        let sandbox = try Sandbox().prepared()
        let corrupt = Data("{\"version\": 1, \"entries\": [tru".utf8)
        try Sandbox.write(sandbox.path("delivered.json"), corrupt)
        try Sandbox.write(sandbox.path("refresh.json"), corrupt)
        let refresh = try sandbox.run(["refresh", "--source", Paths.fixture, "--now", "2025-11-04T16:15:00-08:00"])
        #expect(refresh.status == 0, "\(refresh)")
        #expect(refresh.stdout.hasPrefix("Refreshed 163 routes"))
        #expect(Whole.normal(refresh.stderr) == "traveltimes: warning: this refresh could not be recorded: $TMP/refresh.json: not valid JSON; the file was left untouched — fix or move it aside, then try again\n", "\(refresh)")
        #expect(sandbox.bytes("delivered.json") == corrupt && sandbox.bytes("refresh.json") == corrupt)
        // tick needs the ledger: it fails, naming it, and changes nothing.
        let tick = try sandbox.run(["tick", "--now", "2025-11-05T07:00:00-08:00"])
        #expect(tick.status == 65 && Whole.normal(tick.stderr) == "traveltimes: $TMP/delivered.json: not valid JSON; nothing was changed (the file was left untouched) — fix or move it aside, then try again\n")

        // A plan that cannot be made after the routes were saved says the routes were saved.
        try FileManager.default.removeItem(atPath: sandbox.path("refresh.json"))
        try Sandbox.write(sandbox.path("pending.json"), corrupt)
        let slower = try sandbox.feed("slower.json") { $0[1]?["CurrentTime"] = 50 }
        let saved = try sandbox.run(["refresh", "--source", slower, "--now", "2025-11-04T16:30:00-08:00"])
        #expect(saved.status == 65, "\(saved)")
        #expect(saved.stderr == "traveltimes: saved 163 routes to routes.json, but could not re-plan the alerts: \(sandbox.path("pending.json")): not valid JSON (unexpected end of data at byte 27); the file was left untouched — fix or move it aside, then try again\n", "\(saved)")
        #expect(!saved.stderr.contains("keeping routes"))
        #expect(Whole.normal(try sandbox.ok(["route", "1", "--now", Paths.capturedAt]).stdout) == """
            Everett-Seattle (route 1)  * favorite
              Everett to Downtown Seattle
              From:     I-5 @ 41st St in Everett, road 005, heading S, milepost 192.55
              To:       I-5 @ University St in Seattle, road 005, heading S, milepost 165.83
              Distance: 26.7 mi
              Now:      50 min (usually 45 min)
              Delay:    +5 min, SLOWING
              Arrive:   4:50 PM if you leave now
              Updated:  4:00 PM (0 min ago)
              Schedules:
                $ID  7:00 AM on Weekdays

            """)
        #expect(sandbox.bytes("pending.json") == corrupt)
    }

    @Test func aSourceURLsCredentialsAreNeverShownStoredOrPassedOn() throws {
        let server = try FeedServer()
        let sandbox = Sandbox()
        let secrets = ["alice", "hunter22pass", "tok3nSECRET", "CODE1234SECRET", "TOMKEY1234SECRET", "GOOGKEY1234SECRET"]
        let url = "http://alice:hunter22pass@127.0.0.1:\(server.port)/feed?token=tok3nSECRET"
        try sandbox.ok(["config", "set", "source", url])
        let environment = ["WSDOT_ACCESS_CODE": "CODE1234SECRET", "TOMTOM_API_KEY": "TOMKEY1234SECRET"]
        try sandbox.ok(["config", "set", "google-key", "GOOGKEY1234SECRET"])
        let envLog = sandbox.path("env.log")
        var outputs: [String] = []
        for command in [["refresh", "--now", Paths.capturedAt], ["config", "show"], ["status"], ["config", "show", "--json"]] {
            let outcome = try sandbox.run(command, environment: environment)
            #expect(outcome.status == 0, "\(command): \(outcome)")
            outputs += [outcome.stdout, outcome.stderr]
        }
        #expect(outputs.joined().contains("http://REDACTED@127.0.0.1:\(server.port)/feed?token=REDACTED"))
        try sandbox.ok(["favorites", "add", "1"])
        try sandbox.ok(["schedule", "add", "--at", "16:30", "--days", "tue", "--now", Paths.capturedAt])
        try sandbox.ok(["notify", "add", "exec", "sh", "-c", "env > \(envLog)"])
        try sandbox.ok(["tick", "--now", "2025-11-04T16:30:00-08:00"], environment: environment.merging(["TRAVELTIMES_SOURCE": url]) { $1 })
        let childEnvironment = try String(contentsOfFile: envLog, encoding: .utf8)
        #expect(childEnvironment.contains("TRAVELTIMES_ID=schedule."))
        #expect(!childEnvironment.contains("WSDOT_ACCESS_CODE") && !childEnvironment.contains("TRAVELTIMES_SOURCE"))
        #expect(!childEnvironment.contains("TOMTOM_API_KEY"))
        for secret in secrets {
            #expect(!outputs.joined().contains(secret), "\(secret) shown")
            #expect(!childEnvironment.contains(secret), "\(secret) passed to a notifier")
            for file in ["routes.json", "refresh.json", "pending.json", "delivered.json"] {
                let text = String(decoding: sandbox.bytes(file) ?? Data(), as: UTF8.self)
                #expect(!text.contains(secret), "\(secret) stored in \(file)")
            }
        }
        // The request itself carried them: they are sent, never shown.
        let sent = try #require(server.requests().first { $0.path.hasPrefix("/feed") })
        #expect(sent.path == "/feed?token=tok3nSECRET&AccessCode=CODE1234SECRET" && sent.path == "/feed?token=tok3nSECRET&AccessCode=CODE1234SECRET")
        #expect(sent.headers["Authorization"] == "Basic " + Data("alice:hunter22pass".utf8).base64EncodedString())
    }

    @Test func smallerThingsSayWhatTheyWant() throws {
        let sandbox = try Sandbox().prepared()
        let noDays = try sandbox.run(["schedule", "add", "--days", ""])
        #expect(noDays.status == 64 && noDays.stderr == "traveltimes: No day given: use --days weekdays, weekends, daily, or day names such as mon,wed,fri\n", "\(noDays)")
        let combined = try sandbox.ok(["schedule", "add", "--days", "weekdays,sat", "--at", "8:00", "--now", Paths.capturedAt])
        #expect(Whole.normal(combined.stdout) == "Added schedule $ID: 8:00 AM on Mon, Tue, Wed, Thu, Fri, Sat, 3 routes (Everett-Seattle, Seattle-Bellevue via 90, Seattle-Everett); next alert Wed, Nov 5, 8:00 AM.\n", "\(combined)")
        let clearAll = try sandbox.run(["delivered", "clear", "--schedule", "", "--yes"])
        #expect(clearAll.status == 64 && clearAll.stderr == "traveltimes: Invalid --schedule '': give the start of a schedule ID (from `traveltimes schedule list`), or --all. See 'traveltimes delivered clear --help'.\n", "\(clearAll)")
        let quiet = try sandbox.run(["config", "set", "quiet-hours", "22:00"])
        #expect(quiet.stderr == "traveltimes: Invalid quiet-hours '22:00': use START-END, such as 22:00-06:00 (times as --at takes them). See 'traveltimes config set --help'.\n")
        // A FIFO with no writer honours --timeout instead of holding cron forever.
        let fifo = sandbox.path("feed.fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        let started = Date()
        let stalled = try sandbox.run(["refresh", "--source", fifo, "--timeout", "1"])
        #expect(Date().timeIntervalSince(started) < 4)
        #expect(stalled.status == 75, "\(stalled)")
        #expect(stalled.stderr.hasPrefix("traveltimes: refresh failed: timed out after 1 s reading \(fifo); keeping routes updated at"), "\(stalled)")
    }
}

/// One rule for what is never shown as itself — Unicode's Cc, Cf, Zl, Zp and unassigned — at input
/// and at output, text and JSON.
@Suite(.ownThreads) struct InvisibleCharacterTests {
    /// The characters the hostile run found accepted and printed raw, and the three it found refused.
    static let hidden: [Unicode.Scalar] = [
        "\u{061C}", "\u{200B}", "\u{200E}", "\u{200F}", "\u{FEFF}", "\u{2028}", "\u{2029}", "\u{00AD}", "\u{2060}", "\u{180E}",
        "\u{E0001}", "\u{0600}", "\u{202E}", "\u{2066}", "\u{202A}", "\u{0378}",
    ]

    @Test func theRuleIsUnicodesCategories() {
        for scalar in Self.hidden { #expect(DisplayText.isHidden(scalar), "U+\(String(scalar.value, radix: 16))") }
        for visible: Unicode.Scalar in ["a", "é", "ß", "中", "😀", "\u{0301}", " ", "\u{00A0}"] {
            #expect(!DisplayText.isHidden(visible), "U+\(String(visible.value, radix: 16))")
        }
        #expect(DisplayText.line("a\u{200B}b\u{FEFF}") == "a\u{FFFD}b\u{FFFD}")
        #expect(DisplayText.line("Café 中 😀") == "Café 中 😀")
    }

    @Test func everyNameAndValueTheUserTypesIsRefused() throws {
        let sandbox = try Sandbox().prepared()
        for scalar in Self.hidden {
            let text = "a\(Character(scalar))b"
            let attempts: [[String]] = [
                ["group", "add", text, "--route", "1"],
                ["pause", "--from", "2025-11-05", "--until", "2025-11-05", "--reason", text, "--now", Paths.capturedAt],
                ["notify", "add", "webhook", "https://ntfy.example/\(text)"],
                ["notify", "add", "webhook", "https://ntfy.example/t", "--header", "X-Name: \(text)"],
                ["route", "add", "r\(scalar.value)", "--from", "47.6,-122.3", "--to", "47.7,-122.2", "--provider", "here", "--no-check", "--name", text],
            ]
            for attempt in attempts {
                let outcome = try sandbox.run(attempt)
                #expect(outcome.status == 64, "U+\(String(scalar.value, radix: 16)) in \(attempt[0...1]): \(outcome)")
            }
        }
        #expect(try sandbox.store.configuration().notifiers == nil)
        #expect(try sandbox.store.routes().routes.allSatisfy { $0.custom == nil })
    }

    @Test func aFeedsNamesArePrintedWithoutThemInTextAndJSON() throws {
        let sandbox = Sandbox()
        let name = "Everett" + Self.hidden.map { String(Character($0)) }.joined() + "Seattle"
        let feed = try sandbox.feed("invisible.json") { routes in routes[1]?["Name"] = name }
        try sandbox.ok(["refresh", "--source", feed, "--now", Paths.capturedAt])
        try sandbox.ok(["favorites", "add", "1"])
        for command in [["routes", "--search", "everett"], ["routes", "--json"], ["route", "1", "--json"], ["favorites"]] {
            let outcome = try sandbox.ok(command)
            let shown = outcome.stdout.unicodeScalars.filter { DisplayText.isHidden($0) && $0 != "\n" && $0 != "\t" }
            #expect(shown.isEmpty, "\(command) printed \(shown.map { String($0.value, radix: 16) })")
            #expect(outcome.stdout.contains("Everett" + String(repeating: "\u{FFFD}", count: Self.hidden.count) + "Seattle"), "\(command): \(outcome)")
        }
    }
}
