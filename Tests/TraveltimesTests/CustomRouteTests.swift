@_spi(Store) import CommuteCore
@_spi(Store) import CommuteStore
import Foundation
import TestThreads
import Testing

@Suite(.ownThreads) struct CustomRouteTests {
    static let home = "47.6062,-122.3321"
    static let work = "47.6101,-122.2015"

    /// A sandbox pointed at the server, with a key for each provider in config.json.
    func sandbox(_ server: ProviderServer) throws -> Sandbox {
        let sandbox = Sandbox()
        sandbox.environment.merge(server.environment) { _, new in new }
        // A key on standard input stays out of argv.
        let piped = try sandbox.run(["config", "set", "tomtom-key", "-"], stdin: "tt-KEYSECRET-1\n")
        #expect(piped.status == 0 && piped.stdout == "tomtom-key set (stored only in config.json, mode 0600).\n")
        #expect(try sandbox.store.configuration().key(for: .tomtom) == "tt-KEYSECRET-1")
        try sandbox.ok(["config", "set", "here-key", "here-KEYSECRET-2"])
        try sandbox.ok(["config", "set", "google-key", "goog-KEYSECRET-3"])
        return sandbox
    }

    func add(_ sandbox: Sandbox, _ id: String, _ provider: String, from: String = home, to: String = work, _ extra: [String] = []) throws -> Outcome {
        try sandbox.run(["route", "add", id, "--from", from, "--to", to, "--provider", provider] + extra)
    }

    @Test func eachProviderIsAskedAsItDocumentsAndItsAnswerBecomesARoute() throws {
        let server = try ProviderServer()
        let sandbox = try sandbox(server)
        let tomtom = try add(sandbox, "home-work", "tomtom", ["--name", "Home to work"])
        #expect(tomtom.status == 0 && tomtom.stdout == "Added route home-work: Home to work: 25 min now (usually 22 min; +3 min, SLOWING), 8.4 mi.\n")
        let here = try add(sandbox, "gym", "here")
        #expect(here.stdout == "Added route gym: 47.6062,-122.3321 → 47.6101,-122.2015 (HERE): 26 min now (usually 20 min; +6 min, CONGESTED), 8.7 mi.\n")
        let google = try add(sandbox, "school", "google", ["--name", "School run"])
        #expect(google.stdout == "Added route school: School run: 30 min now (without traffic 20 min; +10 min, CONGESTED), 7.5 mi.\n")

        // Each request as the documentation has it.
        let requests = server.requests()
        try #require(requests.count == 3)
        #expect(requests[0].method == "GET" && requests[0].path == "/routing/1/calculateRoute/\(Self.home):\(Self.work)/json")
        #expect(requests[0].query == [
            "key": "tt-KEYSECRET-1", "traffic": "true", "travelMode": "car", "computeTravelTimeFor": "all", "routeRepresentation": "summaryOnly",
        ])
        #expect(requests[1].method == "GET" && requests[1].path == "/v8/routes")
        #expect(requests[1].query == [
            "transportMode": "car", "origin": Self.home, "destination": Self.work, "return": "summary,typicalDuration", "apiKey": "here-KEYSECRET-2",
        ])
        #expect(requests[2].method == "POST" && requests[2].path == "/directions/v2:computeRoutes" && requests[2].query.isEmpty)
        #expect(requests[2].headers["x-goog-api-key"] == "goog-KEYSECRET-3")
        #expect(requests[2].headers["x-goog-fieldmask"] == "routes.duration,routes.staticDuration,routes.distanceMeters")
        let body = try #require(try JSONSerialization.jsonObject(with: Data(requests[2].body.utf8)) as? NSDictionary)
        #expect(body == [
            "origin": ["location": ["latLng": ["latitude": 47.6062, "longitude": -122.3321]]],
            "destination": ["location": ["latLng": ["latitude": 47.6101, "longitude": -122.2015]]],
            "travelMode": "DRIVE", "routingPreference": "TRAFFIC_AWARE",
        ] as NSDictionary)

        // The routes are routes: listed with their source, and their ends in JSON.
        let listed = try #require(try sandbox.json(["routes", "--json"]) as? [[String: Any]])
        #expect(listed.map { $0["id"] as? String } == ["home-work", "gym", "school"])
        #expect(listed.map { $0["source"] as? String } == ["tomtom", "here", "google"])
        #expect(listed[0]["from"] as? NSDictionary == ["latitude": 47.6062, "longitude": -122.3321])
        #expect(listed[2]["currentMinutes"] as? Int == 30 && listed[2]["averageMinutes"] as? Int == 20)
        let table = try sandbox.ok(["routes"]).stdout
        #expect(table == """
            Updated: tomtom 4:00 PM; here 4:00 PM; google 4:00 PM
                     ID  NAME                                             NOW      AVG    DELAY  STATUS     SOURCE  UPDATED
              home-work  Home to work                                  25 min   22 min   +3 min  SLOWING    tomtom  4:00 PM
                    gym  47.6062,-122.3321 → 47.6101,-122.2015 (HERE)  26 min   20 min   +6 min  CONGESTED  here    4:00 PM
                 school  School run                                    30 min  20 min†  +10 min  CONGESTED  google  4:00 PM
            † Google gives no usual time: its AVG is the time without traffic, so its delays run high.

            """)
        #expect(table.hasSuffix("† Google gives no usual time: its AVG is the time without traffic, so its delays run high.\n"))
        let view = try sandbox.ok(["route", "school"]).stdout
        #expect(view == """
            School run (route school)
              47.6062,-122.3321 → 47.6101,-122.2015 (Google)
              From:     47.6062,-122.3321
              To:       47.6101,-122.2015
              Source:   Google (a custom route)
              Distance: 7.5 mi
              Now:      30 min (without traffic 20 min)
              Delay:    +10 min, CONGESTED
              Arrive:   4:30 PM if you leave now
              Updated:  4:00 PM (0 min ago)
              Schedules: none

            """)

        // Keys are nowhere but config.json.
        for name in ["routes.json", "refresh.json", "pending.json"] {
            #expect(!String(decoding: sandbox.bytes(name) ?? Data(), as: UTF8.self).contains("KEYSECRET"), "\(name)")
        }
        let shown = try sandbox.ok(["config", "show"]).stdout + (try sandbox.ok(["status"]).stdout)
        #expect(!shown.contains("KEYSECRET") && Whole.normal(shown) == """
            source:         not set
            access-code:    not set
            timezone:       America/Los_Angeles (from TRAVELTIMES_TZ, for this command; saved: none)
            grace:          10 min
            quiet-hours:    none
            daily-cap:      20 scheduled alerts
            tomtom-key:     set
            here-key:       set
            google-key:     set
            lead:           60 min before an alert, custom routes are in play
            min-interval:   10 min between requests for a route
            plan-requests:  on (each custom route is asked when its alerts need it, about the moment you will leave)
            budget.tomtom:  2500 requests a day
            budget.here:    1000 requests a day
            budget.google:  160 requests a day
            budget.transitous: 200 requests a day
            budget.osrm:    100 requests a day
            budget.valhalla: 100 requests a day
            stale-after:    1 h: older data, or refreshes failing that long, send a health alert
            alert-lifetime: 2 h after it fires, an alert is cleared where the channel can
            follow-threshold: a followed trip's leave alert is updated when it is cancelled or moves 5 min
            health-notify:  every notifier
            history-days:   400 days of travel times are kept
            typical-weeks:  typical times look back 8 weeks
            contact:        not set (requests name no one to reach: `config set contact YOUR-EMAIL`, as the public services ask)
            geocoder-url:   https://nominatim.openstreetmap.org
            tomtom-url:     https://api.tomtom.com
            here-url:       https://router.hereapi.com
            google-url:     https://routes.googleapis.com
            transitous-url: https://api.transitous.org
            osrm-url:       https://router.project-osrm.org
            valhalla-url:   https://valhalla1.openstreetmap.de
            free-flow-margin: free-flow estimates × 1.25 for arrive-by leave times
            units:          mi (the unit of America/Los_Angeles's country; config set units km|mi)
            notifiers:      stdout
            Store:      $TMP
            Time zone:  America/Los_Angeles (from TRAVELTIMES_TZ, for this command; saved: none)
            Routes:     3 (0 without data); updated tomtom 4:00 PM (0 min ago); here 4:00 PM (0 min ago); google 4:00 PM (0 min ago)
            Source:     not set (custom routes only)
            Providers:  tomtom 1 of 2500 requests today (1 route); here 1 of 1000 requests today (1 route); google 1 of 160 requests today (1 route)
            Requests:   TomTom 1 request over 1 day, no alert delivered; this month ~27 of 75,000 at this pace; HERE 1 request over 1 day, no alert delivered; this month ~27 of 30,000 at this pace; Google 1 request over 1 day, no alert delivered; this month ~27 of 4,800 at this pace
            Favorites:  0
            Schedules:  0 (0 enabled)
            Pending:    0 scheduled (cap 64), 0 deferred
            Installed:  nothing runs refresh and tick: `traveltimes install systemd` or `traveltimes install cron`

            """)
    }

    @Test func refreshAsksOnlyAboutRoutesInPlayAndNeverWithinTheMinimumInterval() throws {
        let server = try ProviderServer()
        let sandbox = try sandbox(server)
        // The in-play rule and min-interval, as `plan-requests off` keeps them (the plan: `AskPlanTests`).
        try sandbox.ok(["config", "set", "plan-requests", "off"])
        let day = "2026-11-23T"
        for (id, provider) in [("home-work", "tomtom"), ("gym", "here"), ("school", "google")] {
            try #require(try add(sandbox, id, provider, ["--no-check", "--now", day + "04:00:00"]).status == 0)
        }
        #expect(server.requests().isEmpty, "--no-check sends nothing")
        try sandbox.ok(["favorites", "add", "home-work", "gym"])
        try sandbox.ok(["schedule", "add", "--at", "7:00", "--days", "daily", "--route", "home-work", "--now", day + "04:00:00"])
        // Never fetched: all three are in play. No feed source: only the custom routes are refreshed.
        let first = try sandbox.ok(["refresh", "--now", day + "05:00:00"])
        #expect(first.stdout.hasPrefix("Fetched 3 custom routes: home-work 25 min (TomTom), gym 26 min (HERE), school 30 min (Google); "))
        #expect(server.counts() == (1, 1, 1))
        // Two hours before the alert, nothing is.
        let idle = try sandbox.ok(["refresh", "--now", day + "05:20:00"])
        #expect(idle.stdout == "Kept 3 custom routes as they were (3 not in play).\n")
        #expect(try sandbox.ok(["refresh", "--quiet", "--now", day + "05:21:00"]).stdout.isEmpty)
        #expect(server.counts() == (1, 1, 1))
        // Within the lead of the 7:00 alert, its route is; again within 10 minutes, it is not.
        try sandbox.ok(["refresh", "--now", day + "06:05:00"])
        #expect(server.counts() == (2, 1, 1))
        let soon = try sandbox.ok(["refresh", "--now", day + "06:10:00"])
        #expect(soon.stdout == "Kept 3 custom routes as they were (1 asked within min-interval, 2 not in play).\n")
        try sandbox.ok(["refresh", "--now", day + "06:15:00"])
        #expect(server.counts() == (3, 1, 1))
        // A watch puts its route in play; the lead is a setting.
        try sandbox.ok(["watch", "add", "school", "--over", "15"])
        try sandbox.ok(["config", "set", "lead", "2h"])
        try sandbox.ok(["refresh", "--now", day + "06:30:00"])
        #expect(server.counts() == (4, 1, 2))
        // --all and --route ask regardless of the minimum interval.
        try sandbox.ok(["refresh", "--all", "--now", day + "06:31:00"])
        #expect(server.counts() == (5, 2, 3))
        let one = try sandbox.run(["refresh", "--json", "--route", "gym", "--now", day + "06:32:00"])
        #expect(one.status == 0 && server.counts() == (5, 3, 3))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(one.stdout.utf8)) as? [String: Any])
        let custom = try #require(json["custom"] as? [[String: Any]])
        #expect(custom.map { $0["result"] as? String } == ["skipped", "fetched", "skipped"])
        #expect(custom.map { $0["reason"] as? String } == ["not asked for", nil, "not asked for"])
        #expect(json["source"] is NSNull && json["routes"] is NSNull)
        let unknown = try sandbox.run(["refresh", "--route", "no-such-route"])
        #expect(unknown.status == 64 && unknown.stderr == "traveltimes: Unknown route ID 'no-such-route': it is not in the route cache; see `traveltimes routes`\n")

        // The alert is composed from the custom route's time, as for any route.
        let pending = try sandbox.ok(["pending", "--now", day + "06:40:00"]).stdout
        #expect(Whole.normal(pending) == """
            7 alerts scheduled (cap 64); 0 deferred.

            Mon, Nov 23, 7:00 AM  Commute at 7:00 AM (Every day)
                47.6062,-122.3321 → 47.6101,-122.2015 (TomTom): 25 min (+3 min, SLOWING)
                id schedule.$UUID.weekday.2

            Tue, Nov 24, 7:00 AM  Commute at 7:00 AM (Every day)
                47.6062,-122.3321 → 47.6101,-122.2015 (TomTom): 25 min (+3 min, SLOWING)
                Data is 24 h old (updated Mon, Nov 23, 6:31 AM)
                id schedule.$UUID.weekday.3

            Wed, Nov 25, 7:00 AM  Commute at 7:00 AM (Every day)
                47.6062,-122.3321 → 47.6101,-122.2015 (TomTom): 25 min (+3 min, SLOWING)
                Data is 2 days old (updated Mon, Nov 23, 6:31 AM)
                id schedule.$UUID.weekday.4

            Thu, Nov 26, 7:00 AM  Commute at 7:00 AM (Every day)
                47.6062,-122.3321 → 47.6101,-122.2015 (TomTom): 25 min (+3 min, SLOWING)
                Data is 3 days old (updated Mon, Nov 23, 6:31 AM)
                id schedule.$UUID.weekday.5

            Fri, Nov 27, 7:00 AM  Commute at 7:00 AM (Every day)
                47.6062,-122.3321 → 47.6101,-122.2015 (TomTom): 25 min (+3 min, SLOWING)
                Data is 4 days old (updated Mon, Nov 23, 6:31 AM)
                id schedule.$UUID.weekday.6

            Sat, Nov 28, 7:00 AM  Commute at 7:00 AM (Every day)
                47.6062,-122.3321 → 47.6101,-122.2015 (TomTom): 25 min (+3 min, SLOWING)
                Data is 5 days old (updated Mon, Nov 23, 6:31 AM)
                id schedule.$UUID.weekday.7

            Sun, Nov 29, 7:00 AM  Commute at 7:00 AM (Every day)
                47.6062,-122.3321 → 47.6101,-122.2015 (TomTom): 25 min (+3 min, SLOWING)
                Data is 6 days old (updated Mon, Nov 23, 6:31 AM)
                id schedule.$UUID.weekday.1

            """)
        // And delivered from it by tick.
        let delivered = try sandbox.ok(["tick", "--now", day + "07:00:00"]).stdout
        #expect(delivered == """
            Commute at 7:00 AM (Every day)
            47.6062,-122.3321 → 47.6101,-122.2015 (TomTom): 25 min (+3 min, SLOWING)


            """)
        // A delay watch on a custom route fires from its refresh.
        try sandbox.ok(["watch", "add", "gym", "--over", "5"])
        let watched = try sandbox.ok(["refresh", "--route", "gym", "--now", day + "07:05:00"])
        #expect(watched.stdout == """
            Fetched 1 custom route: gym 26 min (HERE); 7 alerts scheduled (cap 64).\u{A}47.6062,-122.3321 → 47.6101,-122.2015 (HERE) is running +6 min (usually 20)\u{A}47.6062,-122.3321 → 47.6101,-122.2015 (HERE): 26 min (+6 min, CONGESTED)\u{A}\u{A}
            """, "\(watched)")
    }

    @Test func anArrivalPutsItsRoutesInPlayThreeHoursAhead() throws {
        let server = try ProviderServer()
        let sandbox = try sandbox(server)
        // The in-play rule and min-interval, as `plan-requests off` keeps them (the plan: `AskPlanTests`).
        try sandbox.ok(["config", "set", "plan-requests", "off"])
        let day = "2026-11-23T"
        try #require(try add(sandbox, "home-work", "here", ["--now", day + "04:00:00"]).status == 0)
        try sandbox.ok(["favorites", "add", "home-work"])
        try sandbox.ok(["schedule", "add", "--arrive-by", "9:00", "--days", "daily", "--route", "home-work", "--now", day + "04:00:00"])
        // Four hours before the arrival: not in play (the leave time is 8:29, not within the lead).
        #expect(try sandbox.ok(["refresh", "--now", day + "05:00:00"]).stdout == "Kept 1 custom route as it was (1 not in play).\n")
        // Inside three hours it is, and again at every refresh past the minimum interval.
        for time in ["06:01:00", "06:15:00", "06:30:00", "06:45:00", "07:00:00", "07:15:00"] {
            try sandbox.ok(["refresh", "--quiet", "--now", day + time])
        }
        #expect(server.counts().here == 7)
        let pending = try #require(try sandbox.json(["pending", "--json", "--now", day + "07:15:00"]) as? [String: Any])
        let request = try #require((pending["requests"] as? [[String: Any]])?.first)
        #expect(request["nextFire"] as? String == "2026-11-23T08:29:00-08:00" && request["arriveBy"] as? String == "2026-11-23T09:00:00-08:00")
    }

    @Test func noRequestIsSentPastTheDailyBudget() throws {
        let server = try ProviderServer()
        let sandbox = try sandbox(server)
        try sandbox.ok(["config", "set", "budget.here", "2"])
        for index in 1...3 {
            try #require(try add(sandbox, "here-\(index)", "here", from: "47.\(index),-122.3", ["--no-check"]).status == 0)
        }
        let day = "2026-11-23T"
        let spent = try sandbox.run(["refresh", "--all", "--now", day + "08:00:00"])
        #expect(spent.status == 0, "a spent budget is not a failure: \(spent)")
        #expect(spent.stdout.hasPrefix("Fetched 2 custom routes: here-1 26 min (HERE), here-2 26 min (HERE); "))
        #expect(spent.stderr == "traveltimes: warning: HERE's daily budget of 2 requests is spent (`config set budget.here N`); here-3 has no time yet\n")
        #expect(server.counts().here == 2)
        // Quiet, it is said once a day; nothing more is sent.
        let quiet = try sandbox.run(["refresh", "--all", "--quiet", "--now", day + "08:20:00"])
        #expect(quiet.status == 0 && quiet.stdout.isEmpty && quiet.stderr.isEmpty)
        let check = try add(sandbox, "here-4", "here", from: "47.4,-122.3", ["--now", day + "08:25:00"])
        #expect(check.status == 75 && check.stderr == "traveltimes: HERE's daily budget of 2 requests is spent (`config set budget.here N`); route here-4 was not added\n")
        #expect(server.counts().here == 2)
        let status = try sandbox.ok(["status", "--json", "--now", day + "08:30:00"]).stdout
        #expect(status.contains(#""budget" : 2,"#) && status.contains(#""requestsToday" : 2,"#))
        // (The stand-in's addresses, set only in this shell, are checked apart: see PromiseTests.)
        let standIn = ["TRAVELTIMES_TOMTOM_URL": "", "TRAVELTIMES_HERE_URL": "", "TRAVELTIMES_GOOGLE_URL": ""]
        let doctor = try sandbox.run(["doctor", "--now", day + "08:30:00"], environment: standIn).stdout
        #expect(Whole.normal(doctor) == """
            ok       store          $TMP: readable and writable
            ok       source         none: 3 custom routes only
            problem  time zone      none saved: timers and cron would use the host's zone
                                    → traveltimes config set timezone Area/City (such as America/Los_Angeles)
            problem  schedules      none: nothing will be sent
                                    → traveltimes schedule add --preset morning
            ok       refresh        last success 8:20 AM (10 min ago)
            ok       data           the newest travel time the alerts would carry was measured 8:00 AM (30 min ago)
            warning  provider here  3 routes; 2 of 2 requests today: the budget is spent; its routes keep their last times until midnight
                                    → traveltimes config set budget.here N, if your plan allows more
            ok       requests       HERE 2 requests over 1 day, no alert delivered; this month ~16 of 60 at this pace
            ok       fetch helper   libcurl loads: ready
            ok       notifier       none configured: alerts go to stdout, which cron mails
            problem  scheduler      nothing runs refresh and tick
                                    → traveltimes install systemd --enable (or traveltimes install cron)

            Alerts will not go out until the problems above are fixed.

            """)
        // A key only this shell has is one the timers will not.
        try sandbox.ok(["config", "unset", "here-key", "--yes"])
        let shellOnly = try sandbox.run(["doctor", "--now", day + "08:30:00"], environment: standIn.merging(["HERE_API_KEY": "here-SHELLSECRET"]) { _, new in new })
        #expect(shellOnly.status == 1 && !shellOnly.stdout.contains("SHELLSECRET"))
        #expect(Whole.normal(shellOnly.stdout) == """
            ok       store          $TMP: readable and writable
            ok       source         none: 3 custom routes only
            problem  time zone      none saved: timers and cron would use the host's zone
                                    → traveltimes config set timezone Area/City (such as America/Los_Angeles)
            problem  schedules      none: nothing will be sent
                                    → traveltimes schedule add --preset morning
            ok       refresh        last success 8:20 AM (10 min ago)
            ok       data           the newest travel time the alerts would carry was measured 8:00 AM (30 min ago)
            problem  provider here  3 routes; 2 of 2 requests today; the key is set only in HERE_API_KEY, which timers and cron do not see
                                    → traveltimes config set here-key KEY (kept only in config.json, mode 0600)
            ok       requests       HERE 2 requests over 1 day, no alert delivered; this month ~16 of 60 at this pace
            ok       fetch helper   libcurl loads: ready
            ok       notifier       none configured: alerts go to stdout, which cron mails
            problem  scheduler      nothing runs refresh and tick
                                    → traveltimes install systemd --enable (or traveltimes install cron)

            Alerts will not go out until the problems above are fixed.

            """)
        try sandbox.ok(["config", "set", "here-key", "here-KEYSECRET-2"])
        // The next local day has a budget of its own.
        try sandbox.ok(["refresh", "--all", "--quiet", "--now", "2026-11-24T08:00:00"])
        #expect(server.counts().here == 4)

        // Processes share the count: three refreshes at once send no more than the budget.
        try sandbox.ok(["config", "set", "budget.google", "4"])
        for index in 1...6 {
            try #require(try add(sandbox, "google-\(index)", "google", from: "48.\(index),-122.3", ["--no-check"]).status == 0)
        }
        let running = try (0..<3).map { _ in try sandbox.start(["refresh", "--all", "--route", "google-1", "--quiet", "--now", day + "09:00:00"]) }
        _ = try (0..<3).map { _ in try sandbox.start(["refresh", "--all", "--quiet", "--now", day + "09:00:00"]) }.map { try $0.wait() }
        _ = try running.map { try $0.wait() }
        #expect(server.counts().google == 4)
        #expect(try sandbox.store.refreshLog().requests(to: .google, on: "2026-11-23") == 4)
    }
}
