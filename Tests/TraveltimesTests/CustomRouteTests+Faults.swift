@_spi(Store) import CommuteCore
@_spi(Store) import CommuteStore
import Foundation
import Testing

extension CustomRouteTests {
    @Test func faultsArePerProviderAndNoKeyIsEverShown() throws {
        let server = try ProviderServer()
        let sandbox = try sandbox(server)
        let tomtom = try add(sandbox, "home-work", "tomtom")
        try #require(tomtom.status == 0, "\(tomtom)")
        let here = try add(sandbox, "gym", "here")
        try #require(here.status == 0, "\(here)")
        let before = try #require(try sandbox.store.routes().byID["home-work"])
        // A rejected key: that provider's routes stay as they were, the others are saved, exit 69.
        let bad = ["TOMTOM_API_KEY": "bad-ENVSECRET-key"]
        let rejected = try sandbox.run(["refresh", "--all", "--now", "2026-11-23T09:00:00"], environment: bad)
        #expect(rejected.status == 69)
        #expect(rejected.stderr == "traveltimes: TomTom rejected the key (Developer key REDACTED is not valid): set a valid one with "
            + "`traveltimes config set tomtom-key KEY` (or TOMTOM_API_KEY); not refreshed: home-work\n")
        #expect(!(rejected.stdout + rejected.stderr).contains("SECRET"))
        let routes = try sandbox.store.routes().byID
        #expect(routes["home-work"]?.updatedAt == before.updatedAt && routes["home-work"]?.custom?.triedAt != nil)
        #expect(routes["gym"]?.custom?.fetchedAt == ISO8601.parse("2026-11-23T09:00:00-08:00")?.instant)
        // Google's own way of refusing a key (400 API_KEY_INVALID) is a rejected key too.
        let google = try add(sandbox, "school", "google", ["--now", "2026-11-23T09:01:00"])
        #expect(google.status == 0)
        let invalid = try sandbox.run(["refresh", "--route", "school", "--now", "2026-11-23T09:02:00"], environment: ["GOOGLE_MAPS_API_KEY": "invalid-SECRET"])
        #expect(invalid.status == 69 && invalid.stderr == "traveltimes: Google rejected the key (API key not valid. Please pass a valid API key.): set a valid one with `traveltimes config set google-key KEY` (or GOOGLE_MAPS_API_KEY); not refreshed: school\n")
        // No key at all: the setting to give, exit 64, nothing sent.
        try sandbox.ok(["config", "unset", "tomtom-key", "--yes"])
        let sent = server.requests().count
        let none = try sandbox.run(["refresh", "--route", "home-work"])
        #expect(none.status == 64 && none.stderr == "traveltimes: no TomTom key: `traveltimes config set tomtom-key KEY` (or set TOMTOM_API_KEY); not refreshed: home-work\n")
        #expect(server.requests().count == sent)
        try sandbox.ok(["config", "set", "tomtom-key", "tt-KEYSECRET-1"])

        // 429 waits for its Retry-After; 5xx is tried again; both within the deadline.
        try #require(try add(sandbox, "busy", "tomtom", from: "2.5,1", to: "2.6,1", ["--no-check"]).status == 0)
        try #require(try add(sandbox, "flaky", "here", from: "3.5,1", to: "3.6,1", ["--no-check"]).status == 0)
        let started = Date()
        let retried = try sandbox.run(["refresh", "--route", "busy", "--route", "flaky"])
        #expect(retried.status == 0, "\(retried)")
        #expect(retried.stdout.hasPrefix("Fetched 2 custom routes: busy 25 min (TomTom), flaky 26 min (HERE)"))
        #expect(Date().timeIntervalSince(started) >= 3, "1 s after the 429, 1 s and 2 s after the 503s")
        #expect(server.requests().filter { $0.query["origin"] == "3.5,1" }.count == 3)
        // No route, an answer of the wrong shape, and a provider that does not answer in time;
        // reported in cache order, whatever order the answers came in.
        try #require(try add(sandbox, "island", "here", from: "1.5,1", to: "1.6,1", ["--no-check"]).status == 0)
        try #require(try add(sandbox, "odd", "tomtom", from: "5.5,1", to: "5.6,1", ["--no-check"]).status == 0)
        try #require(try add(sandbox, "silent", "google", from: "6.5,1", to: "6.6,1", ["--no-check"]).status == 0)
        try #require(try add(sandbox, "lake", "google", from: "1.5,1", to: "1.6,1", ["--no-check"]).status == 0)
        let faults = try sandbox.run(["refresh", "--route", "island", "--route", "odd", "--route", "lake", "--route", "silent", "--timeout", "2"])
        #expect(faults.status == 69)
        #expect(faults.stderr == """
            traveltimes: custom route island: no route: HERE: noRouteFound
            traveltimes: custom route odd: TomTom answered oddly: no routes in the answer
            traveltimes: custom route silent: no answer from Google by the deadline (last: no answer)
            traveltimes: custom route lake: no route: Google returned no route

            """)
        let added = try add(sandbox, "nowhere", "tomtom", from: "1.5,1", to: "1.6,1")
        #expect(added.status == 1 && added.stderr == "traveltimes: no route: Unable to find a route between the points; route nowhere was not added\n")
        #expect(try sandbox.store.routes().byID["nowhere"] == nil)
    }

    @Test func routeIDsAndEndsAreCheckedAndRemovalCascades() throws {
        let server = try ProviderServer()
        let sandbox = try sandbox(server)
        let empty = try sandbox.run(["config", "set", "here-key", "-"], stdin: "")
        #expect(empty.status == 64 && empty.stderr == "traveltimes: No here-key on standard input (one line, at most 4 KiB): `printf '%s\\n' \"$KEY\" | traveltimes config set here-key -`. See 'traveltimes config set --help'.\n")
        let long = try sandbox.run(["config", "set", "here-key", "-"], stdin: String(repeating: "k", count: 5_000) + "\n")
        let kept = try sandbox.store.configuration().key(for: .here)
        #expect(long.status == 64 && kept == "here-KEYSECRET-2")
        for (arguments, message) in [
            (["route", "add", "Home", "--from", Self.home, "--to", Self.work, "--provider", "here"], "Invalid route ID 'Home'"),
            (["route", "add", "123", "--from", Self.home, "--to", Self.work, "--provider", "here"], "Invalid route ID '123'"),
            (["route", "add", "edit", "--from", Self.home, "--to", Self.work, "--provider", "here"], "Invalid route ID"),
            (["route", "add", "list", "--from", Self.home, "--to", Self.work, "--provider", "here"], "it is a command word"),
            // A calendar's refresh removes its own routes by their prefix: none may be made by hand.
            (["route", "add", "cal-work-home", "--from", Self.home, "--to", Self.work, "--provider", "here"],
             "Invalid route ID 'cal-work-home': IDs beginning with cal- are the routes calendars make; pick another, such as my-cal-work-home."),
            (["route", "add", "a", "--to", Self.work, "--provider", "here"], "Missing --from PLACE or LAT,LON"),
            (["route", "add", "a", "--from", "91,0", "--to", Self.work, "--provider", "here"], "Invalid --from '91,0'"),
            (["route", "add", "a", "--from", "nan,1", "--to", Self.work, "--provider", "here"], "Invalid --from 'nan,1'"),
            (["route", "add", "a", "--from", "1e2,1", "--to", Self.work, "--provider", "here"], "Invalid --from '1e2,1'"),
            (["route", "add", "a", "--from", Self.home, "--to", Self.work, "--provider", "bing"], "Unknown --provider 'bing'"),
            (["route", "add", "a", "--from", Self.home, "--to", Self.work], "Missing --provider"),
        ] {
            let outcome = try sandbox.run(arguments)
            #expect(outcome.status == 64 && outcome.stderr.contains(message), "\(arguments): \(outcome)")
        }
        #expect(server.requests().isEmpty && sandbox.bytes("routes.json") == nil)

        // A feed refresh keeps the custom routes, and a custom refresh the feed's.
        try sandbox.ok(["refresh", "--source", Paths.fixture, "--now", Paths.capturedAt])
        try #require(try add(sandbox, "home-work", "here", ["--now", Paths.capturedAt]).status == 0)
        let duplicate = try add(sandbox, "home-work", "tomtom")
        #expect(duplicate.status == 64 && duplicate.stderr == "traveltimes: A route with ID 'home-work' already exists; pick another ID or use `traveltimes route edit home-work`\n")
        try sandbox.ok(["refresh", "--source", Paths.fixture, "--now", Paths.capturedAt])
        #expect(try sandbox.store.routes().routes.count == 164)
        try sandbox.ok(["refresh", "--route", "home-work", "--now", Paths.capturedAt])
        #expect(try sandbox.store.routes().routes.count == 164)

        // Editing the ends or provider drops the old times; the name is the user's.
        let edited = try sandbox.ok(["route", "edit", "home-work", "--provider", "google", "--name", "Home to work"])
        #expect(edited.stdout == "Route home-work: Home to work; no time yet; it is fetched at the next refresh that needs it.\n")
        #expect(try sandbox.run(["route", "edit", "1", "--name", "x"]).stderr == "traveltimes: Route '1' comes from the feed; only custom routes (`traveltimes route add`) can be edited or removed\n")
        #expect(try sandbox.run(["refresh", "--route", "1"]).stderr == "traveltimes: Route '1' comes from the feed; only custom routes (`traveltimes route add`) can be edited or removed\n")

        // Everything that takes a route takes it; removing it takes it out of all of them.
        try sandbox.ok(["favorites", "add", "home-work", "1"])
        try sandbox.ok(["schedule", "add", "--at", "7:00", "--route", "home-work", "--now", Paths.capturedAt])
        try sandbox.ok(["schedule", "add", "--at", "8:00", "--route", "home-work,1", "--now", Paths.capturedAt])
        try sandbox.ok(["group", "add", "mine", "--route", "home-work"])
        try sandbox.ok(["watch", "add", "home-work", "--over", "10"])
        #expect(try sandbox.ok(["brief", "--now", Paths.capturedAt]).status == 0)
        let unconfirmed = try sandbox.run(["route", "remove", "home-work"])
        #expect(unconfirmed.status == 64 && unconfirmed.stderr == "traveltimes: This will remove the custom route home-work (Home to work). This will remove home-work (Home to work) from your favorites, and from the schedule at 8:00 AM on Weekdays. This will stop notifications at 7:00 AM on Weekdays (the schedule has no other route). The group 'mine' will be deleted (it has no other route). Its delay watch will stop. Re-run with --yes to confirm. See 'traveltimes route remove --help'.\n")
        let removed = try sandbox.ok(["route", "remove", "home-work", "--yes", "--now", Paths.capturedAt])
        #expect(Whole.normal(removed.stdout) == """
            Schedule $ID at 8:00 AM on Weekdays: now 1 route (was 2).
            Deleted schedule $ID at 7:00 AM on Weekdays: it had no routes left.
            Deleted group 'mine': it had no routes left.
            Stopped watching home-work.
            Removed route home-work (Home to work).

            """ && Whole.normal(removed.stdout) == """
            Schedule $ID at 8:00 AM on Weekdays: now 1 route (was 2).
            Deleted schedule $ID at 7:00 AM on Weekdays: it had no routes left.
            Deleted group 'mine': it had no routes left.
            Stopped watching home-work.
            Removed route home-work (Home to work).

            """)
        #expect(try sandbox.store.favorites().routeIDs == ["1"])
        #expect(try sandbox.store.routes().routes.count == 163)
        #expect(try sandbox.store.configuration().watches?.isEmpty ?? true)
    }
}
