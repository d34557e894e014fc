@_spi(Store) import CommuteCore
import Foundation
import TestThreads
import Testing
@_spi(Store) import CommuteStore

@Suite(.ownThreads) struct RouteViewTests {
    let now = "2025-11-04T16:05:00-08:00"

    func sandbox() throws -> Sandbox {
        let sandbox = Sandbox()
        try sandbox.ok(["refresh", "--source", Paths.fixture, "--now", Paths.capturedAt])
        try sandbox.ok(["favorites", "add", "1", "96", "70", "39"])
        return sandbox
    }

    @Test func routesHasAHeaderMarksFavoritesAndSortsByDelay() throws {
        let sandbox = try sandbox()
        let lines = try sandbox.ok(["routes", "--favorites", "--sort", "delay", "--now", now]).stdout.split(separator: "\n")
        #expect(lines[0] == "Updated at 4:00 PM")
        #expect(lines[1].hasPrefix("   ID  NAME"))
        #expect(lines.dropFirst(2).map { $0.split(separator: " ")[1] } == ["70", "96", "1", "39"])
        #expect(lines.dropFirst(2).allSatisfy { $0.hasPrefix("*") })
        let all = try sandbox.ok(["routes", "--now", now]).stdout.split(separator: "\n")
        let marks = Dictionary(all.dropFirst(2).map { ($0.split(separator: " ")[$0.hasPrefix("*") ? 1 : 0], $0.hasPrefix("*")) },
                               uniquingKeysWith: { first, _ in first })
        #expect(marks["2"] == false && marks["1"] == true && marks["70"] == true, "only favorites are marked")
        let wrongSort = try sandbox.run(["routes", "--sort", "name"])
        #expect(wrongSort.status == 64 && wrongSort.stderr == "traveltimes: Unknown --sort 'name': use delay. See 'traveltimes routes --help'.\n")
    }

    @Test func oldDataSaysSoAndWhy() throws {
        let sandbox = try sandbox()
        let old = try sandbox.ok(["routes", "--search", "auburn", "--now", "2025-11-05T09:00:00-08:00"]).stdout
        #expect(old.hasPrefix("Updated at Tue, Nov 4, 4:00 PM\nstale: the data is 17 h old; run `traveltimes refresh`\n"))
        let missing = sandbox.path("missing.json")
        for minute in ["05", "20", "35"] {
            _ = try sandbox.run(["refresh", "--source", missing, "--now", "2025-11-05T08:\(minute):00-08:00"])
        }
        let failing = try sandbox.ok(["routes", "--search", "auburn", "--now", "2025-11-05T09:00:00-08:00"]).stdout
        #expect(failing == """
            Updated at Tue, Nov 4, 4:00 PM
            stale: refresh failed 3 times since 8:05 AM; the data is 17 h old
               ID  NAME                  NOW     AVG    DELAY  STATUS     SOURCE  UPDATED
               67  Auburn-Renton      10 min  10 min  on time  CLEAR      wsdot   Tue, Nov 4, 4:00 PM
               68  Auburn-Renton HOV  10 min  10 min  on time  CLEAR      wsdot   Tue, Nov 4, 4:00 PM
               69  Renton-Auburn HOV  13 min  13 min  on time  CLEAR      wsdot   Tue, Nov 4, 4:00 PM
            *  70  Renton-Auburn      35 min  24 min  +11 min  CONGESTED  wsdot   Tue, Nov 4, 4:00 PM

            """)
        #expect(try sandbox.ok(["brief", "--now", "2025-11-05T09:00:00-08:00"]).stdout == """
            Your morning commute was congested when last measured, 17 h ago. Everett-Seattle is on time at 34 min, and Renton-Auburn is running +11 min. No data for Everett-Seattle EL.\u{A}stale: refresh failed 3 times since 8:05 AM; the data is 17 h old\u{A}
            """)
    }

    @Test func oneRouteInFull() throws {
        let sandbox = try sandbox()
        try sandbox.ok(["schedule", "add", "--route", "70", "--now", now])
        let text = try sandbox.ok(["route", "70", "--now", now]).stdout
        #expect(text.hasPrefix("Renton-Auburn (route 70)  * favorite\n  Renton to Auburn\n"))
        #expect(Whole.normal(text) == """
            Renton-Auburn (route 70)  * favorite
              Renton to Auburn
              From:     SR 167 @ I-405 in Renton, road 167, heading S, milepost 26.14
              To:       SR 167 @ 15th St NW in Auburn, road 167, heading S, milepost 15.86
              Distance: 10.3 mi
              Now:      35 min (usually 24 min)
              Delay:    +11 min, CONGESTED
              Arrive:   4:40 PM if you leave now
              Updated:  4:00 PM (5 min ago)
              Schedules:
                $ID  7:00 AM on Weekdays

            """)
        let json = try #require(try sandbox.json(["route", "70", "--json", "--now", now]) as? [String: Any])
        #expect(json["estimatedArrival"] as? String == "2025-11-04T16:40:00-08:00")
        #expect(json["favorite"] as? Bool == true)
        #expect((json["scheduleIDs"] as? [String])?.count == 1)
        #expect((json["startPoint"] as? [String: Any])?["roadName"] as? String == "167")
        #expect(json["status"] as? String == "CONGESTED")
        let closed = try sandbox.ok(["route", "39", "--now", now]).stdout
        #expect(closed == """
            Everett-Seattle EL (route 39)  * favorite
              Everett to Downtown Seattle using express lanes
              From:     I-5 @ 41st St in Everett, road 005, heading S, milepost 192.55
              To:       I-5 @ University St in Seattle, road 005, heading S, milepost 165.83
              Distance: 26.7 mi
              Now:      - (usually -)
              Delay:    -, NO DATA
              Updated:  4:00 PM (5 min ago)
              Schedules: none

            """ && !closed.contains("Arrive"))
        let unknown = try sandbox.run(["route", "9999"])
        #expect(unknown.status == 64 && unknown.stderr == "traveltimes: Unknown route ID '9999': it is not in the route cache; see `traveltimes routes`\n")
        let bad = try sandbox.run(["route", "Seventy"])
        #expect(bad.status == 64 && bad.stderr == "traveltimes: Invalid route ID 'Seventy': route IDs are numbers from the feed, or a custom route's lowercase letters, digits and dashes (home-work), as `traveltimes routes` lists them\n")
        let unknownCustom = try sandbox.run(["route", "seventy"])
        #expect(unknownCustom.status == 64 && unknownCustom.stderr == "traveltimes: Unknown route ID 'seventy': it is not in the route cache; see `traveltimes routes`\n")
        #expect(try Sandbox().run(["route", "1"]).status == 1)
    }

    @Test func theBriefFromFavoritesOrAGroup() throws {
        let sandbox = try sandbox()
        let brief = try sandbox.ok(["brief", "--now", "2025-11-05T07:30:00-08:00"]).stdout
        #expect(brief.hasPrefix(
            "Your morning commute was congested when last measured, 15 h ago. Everett-Seattle is on time at 34 min, and Renton-Auburn is running +11 min. No data for Everett-Seattle EL.\n"))
        try sandbox.ok(["group", "add", "home", "--route", "96"])
        #expect(try sandbox.ok(["brief", "--group", "HOME", "--now", now]).stdout
            == "Your afternoon commute looks clear. Seattle-Bellevue via 90 is on time at 14 min.\n")
        let json = try #require(try sandbox.json(["brief", "--json", "--now", now]) as? [String: Any])
        #expect(json["assessment"] as? String == "congested")
        #expect(json["delayed"] as? [String] == ["70"] && json["noData"] as? [String] == ["39"])
        #expect((json["worst"] as? [String: Any])?["id"] as? String == "70")
        let unknown = try sandbox.run(["brief", "--group", "work"])
        #expect(unknown.status == 64 && unknown.stderr == "traveltimes: No group is named 'work'; see `traveltimes group list`\n")
        let empty = Sandbox()
        try empty.ok(["refresh", "--source", Paths.fixture])
        let nothing = try empty.run(["brief"])
        #expect(nothing.status == 1 && nothing.stderr == "traveltimes: No favorites to brief: add routes with `traveltimes favorites add ID...`\n")
    }

    @Test func groupsLiveWithFavoritesAndFollowTheirCascade() throws {
        let sandbox = try sandbox()
        #expect(try sandbox.ok(["group"]).stdout == "No groups yet: add one with `traveltimes group add NAME --route ID...`.\n")
        #expect(try sandbox.ok(["group", "add", "commute", "--route", "1,70"]).stdout == "Added group 'commute': 1, 70.\n")
        try sandbox.ok(["group", "add", "home", "--route", "96"])
        #expect(try sandbox.ok(["group", "list"]).stdout
            == "commute: 1 (Everett-Seattle), 70 (Renton-Auburn)\nhome: 96 (Seattle-Bellevue via 90)\n")
        let duplicate = try sandbox.run(["group", "add", "Commute", "--route", "1"])
        #expect(duplicate.status == 64 && duplicate.stderr == "traveltimes: A group named 'Commute' already exists; pick another name or use `traveltimes group edit`\n")
        let notFavorite = try sandbox.run(["group", "add", "far", "--route", "4"])
        #expect(notFavorite.status == 64 && notFavorite.stderr == "traveltimes: Route '4' is not a favorite: add it first with `traveltimes favorites add 4`\n")
        let noRoute = try sandbox.run(["group", "add", "empty"])
        #expect(noRoute.status == 64 && noRoute.stderr == "traveltimes: No route given: name one or more with --route ID (or --route 1,4), as `traveltimes routes` lists them\n")
        #expect(try sandbox.ok(["group", "edit", "commute", "--route", "70", "--rename", "work"]).stdout == "Group 'work': 70.\n")
        let nothing = try sandbox.run(["group", "edit", "work"])
        #expect(nothing.status == 64 && nothing.stderr == "traveltimes: Nothing to change: give --route or --rename. See 'traveltimes group edit --help'.\n")
        // In favorites.json, under the favorites lock.
        let favorites = try sandbox.store.favorites()
        #expect(favorites.groups == [RouteGroup(name: "work", routeIDs: ["70"]), RouteGroup(name: "home", routeIDs: ["96"])])
        // Unfavouriting cascades into groups as into schedules.
        let refused = try sandbox.run(["favorites", "remove", "96"])
        #expect(refused.stderr == "traveltimes: This will remove 96 (Seattle-Bellevue via 90) from your favorites. The group 'home' will be deleted (it has no other route). Re-run with --yes to confirm. See 'traveltimes favorites remove --help'.\n")
        #expect(try sandbox.ok(["favorites", "remove", "96", "--yes"]).stdout == """
            Removed from favorites: 96 (Seattle-Bellevue via 90).\u{A}Deleted group 'home': it had no routes left.\u{A}
            """)
        #expect(try sandbox.store.favorites().groups.map(\.name) == ["work"])
        let remove = try sandbox.run(["group", "remove", "work"])
        #expect(remove.status == 64 && remove.stderr == "traveltimes: This will delete the group 'work' (its routes stay favorites). Re-run with --yes to confirm. See 'traveltimes group remove --help'.\n")
        try sandbox.ok(["group", "remove", "WORK", "--yes"])
        #expect(try sandbox.store.favorites().groups.isEmpty)
        #expect(try sandbox.store.favorites().routeIDs == ["1", "70", "39"])
        #expect(try sandbox.json(["group", "list", "--json"]) as? [Any] != nil)
    }
}

/// Views that tell the truth about what is there.
@Suite(.ownThreads) struct TruthfulViewTests {
    @Test func favoritesThatLeftTheFeedShowAsUnavailable() throws {
        let sandbox = Sandbox()
        try sandbox.ok(["refresh", "--source", Paths.fixture, "--now", Paths.capturedAt])
        try sandbox.ok(["favorites", "add", "96", "1"])
        let without = try sandbox.feed("without.json") { routes in
            routes[96] = nil
            routes[1] = nil
        }
        try sandbox.ok(["refresh", "--quiet", "--source", without, "--now", Paths.capturedAt])
        #expect(try sandbox.ok(["routes", "--favorites", "--now", Paths.capturedAt]).stdout == """
            Updated at 4:00 PM
               ID  NAME      NOW  AVG  DELAY  STATUS       SOURCE  UPDATED
            *  96  Route 96    -    -      -  UNAVAILABLE  -       not in the latest feed
            *   1  Route 1     -    -      -  UNAVAILABLE  -       not in the latest feed

            """)
        try sandbox.ok(["favorites", "add", "70"])
        #expect(try sandbox.ok(["routes", "--favorites", "--sort", "delay", "--now", Paths.capturedAt]).stdout == """
            Updated at 4:00 PM
               ID  NAME              NOW     AVG    DELAY  STATUS       SOURCE  UPDATED
            *  70  Renton-Auburn  35 min  24 min  +11 min  CONGESTED    wsdot   4:00 PM
            *  96  Route 96            -       -        -  UNAVAILABLE  -       not in the latest feed
            *   1  Route 1             -       -        -  UNAVAILABLE  -       not in the latest feed

            """)
    }

    @Test func manyDeferredAlertsAreOneLineEach() throws {
        let sandbox = Sandbox()
        try sandbox.ok(["refresh", "--source", Paths.fixture, "--now", Paths.capturedAt])
        try sandbox.ok(["favorites", "add", "1", "96"])
        let created = try #require(ISO8601.parse("2025-11-01T00:00:00Z")?.instant)
        try sandbox.store.updateSchedules { book in
            book.schedules = (0..<300).map { index in
                Schedule(routeIDs: ["1", "96"], days: Weekday.weekdays, hour: 6 + index / 60, minute: index % 60, createdAt: created)
            }
        }
        try sandbox.ok(["refresh", "--quiet", "--source", Paths.fixture, "--now", Paths.capturedAt])
        let pending = try sandbox.ok(["pending", "--all", "--now", Paths.capturedAt]).stdout
        let lines = pending.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first == "64 alerts scheduled (cap 64); 1436 deferred.")
        let heading = try #require(lines.firstIndex(of: "Deferred — over the cap of 64; scheduled as earlier alerts fire:"))
        let deferred = lines[(heading + 1)...].filter { !$0.isEmpty }
        #expect(deferred.count == 1_436)
        #expect(deferred.allSatisfy { $0.hasPrefix("  ") && $0.contains(", 2025, ") == false && $0.range(of: "  schedule [0-9a-f]{8}$", options: .regularExpression) != nil })
        // The count; 64 alerts of six lines (a blank, time and title, two routes, the data's age, the
        // id); a blank and the heading; the deferred; the final newline.
        #expect(lines.count == 1 + 64 * 6 + 2 + 1_436 + 1, "\(lines.count) lines")
        // Without --all: the soonest 20, the same as --all's first 20, and the rest counted.
        let short = try sandbox.ok(["pending", "--now", Paths.capturedAt]).stdout
        let shortLines = short.split(separator: "\n", omittingEmptySubsequences: false)
        // (The times are padded to the longest listed, so spaces are compared as one.)
        func squeezed(_ lines: ArraySlice<Substring>) -> [String] { lines.map { $0.replacingOccurrences(of: " +", with: " ", options: .regularExpression) } }
        #expect(squeezed(shortLines.prefix(heading + 1 + 20)) == squeezed(lines.prefix(heading + 1 + 20)))
        #expect(Array(shortLines.dropFirst(heading + 1 + 20)) == ["  … and 1416 more: `traveltimes pending --all` lists every one.", ""])
        // Two days on with no tick since: the plan's soonest deferred have passed and move a week
        // on, so the soonest now lie deeper in the file; the listing still finds them.
        let later = "2025-11-06T09:00:00-08:00"
        let allLater = try sandbox.ok(["pending", "--all", "--now", later]).stdout.split(separator: "\n", omittingEmptySubsequences: false)
        let shortLater = try sandbox.ok(["pending", "--now", later]).stdout.split(separator: "\n", omittingEmptySubsequences: false)
        let headingLater = try #require(allLater.firstIndex(of: "Deferred — over the cap of 64; scheduled as earlier alerts fire:"))
        #expect(squeezed(shortLater.prefix(headingLater + 1 + 20)) == squeezed(allLater.prefix(headingLater + 1 + 20)))
        #expect(allLater[headingLater + 1] != lines[heading + 1], "the soonest deferred changed")
        let json = try #require(try sandbox.json(["pending", "--json", "--now", Paths.capturedAt]) as? [String: Any])
        #expect((json["deferred"] as? [[String: Any]])?.count == 1_436)
        #expect(((json["deferred"] as? [[String: Any]])?.first?["body"] as? String)?.hasPrefix("Everett-Seattle: 34 min") == true)
    }
}
