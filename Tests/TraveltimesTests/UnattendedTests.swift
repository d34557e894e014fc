@_spi(Store) import CommuteCore
@_spi(Store) import CommuteStore
import Foundation
import TestThreads
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Run the way it is meant to run — from cron, on a server, unattended — through the binary.
@Suite(.ownThreads) struct CronZoneTests {
    @Test func theSavedZoneRulesWhateverTZCronHas() throws {
        let sandbox = Sandbox(runner: .binary)  // TRAVELTIMES_TZ=America/Los_Angeles while setting up
        try sandbox.ok(["refresh", "--source", Paths.fixture, "--now", Paths.capturedAt])
        try sandbox.ok(["favorites", "add", "1"])
        let added = try sandbox.ok(["schedule", "add", "--preset", "morning", "--now", Paths.capturedAt])
        #expect(added.stdout.hasSuffix(
            "Schedules are in America/Los_Angeles from now on, whatever TZ cron runs with (change it with `traveltimes config set timezone ZONE`).\n"))
        #expect(try sandbox.store.configuration().timeZone == "America/Los_Angeles")

        // Cron on a UTC host: no TRAVELTIMES_TZ, TZ=UTC.
        sandbox.environment["TRAVELTIMES_TZ"] = nil
        let cron = ["TZ": "UTC"]
        // 7:00 AM UTC is 11 PM in Los Angeles: not the morning alert's time, and nothing missed.
        let early = try sandbox.run(["tick", "--quiet", "--now", "2025-11-04T23:00:30-08:00"], environment: cron)
        #expect(early.status == 0 && early.stdout.isEmpty && early.stderr.isEmpty, "\(early)")
        let due = try sandbox.run(["tick", "--quiet", "--now", "2025-11-05T07:00:30-08:00"], environment: cron)
        #expect(due.status == 0 && due.stdout.hasPrefix("Commute at 7:00 AM (Weekdays)\n"), "\(due)")
        let ledger = try #require(try sandbox.json(["delivered", "--json"]) as? [[String: Any]])
        #expect(ledger.map { $0["outcome"] as? String } == ["delivered"])
        #expect(ledger.first?["occurrence"] as? String == "2025-11-05T07:00:00-08:00")
        #expect(Whole.normal(try sandbox.run(["status"], environment: cron).stdout) == """
            Store:      $TMP
            Time zone:  America/Los_Angeles (saved)
            Routes:     163 (3 without data), updated 4:00 PM (0 min ago)
            Refreshed:  4:00 PM from $ROOT/Fixtures/wsdot/travel-times-2025-11-04T1600-0800.json
            Last try:   4:00 PM: ok
            Source:     not set — `traveltimes config set source URL`
            Favorites:  1
            Schedules:  1 (1 enabled)
            Pending:    5 scheduled (cap 64), 0 deferred; planned Wed, Nov 5, 7:00 AM
            Last alert: Wed, Nov 5, 7:00 AM delivered; last 24 h: 1 delivered
            Installed:  nothing runs refresh and tick: `traveltimes install systemd` or `traveltimes install cron`

            """)
        #expect(try sandbox.run(["config", "show"], environment: cron).stdout == """
            source:         not set\u{A}access-code:    not set\u{A}timezone:       America/Los_Angeles (saved)\u{A}grace:          10 min\u{A}quiet-hours:    none\u{A}daily-cap:      20 scheduled alerts\u{A}tomtom-key:     not set\u{A}here-key:       not set\u{A}google-key:     not set\u{A}lead:           60 min before an alert, custom routes are in play\u{A}min-interval:   10 min between requests for a route\u{A}plan-requests:  on (each custom route is asked when its alerts need it, about the moment you will leave)\u{A}budget.tomtom:  2500 requests a day\u{A}budget.here:    1000 requests a day\u{A}budget.google:  160 requests a day\u{A}budget.transitous: 200 requests a day\u{A}budget.osrm:    100 requests a day\u{A}budget.valhalla: 100 requests a day\u{A}stale-after:    1 h: older data, or refreshes failing that long, send a health alert\u{A}alert-lifetime: 2 h after it fires, an alert is cleared where the channel can\u{A}follow-threshold: a followed trip's leave alert is updated when it is cancelled or moves 5 min\u{A}health-notify:  every notifier\u{A}history-days:   400 days of travel times are kept\u{A}typical-weeks:  typical times look back 8 weeks\u{A}contact:        not set (requests name no one to reach: `config set contact YOUR-EMAIL`, as the public services ask)\u{A}geocoder-url:   https://nominatim.openstreetmap.org\u{A}tomtom-url:     https://api.tomtom.com\u{A}here-url:       https://router.hereapi.com\u{A}google-url:     https://routes.googleapis.com\u{A}transitous-url: https://api.transitous.org\u{A}osrm-url:       https://router.project-osrm.org\u{A}valhalla-url:   https://valhalla1.openstreetmap.de\u{A}free-flow-margin: free-flow estimates × 1.25 for arrive-by leave times\u{A}units:          mi (the unit of America/Los_Angeles's country; config set units km|mi)\u{A}notifiers:      stdout\u{A}
            """)
        // A second schedule does not save it again.
        let evening = try sandbox.run(["schedule", "add", "--preset", "evening", "--now", "2025-11-05T08:00:00-08:00"], environment: cron)
        #expect(evening.status == 0 && !evening.stdout.contains("Schedules are in"), "\(evening)")

        // TRAVELTIMES_TZ overrides it for one command, and changes nothing saved.
        let london = try #require(
            try sandbox.json(["pending", "--json", "--now", "2025-11-05T08:00:00Z"], environment: ["TRAVELTIMES_TZ": "Europe/London"])
                as? [String: Any])
        let fires = (london["requests"] as? [[String: Any]] ?? []).compactMap { $0["nextFire"] as? String }
        #expect(fires.first == "2025-11-05T16:30:00Z", "\(fires)")
        #expect(try sandbox.run(["config", "show"], environment: ["TRAVELTIMES_TZ": "Europe/London"]).stdout
            .contains("timezone:       Europe/London (from TRAVELTIMES_TZ, for this command; saved: America/Los_Angeles)\n"))

        // config set timezone re-plans in the new zone.
        let tokyo = try sandbox.run(["config", "set", "timezone", "Asia/Tokyo", "--now", "2025-11-05T08:00:00Z"], environment: cron)
        #expect(tokyo.stdout == "timezone set to Asia/Tokyo; 10 alerts re-planned in Asia/Tokyo.\n", "\(tokyo)")
        let pending = try #require(try sandbox.json(["pending", "--json", "--now", "2025-11-05T08:00:00Z"]) as? [String: Any])
        #expect((pending["requests"] as? [[String: Any]])?.first?["nextFire"] as? String == "2025-11-06T07:00:00+09:00")
        let bad = try sandbox.run(["config", "set", "timezone", "Mars/Olympus_Mons"])
        #expect(bad.status == 64 && bad.stderr == "traveltimes: Unknown time zone 'Mars/Olympus_Mons': use an IANA name such as America/Los_Angeles or Europe/London. See 'traveltimes config set --help'.\n")
        #expect(try sandbox.store.configuration().timeZone == "Asia/Tokyo")
    }
}

@Suite(.ownThreads) struct FreshWordsTests {
    @Test func anAlertDueInARefreshMinuteDescribesNowNotNextWeek() throws {
        let sandbox = Sandbox(runner: .binary)
        try sandbox.ok(["refresh", "--source", Paths.fixture, "--now", Paths.capturedAt])
        try sandbox.ok(["favorites", "add", "1", "96"])
        try sandbox.ok(["schedule", "add", "--preset", "evening", "--now", Paths.capturedAt])
        // Both run in the 4:30 PM minute: the refresh first, the tick seven seconds on.
        try sandbox.ok(["refresh", "--quiet", "--source", Paths.fixture, "--now", "2025-11-04T16:30:00-08:00"])
        let pending = try #require(try sandbox.json(["pending", "--json", "--now", "2025-11-04T16:30:05-08:00"]) as? [String: Any])
        #expect((pending["requests"] as? [[String: Any]])?.first?["nextFire"] as? String == "2025-11-04T16:30:00-08:00",
            "the due occurrence stays planned until tick deals with it")
        let tick = try sandbox.ok(["tick", "--quiet", "--now", "2025-11-04T16:30:07-08:00"])
        #expect(tick.stdout == """
            Commute at 4:30 PM (Weekdays)
            Everett-Seattle: 34 min (-11 min, CLEAR)
            Seattle-Bellevue via 90: 14 min (-1 min, CLEAR)


            """)
        // Handled, it moves on a day.
        let after = try #require(try sandbox.json(["pending", "--json", "--now", "2025-11-04T16:31:00-08:00"]) as? [String: Any])
        #expect((after["requests"] as? [[String: Any]])?.first?["nextFire"] as? String == "2025-11-05T16:30:00-08:00")
    }

    @Test func theWordsAreComposedAtDeliveryFromTheCacheAsItIsThen() throws {
        let sandbox = Sandbox(runner: .binary)
        try sandbox.ok(["refresh", "--source", Paths.fixture, "--now", Paths.capturedAt])
        try sandbox.ok(["favorites", "add", "1"])
        try sandbox.ok(["schedule", "add", "--at", "16:30", "--days", "tue", "--now", Paths.capturedAt])
        // New routes saved, but the plan not remade (a refresh killed between its two writes).
        let slower = try sandbox.feed("slower.json") { $0[1]?["CurrentTime"] = 58 }
        _ = try Store(directory: sandbox.home).replaceRoutes(fetchedAt: try #require(ISO8601.parse(Paths.capturedAt)?.instant), source: "test") { _, save in
            _ = try WSDOTFeed.forEachRoute(in: .file(path: slower)) { try save($0) }
        }
        let tick = try sandbox.ok(["tick", "--now", "2025-11-04T16:30:00-08:00"])
        #expect(tick.stdout == "Commute at 4:30 PM (Tue)\nEverett-Seattle: 58 min (+13 min, CONGESTED)\n\n")
        // Data over an hour old at delivery says so, measured from delivery.
        let late = try sandbox.ok(["config", "set", "grace", "2h"])
        #expect(late.status == 0)
        try sandbox.ok(["schedule", "add", "--at", "17:00", "--days", "tue", "--now", "2025-11-04T16:40:00-08:00"])
        let stale = try sandbox.ok(["tick", "--now", "2025-11-04T18:10:00-08:00"])
        #expect(stale.stdout == """
            Commute at 5:00 PM (Tue)\u{A}Everett-Seattle: 58 min (+13 min, CONGESTED)\u{A}Data is 2 h old (updated 4:00 PM)\u{A}(late by 1 h)\u{A}\u{A}
            """, "\(stale)")
    }

    @Test func aTickReadsTheLedgerOnlyWhenSomethingNewIsDue() throws {
        let sandbox = Sandbox(runner: .binary)
        try sandbox.ok(["refresh", "--source", Paths.fixture, "--now", Paths.capturedAt])
        try sandbox.ok(["favorites", "add", "1"])
        try sandbox.ok(["schedule", "add", "--at", "16:30", "--days", "tue,wed", "--now", Paths.capturedAt])
        #expect(try sandbox.ok(["tick", "--now", "2025-11-04T16:30:00-08:00"]).stdout.hasPrefix("Commute at 4:30 PM"))
        // The re-plan after delivering marked the occurrence as dealt with.
        let entry = try #require(try sandbox.store.pending().requests.first { $0.weekday == .tuesday })
        #expect(entry.handled == ISO8601.parse("2025-11-04T16:30:00-08:00")?.instant)
        // With the ledger unreadable, the minutes after it need nothing from it...
        let corrupt = Data("{\"version\": 1, \"entries\": [tru".utf8)
        try Sandbox.write(sandbox.path("delivered.json"), corrupt)
        for minute in ["16:31", "16:45", "23:59"] {
            let quiet = try sandbox.run(["tick", "--quiet", "--now", "2025-11-04T\(minute):00-08:00"])
            #expect(quiet.status == 0 && quiet.stdout.isEmpty && quiet.stderr.isEmpty, "\(minute): \(quiet)")
        }
        // ...and the next alert due reads it, and says what is wrong, changing nothing.
        let due = try sandbox.run(["tick", "--now", "2025-11-05T16:30:00-08:00"])
        #expect(due.status == 65 && Whole.normal(due.stderr) == "traveltimes: $TMP/delivered.json: not valid JSON; nothing was changed (the file was left untouched) — fix or move it aside, then try again\n", "\(due)")
        #expect(sandbox.bytes("delivered.json") == corrupt)
    }

    @Test func aDueAlertIsNotLostBehindTheCap() throws {
        let sandbox = Sandbox(runner: .binary)
        sandbox.environment["TRAVELTIMES_CAP"] = "1"
        try sandbox.ok(["refresh", "--source", Paths.fixture, "--now", Paths.capturedAt])
        try sandbox.ok(["favorites", "add", "1"])
        try sandbox.ok(["schedule", "add", "--at", "16:30", "--days", "tue", "--now", Paths.capturedAt])
        try sandbox.ok(["schedule", "add", "--at", "16:30", "--days", "tue", "--route", "1", "--now", Paths.capturedAt])
        try sandbox.ok(["refresh", "--quiet", "--source", Paths.fixture, "--now", "2025-11-04T16:30:00-08:00"])
        // Both are due in the same minute under a cap of one: the tick takes them in turn.
        let tick = try sandbox.ok(["tick", "--quiet", "--now", "2025-11-04T16:30:10-08:00"])
        #expect(tick.stdout.components(separatedBy: "Commute at 4:30 PM (Tue)").count == 3, "\(tick)")
        let ledger = try #require(try sandbox.json(["delivered", "--json"]) as? [[String: Any]])
        #expect(ledger.map { $0["outcome"] as? String } == ["delivered", "delivered"])
    }
}

@Suite(.ownThreads) struct CronQuietTests {
    @Test func quietPrintsNothingOnSuccessAndWarnsOnlyWhenSomethingChanged() throws {
        let sandbox = Sandbox(runner: .binary)
        sandbox.environment["TRAVELTIMES_CAP"] = "2"
        try sandbox.ok(["refresh", "--source", Paths.fixture, "--now", Paths.capturedAt])
        try sandbox.ok(["favorites", "add", "1", "96"])
        let added = try sandbox.ok(["schedule", "add", "--preset", "morning", "--now", Paths.capturedAt])
        #expect(added.stderr == "traveltimes: warning: 5 alerts requested, 2 scheduled, 3 deferred (cap 2); deferred alerts are scheduled as earlier ones fire — see `traveltimes pending`\n")
        let refresh = try sandbox.ok(["refresh", "-q", "--source", Paths.fixture, "--now", "2025-11-04T16:15:00-08:00"])
        #expect(refresh.stdout.isEmpty && refresh.stderr.isEmpty, "the same deferred set: no warning\n\(refresh)")
        let idle = try sandbox.ok(["tick", "--quiet", "--now", "2025-11-04T16:16:00-08:00"])
        #expect(idle.stdout.isEmpty && idle.stderr.isEmpty)
        // A favorite leaves the feed: said once, then not again while it stays gone.
        let without96 = try sandbox.feed("no96.json") { $0[96] = nil }
        let first = try sandbox.ok(["refresh", "-q", "--source", without96, "--now", "2025-11-04T16:30:00-08:00"])
        #expect(first.stdout.isEmpty)
        #expect(first.stderr == "traveltimes: warning: favorite 96 is not in this feed: it stays a favorite and shows as unavailable\n")
        let second = try sandbox.ok(["refresh", "-q", "--source", without96, "--now", "2025-11-04T16:45:00-08:00"])
        #expect(second.stdout.isEmpty && second.stderr.isEmpty, "\(second)")
        // Without --quiet, a person at the keyboard sees everything.
        let loud = try sandbox.ok(["refresh", "--source", without96, "--now", "2025-11-04T17:00:00-08:00"])
        #expect(loud.stdout.hasPrefix("Refreshed 162 routes"))
        #expect(loud.stderr == "traveltimes: warning: favorite 96 is not in this feed: it stays a favorite and shows as unavailable\n")
        // When an alert fires, the window rolls and the deferred set changes: one warning.
        let fired = try sandbox.ok(["tick", "--quiet", "--now", "2025-11-05T07:00:00-08:00"])
        #expect(fired.stdout.hasPrefix("Commute at 7:00 AM (Weekdays)\n"))
        #expect(fired.stderr.hasPrefix("traveltimes: warning: 5 alerts requested, 2 scheduled, 3 deferred (cap 2)"), "\(fired)")
        #expect(try sandbox.ok(["refresh", "-q", "--source", without96, "--now", "2025-11-05T07:15:00-08:00"]).stderr.isEmpty)
    }

    @Test func helpTellsHowToRunFromCron() throws {
        let sandbox = Sandbox(runner: .binary)
        #expect(try sandbox.ok(["refresh", "--help"]).stdout == """
            Usage: traveltimes refresh [--source URL|FILE] [--all] [--route ID]… [--timeout SECONDS] [--dry-run] [--quiet] [--json] [--now TIME]\u{A}\u{A}Fetch travel times, save them, and reschedule every alert with them\u{A}\u{A}The feed is WSDOT's GetTravelTimesAsJson, from an http(s) URL or a file (a pipe such as\u{A}/dev/stdin too). The access code comes from $WSDOT_ACCESS_CODE or `config set\u{A}access-code`, and is added as the AccessCode query parameter when the URL has none. It\u{A}never appears in any output or file but config.json, nor do a URL's user, password or\u{A}query values.\u{A}Connection failures and 5xx are retried after 1 s, 2 s, 4 s while the deadline allows;\u{A}an unchanged feed (304) keeps the cache and still reschedules. Any failure before the\u{A}routes are saved leaves the route cache and the pending alerts exactly as they were.\u{A}A route holding an impossible value (a time over a day, a date past 9999) is left out,\u{A}with a warning; the rest are saved.\u{A}Custom routes (`route add`) on TomTom, HERE, Google and Transitous are asked when their\u{A}alerts need it (`config set plan-requests`, on by default): once when an alert's window\u{A}opens (3 h before an arrival, `lead` before a fixed time), about the moment you will\u{A}leave — TomTom's departAt, HERE's and Google's departureTime predict it, and the question\u{A}is asked once more when the answer moves the departure — then once 12 min before the\u{A}alert goes out (a car route about now: today's traffic moves the prediction), and between\u{A}only while its answers move 3 min or more (every 5 min); never twice in a minute, one\u{A}answer serving every alert on the route. Other custom routes, watched ones and\u{A}those never asked (and all with plan-requests off) are asked when in play: an alert\u{A}that uses them within `lead` (60 min), a delay watch, or never fetched; never again\u{A}within `min-interval` (10 min). Never past a provider's daily budget; each at most 3\u{A}times (1 s, 2 s apart), and a provider whose every request failed is left alone for an\u{A}hour. --dry-run says which custom routes would be asked now and why, and asks nothing. With no feed\u{A}source, only the custom routes and transit feeds are refreshed, and the refresh is a\u{A}success only when none failed or was held back (else it exits 75). A key that is missing or rejected names\u{A}the setting to fix, keeps that provider's routes as they were, saves the others, and\u{A}exits 69.\u{A}Transit feeds (`transit add`, not with --route): each timetable at most daily, with its\u{A}validators, and a new one taken only when it still serves every transit route; the\u{A}realtime feeds every time, used only when dated within 15 minutes. A file that cannot be\u{A}fetched or read is a warning (with --quiet, only when new), what was there is kept, the\u{A}rest is refreshed, and the refresh exits 75.\u{A}--json prints what was fetched, saved and rescheduled, each custom route fetched or\u{A}skipped with the reason, and the warnings and delay-watch alerts, as one object\u{A}(warnings still go to stderr as well).\u{A}Run it every 15 minutes: `traveltimes install systemd` or `traveltimes install cron`.\u{A}\u{A}Options:\u{A}  --source URL|FILE  Feed to read (else $TRAVELTIMES_SOURCE, else `config set source`)\u{A}  --all              Ask about every custom route, in play or not (the budget still applies)\u{A}  --route ID         Ask about this custom route only, and skip the feed (repeatable)\u{A}  --timeout SECONDS  Deadline for the whole fetch, retries included (default 25)\u{A}  --dry-run          Say which custom routes a refresh would ask now, and why; ask nothing, change nothing\u{A}  -q, --quiet        Print nothing on success; a warning only when something changed (for cron)\u{A}  --json             Print JSON for scripts (stable field names)\u{A}  --now TIME         Act as if it were this ISO 8601 time (e.g. 2025-11-04T07:00:00-08:00)\u{A}  -h, --help         Show this help\u{A}
            """)
        let tick = try sandbox.ok(["tick", "--help"]).stdout
        #expect(tick == """
            Usage: traveltimes tick [--quiet] [--now TIME]

            Deliver the alerts that are due (run by cron every minute)

            Each due occurrence is delivered once through every notifier, however many ticks run,
            with its words composed now from the freshest routes saved. One more than the grace
            window late (config set grace; default 10m) is recorded as missed, not delivered: a
            laptop waking at 9:00 does not burst out the 7:00 alert. A failed notifier is retried by
            later ticks while the grace window lasts. A tick killed while sending is recovered: two
            minutes on, a later tick sends that alert again — so across a crash an alert arrives at
            least once, perhaps twice, and the ledger says "resent after an interrupted tick".
            Health: when an alert due within lead would carry data older than stale-after (60m), or
            refreshes have failed that long, one health alert says what is wrong, since when, the
            fix and the alerts it touches, and one more says when it mends (config set
            stale-after; off for none). Quiet hours hold them; at most 4 a day.
            One notification per occurrence: where the channel can change one (ntfy, Telegram,
            Matrix, Discord, the desktop), the leave alert replaces its heads-up, a watch's
            "cleared" its "over", a health alert's "mended" the problem; a heads-up is revised when
            the leave time moves 3 minutes or more (on the other channels that is a new message,
            held in quiet hours); and where the channel can clear (ntfy, the desktop), an alert is
            dismissed once over: at its arrival, or alert-lifetime after it fired (default 2h).
            Install:  * * * * * traveltimes tick --quiet

            Options:
              -q, --quiet  Print nothing on success; a warning only when something changed (for cron)
              --now TIME   Act as if it were this ISO 8601 time (e.g. 2025-11-04T07:00:00-08:00)
              -h, --help   Show this help

            """)
    }
}

@Suite(.ownThreads) struct OnceAndTruthfulDeliveryTests {
    /// The fixture, favorite 1, and a 4:30 PM Tuesday schedule.
    func sandbox() throws -> Sandbox {
        let sandbox = Sandbox(runner: .binary)
        try sandbox.ok(["refresh", "--source", Paths.fixture, "--now", Paths.capturedAt])
        try sandbox.ok(["favorites", "add", "1"])
        try sandbox.ok(["schedule", "add", "--at", "16:30", "--days", "tue", "--now", Paths.capturedAt])
        return sandbox
    }

    @Test func aNotifierThatSucceededIsNotSentAgain() throws {
        let sandbox = try sandbox()
        let log = sandbox.path("sent.log")
        // Exits 0 at once, leaving a child that holds stderr for 30 s; then a flood of output.
        try sandbox.ok(["notify", "add", "exec", "sh", "-c", "echo \"$TRAVELTIMES_ID\" >> \(log); sleep 30 >&2 &"])
        try sandbox.ok(["notify", "add", "exec", "sh", "-c", "head -c 3000000 /dev/zero; head -c 3000000 /dev/zero >&2; echo flood >> \(log)"])
        let started = Date()
        let tick = try sandbox.run(["tick", "--quiet", "--now", "2025-11-04T16:30:00-08:00"])
        #expect(tick.status == 0 && tick.stderr.isEmpty, "\(tick)")
        #expect(Date().timeIntervalSince(started) < 5, "waited for the process, not its pipes")
        try sandbox.ok(["tick", "--quiet", "--now", "2025-11-04T16:31:00-08:00"])
        try sandbox.ok(["tick", "--quiet", "--now", "2025-11-04T16:35:00-08:00"])
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 2 && lines.contains("flood"), "\(lines)")
        let ledger = try #require(try sandbox.json(["delivered", "--json"]) as? [[String: Any]])
        #expect(ledger.map { $0["outcome"] as? String } == ["delivered", "delivered"])
    }

    @Test func aFailingProgramSaysWhy() throws {
        let sandbox = try sandbox()
        try sandbox.ok(["notify", "add", "exec", "sh", "-c", "echo 'cannot connect to the session bus' >&2; exit 3"])
        let tick = try sandbox.run(["tick", "--now", "2025-11-04T16:30:00-08:00"])
        #expect(tick.status == 1)
        #expect(Whole.normal(tick.stderr) == """
            traveltimes: notifier 1 failed for schedule.$UUID.weekday.3: sh exited with status 3: cannot connect to the session bus; retrying while the grace window lasts
            traveltimes: 1 delivery failed; see `traveltimes delivered`

            """)
    }

    @Test func aTickKilledMidSendIsRecoveredAndSaysSo() throws {
        let sandbox = try sandbox()
        let log = sandbox.path("sent.log")
        let marker = sandbox.path("marker")
        // The first run hangs (the tick is killed meanwhile, and the run after it); later runs
        // return at once.
        try sandbox.ok(["notify", "add", "exec", "sh", "-c", "if [ ! -e \(marker) ]; then echo $$ > \(marker); sleep 30; exit 1; fi; echo sent >> \(log)"])
        let dying = try sandbox.start(["tick", "--now", "2025-11-04T16:30:00-08:00"])
        let deadline = Date().addingTimeInterval(10)
        var hung: pid_t?
        while hung == nil, Date() < deadline {
            usleep(20_000)
            hung = (try? String(contentsOfFile: marker, encoding: .utf8)).flatMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        }
        kill(dying.process.processIdentifier, SIGKILL)
        _ = try dying.wait()
        // The notifier runs in a group of its own, which outlives the tick: end it too.
        if let hung { kill(-hung, SIGKILL) }
        let claimed = try #require(try sandbox.store.ledger().entries.last)
        #expect(claimed.outcome == .claimed && claimed.claimant?.hasPrefix("\(dying.process.processIdentifier):") == true)
        // The claim names its tick, which is gone: the next tick sends the alert again at once.
        try sandbox.ok(["tick", "--now", "2025-11-04T16:31:00-08:00"])
        #expect(try String(contentsOfFile: log, encoding: .utf8) == "sent\n")
        let ledger = try #require(try sandbox.json(["delivered", "--json"]) as? [[String: Any]])
        #expect(ledger.count == 1)
        #expect(ledger.first?["outcome"] as? String == "delivered")
        #expect(ledger.first?["attempts"] as? Int == 2)
        #expect(ledger.first?["reason"] as? String == "resent after an interrupted tick; late by 1 min")
    }

    @Test func webhookRedirectsAreFollowedWholeOrFailedNeverFaked() throws {
        let server = try FeedServer()
        let sandbox = try sandbox()
        try sandbox.ok(["notify", "add", "webhook", server.url("/hook-307/SECRET"), "--format", "json"])
        try sandbox.ok(["notify", "add", "webhook", server.url("/hook-302/SECRET"), "--format", "json"])
        let tick = try sandbox.run(["tick", "--now", "2025-11-04T16:30:00-08:00"])
        #expect(tick.status == 1)
        #expect(tick.stderr.contains(
            "notifier 2 failed for schedule.")
            && tick.stderr.contains(
                "http://127.0.0.1:\(server.port)/… answered HTTP 302, a redirect that would turn the POST into a GET without the alert; not followed — use the URL it redirects to"),
            "\(tick)")
        #expect(!tick.stderr.contains("SECRET"))
        // The 307 reached its final endpoint as a POST, body intact; nothing reached it as a GET.
        let posts = server.posts()
        #expect(posts.map(\.path) == ["/hook-307/SECRET", "/hook-final", "/hook-302/SECRET"], "\(posts.map(\.path))")
        #expect(Whole.normal(posts[1].body) == "{\"body\":\"Everett-Seattle: 34 min (-11 min, CLEAR)\",\"id\":\"schedule.$UUID.weekday.3\",\"title\":\"Commute at 4:30 PM (Tue)\",\"urgency\":\"normal\"}")
        #expect(server.requests().filter { $0.path == "/hook-final" }.count == 1, "the one POST, and no GET")
        let ledger = try #require(try sandbox.json(["delivered", "--json"]) as? [[String: Any]])
        #expect(Set(ledger.map { "\($0["notifier"] as? Int ?? 0):\($0["outcome"] as? String ?? "")" }) == ["1:delivered", "2:failed"])
    }
}

@Suite(.ownThreads) struct FetchHelperOperationTests {
    @Test(ExternalTool.gnuTime.needed) func waitingOnASilentServerCostsNoCPUAndEndsAtTheDeadline() throws {
        let server = try FeedServer()
        let sandbox = Sandbox(runner: .binary)
        let timed = try sandbox.run(
            ["refresh", "--source", server.url("/hang"), "--timeout", "3"], wrapper: ["/usr/bin/time", "-f", "cpu %U %S wall %e"])
        #expect(timed.status == 75, "\(timed)")
        let figures = timed.stderr.split(separator: "\n").last.map { $0.split(separator: " ") } ?? []
        let cpu = (Double(figures.count > 2 ? figures[1] : "") ?? 99) + (Double(figures.count > 2 ? figures[2] : "") ?? 99)
        let wall = Double(figures.last ?? "") ?? 99
        #expect(cpu < 0.5, "3 s of waiting cost \(cpu) s of CPU: \(timed.stderr)")
        #expect(wall >= 2.9 && wall < 4.5, "\(wall) s for a 3 s deadline")
    }

    @Test func aMissingHelperFailsAtOnceNamingIt() throws {
        let sandbox = Sandbox(runner: .binary)
        let started = Date()
        let outcome = try sandbox.run(
            ["refresh", "--source", "https://wsdot.wa.gov/feed"], environment: ["TRAVELTIMES_FETCH_HELPER": "/opt/nowhere/traveltimes"])
        #expect(Date().timeIntervalSince(started) < 3)
        #expect(outcome.status == 69, "\(outcome)")
        #expect(outcome.stderr == "traveltimes: refresh failed: the fetch helper is missing: /opt/nowhere/traveltimes is not an executable program (TRAVELTIMES_FETCH_HELPER names it, or traveltimes runs itself); no routes are cached yet\n", "\(outcome)")
    }

    @Test(ExternalTool.gnuTime.needed) func hostileServersAreBoundedAndWhatCannotMendIsNotRetried() throws {
        let server = try FeedServer()
        let sandbox = Sandbox(runner: .binary)
        // Decoded size is bounded as it arrives: 256 KiB of gzip that would be 64 MiB, and a body that never ends.
        for path in ["/bomb", "/endless"] {
            let outcome = try sandbox.run(
                ["refresh", "--source", server.url(path), "--timeout", "20"], wrapper: ["/usr/bin/time", "-f", "peak %M"])
            #expect(outcome.status == 69, "\(path): \(outcome)")
            #expect(outcome.stderr.contains("the response is larger than 32 MiB; refusing it"), "\(path): \(outcome)")
            let peak = Int(outcome.stderr.split(separator: "\n").last?.split(separator: " ").last ?? "") ?? Int.max
            // GNU time reports the largest of the process and its children: the helper, at its limit.
            #expect(peak < 100 << 10, "\(path): peak \(peak) KiB")
        }
        // Failures that retrying cannot mend are reported at once.
        for (path, reason) in [
            ("/redirect-ftp", "only http and https are followed, redirects included"),
            ("/big-headers", "the server's response headers are larger than 64 KiB"),
        ] {
            let started = Date()
            let outcome = try sandbox.run(["refresh", "--source", server.url(path)])
            #expect(Date().timeIntervalSince(started) < 3, "\(path) was retried")
            #expect(outcome.status == 69, "\(path): \(outcome)")
            #expect(outcome.stderr.contains(reason) && outcome.stderr.contains("(not retried: trying again cannot help)"), "\(outcome)")
        }
        #expect(server.requests().filter { $0.path == "/redirect-ftp" }.count == 1)
        let empty = try sandbox.run(["refresh", "--source", "http://"])
        #expect(empty.status == 64 && empty.stderr == "traveltimes: Invalid source 'http://': a URL needs a host, such as https://wsdot.wa.gov/…. See 'traveltimes refresh --help'.\n")
    }

    @Test func validatorsGoBackOnlyToTheSourceThatIssuedThem() throws {
        let server = try FeedServer()
        let sandbox = Sandbox(runner: .binary)
        try sandbox.ok(["refresh", "--source", server.url("/etag"), "--now", Paths.capturedAt])
        let other = try sandbox.feed("other.json") { $0[1]?["CurrentTime"] = 77 }
        try sandbox.ok(["refresh", "--source", other, "--now", Paths.capturedAt])
        let again = try sandbox.ok(["refresh", "--source", server.url("/etag"), "--now", Paths.capturedAt])
        #expect(again.stdout.hasPrefix("Refreshed 163 routes"), "a fresh 200, not a 304 that keeps the file's times: \(again)")
        let headers = server.requests().filter { $0.path.hasPrefix("/etag") }.map { $0.headers["If-None-Match"] }
        #expect(headers == [nil, nil])
        #expect(try sandbox.ok(["route", "1", "--now", Paths.capturedAt]).stdout == """
            Everett-Seattle (route 1)\u{A}  Everett to Downtown Seattle\u{A}  From:     I-5 @ 41st St in Everett, road 005, heading S, milepost 192.55\u{A}  To:       I-5 @ University St in Seattle, road 005, heading S, milepost 165.83\u{A}  Distance: 26.7 mi\u{A}  Now:      34 min (usually 45 min)\u{A}  Delay:    -11 min, CLEAR\u{A}  Arrive:   4:34 PM if you leave now\u{A}  Updated:  4:00 PM (0 min ago)\u{A}  Schedules: none\u{A}
            """)
        // From the same source, with its routes still cached, the validator goes back: 304.
        let unchanged = try sandbox.ok(["refresh", "--source", server.url("/etag"), "--now", Paths.capturedAt])
        #expect(unchanged.stdout.hasPrefix("Feed unchanged since the last refresh (HTTP 304)"))
    }
}
