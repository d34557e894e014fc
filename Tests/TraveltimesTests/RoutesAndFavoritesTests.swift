@_spi(Store) import CommuteCore
import Foundation
import TestThreads
import Testing
@_spi(Store) import CommuteStore

@Suite(.ownThreads) struct RoutesTests {
    @Test func searchListsMatchingRoutesWithStatusAsText() throws {
        let sandbox = try Sandbox().prepared()
        let outcome = try sandbox.ok(["routes", "--search", "EVERETT", "--now", Paths.capturedAt])
        let lines = outcome.stdout.split(separator: "\n").dropFirst()  // "Updated at 4:00 PM"
        #expect(outcome.stdout.hasPrefix("Updated at 4:00 PM\n"))
        #expect(lines.first?.contains("ID  NAME") == true)
        #expect(outcome.stdout == """
            Updated at 4:00 PM\u{A}    ID  NAME                       NOW     AVG    DELAY  STATUS   SOURCE  UPDATED\u{A}     2  Everett-Seattle HOV     32 min  41 min   -9 min  CLEAR    wsdot   4:00 PM\u{A}     3  Seattle-Everett HOV     33 min  40 min   -7 min  CLEAR    wsdot   4:00 PM\u{A}*    4  Seattle-Everett         48 min  57 min   -9 min  CLEAR    wsdot   4:00 PM\u{A}     9  Bellevue-Everett        53 min  55 min   -2 min  CLEAR    wsdot   4:00 PM\u{A}    10  Everett-Bellevue        32 min  34 min   -2 min  CLEAR    wsdot   4:00 PM\u{A}    11  Bellevue-Everett HOV    31 min  33 min   -2 min  CLEAR    wsdot   4:00 PM\u{A}    12  Everett-Bellevue HOV    26 min  26 min  on time  CLEAR    wsdot   4:00 PM\u{A}    39  Everett-Seattle EL           -       -        -  NO DATA  wsdot   4:00 PM\u{A}    40  Everett-Seattle EL HOV       -       -        -  NO DATA  wsdot   4:00 PM\u{A}   131  Seattle-Everett EL HOV  29 min  35 min   -6 min  CLEAR    wsdot   4:00 PM\u{A}   132  Seattle-Everett EL      44 min  50 min   -6 min  CLEAR    wsdot   4:00 PM\u{A}*    1  Everett-Seattle         34 min  45 min  -11 min  CLEAR    wsdot   4:00 PM\u{A}   266  Arlington-Everett       12 min  13 min   -1 min  CLEAR    wsdot   4:00 PM\u{A}   267  Everett-Arlington       14 min  16 min   -2 min  CLEAR    wsdot   4:00 PM\u{A}   268  Everett-Marysville       8 min  10 min   -2 min  CLEAR    wsdot   4:00 PM\u{A}   269  Marysville-Everett       8 min   8 min  on time  CLEAR    wsdot   4:00 PM\u{A}
            """)
        #expect(outcome.stdout == """
            Updated at 4:00 PM\u{A}    ID  NAME                       NOW     AVG    DELAY  STATUS   SOURCE  UPDATED\u{A}     2  Everett-Seattle HOV     32 min  41 min   -9 min  CLEAR    wsdot   4:00 PM\u{A}     3  Seattle-Everett HOV     33 min  40 min   -7 min  CLEAR    wsdot   4:00 PM\u{A}*    4  Seattle-Everett         48 min  57 min   -9 min  CLEAR    wsdot   4:00 PM\u{A}     9  Bellevue-Everett        53 min  55 min   -2 min  CLEAR    wsdot   4:00 PM\u{A}    10  Everett-Bellevue        32 min  34 min   -2 min  CLEAR    wsdot   4:00 PM\u{A}    11  Bellevue-Everett HOV    31 min  33 min   -2 min  CLEAR    wsdot   4:00 PM\u{A}    12  Everett-Bellevue HOV    26 min  26 min  on time  CLEAR    wsdot   4:00 PM\u{A}    39  Everett-Seattle EL           -       -        -  NO DATA  wsdot   4:00 PM\u{A}    40  Everett-Seattle EL HOV       -       -        -  NO DATA  wsdot   4:00 PM\u{A}   131  Seattle-Everett EL HOV  29 min  35 min   -6 min  CLEAR    wsdot   4:00 PM\u{A}   132  Seattle-Everett EL      44 min  50 min   -6 min  CLEAR    wsdot   4:00 PM\u{A}*    1  Everett-Seattle         34 min  45 min  -11 min  CLEAR    wsdot   4:00 PM\u{A}   266  Arlington-Everett       12 min  13 min   -1 min  CLEAR    wsdot   4:00 PM\u{A}   267  Everett-Arlington       14 min  16 min   -2 min  CLEAR    wsdot   4:00 PM\u{A}   268  Everett-Marysville       8 min  10 min   -2 min  CLEAR    wsdot   4:00 PM\u{A}   269  Marysville-Everett       8 min   8 min  on time  CLEAR    wsdot   4:00 PM\u{A}
            """ && outcome.stdout == """
            Updated at 4:00 PM\u{A}    ID  NAME                       NOW     AVG    DELAY  STATUS   SOURCE  UPDATED\u{A}     2  Everett-Seattle HOV     32 min  41 min   -9 min  CLEAR    wsdot   4:00 PM\u{A}     3  Seattle-Everett HOV     33 min  40 min   -7 min  CLEAR    wsdot   4:00 PM\u{A}*    4  Seattle-Everett         48 min  57 min   -9 min  CLEAR    wsdot   4:00 PM\u{A}     9  Bellevue-Everett        53 min  55 min   -2 min  CLEAR    wsdot   4:00 PM\u{A}    10  Everett-Bellevue        32 min  34 min   -2 min  CLEAR    wsdot   4:00 PM\u{A}    11  Bellevue-Everett HOV    31 min  33 min   -2 min  CLEAR    wsdot   4:00 PM\u{A}    12  Everett-Bellevue HOV    26 min  26 min  on time  CLEAR    wsdot   4:00 PM\u{A}    39  Everett-Seattle EL           -       -        -  NO DATA  wsdot   4:00 PM\u{A}    40  Everett-Seattle EL HOV       -       -        -  NO DATA  wsdot   4:00 PM\u{A}   131  Seattle-Everett EL HOV  29 min  35 min   -6 min  CLEAR    wsdot   4:00 PM\u{A}   132  Seattle-Everett EL      44 min  50 min   -6 min  CLEAR    wsdot   4:00 PM\u{A}*    1  Everett-Seattle         34 min  45 min  -11 min  CLEAR    wsdot   4:00 PM\u{A}   266  Arlington-Everett       12 min  13 min   -1 min  CLEAR    wsdot   4:00 PM\u{A}   267  Everett-Arlington       14 min  16 min   -2 min  CLEAR    wsdot   4:00 PM\u{A}   268  Everett-Marysville       8 min  10 min   -2 min  CLEAR    wsdot   4:00 PM\u{A}   269  Marysville-Everett       8 min   8 min  on time  CLEAR    wsdot   4:00 PM\u{A}
            """)
        #expect(lines.dropFirst().allSatisfy { $0.lowercased().contains("everett") })
        #expect(try sandbox.ok(["routes", "--search", "atlantis", "--now", Paths.capturedAt]).stdout
            == "Updated at 4:00 PM\nNo routes match 'atlantis'.\n")
    }

    @Test func jsonIsTheDocumentedContract() throws {
        let sandbox = try Sandbox().prepared()
        let routes = try #require(try sandbox.json(["routes", "--json"]) as? [[String: Any]])
        #expect(routes.count == 163)
        let keys: Set = [
            "id", "name", "description", "currentMinutes", "averageMinutes", "delayMinutes", "status", "distanceMiles", "updatedAt", "source",
            "from", "to", "suspicious", "suspiciousMinutes",
        ]
        #expect(routes.allSatisfy { Set($0.keys) == keys && $0["source"] as? String == "wsdot" && $0["from"] is NSNull })
        #expect(routes.allSatisfy { $0["suspicious"] as? Bool == false && $0["suspiciousMinutes"] is NSNull })
        let everett = try #require(routes.first { $0["id"] as? String == "1" })
        #expect(everett["currentMinutes"] as? Int == 34 && everett["delayMinutes"] as? Int == -11)
        #expect(everett["status"] as? String == "CLEAR")
        #expect(everett["updatedAt"] as? String == "2025-11-04T16:00:00-08:00")
        let closed = try #require(routes.first { $0["id"] as? String == "39" })
        #expect(closed["currentMinutes"] is NSNull && closed["averageMinutes"] is NSNull && closed["delayMinutes"] is NSNull)
        #expect(closed["status"] as? String == "NO DATA")
    }

    @Test func beforeAnyRefreshItSaysWhatToDo() throws {
        let outcome = try Sandbox().run(["routes"])
        #expect(outcome.status == 1)
        #expect(outcome.stderr == "traveltimes: No route data yet: run `traveltimes refresh --source FILE-OR-URL` first\n")
    }
}

@Suite(.ownThreads) struct FavoritesTests {
    @Test func addListMoveAndJSON() throws {
        let sandbox = Sandbox()
        try sandbox.ok(["refresh", "--source", Paths.fixture])
        #expect(try sandbox.ok(["favorites"]).stdout == "No favorites yet: add routes with `traveltimes favorites add ID...` (IDs from `traveltimes routes`).\n")
        let added = try sandbox.ok(["favorites", "add", "1", "96"])
        #expect(added.stdout == "Added to favorites: 1 (Everett-Seattle), 96 (Seattle-Bellevue via 90).\n")
        #expect(try sandbox.ok(["favorites", "add", "96"]).stdout == "Already favorites: 96 (Seattle-Bellevue via 90).\n")
        let list = try sandbox.ok(["favorites", "list"]).stdout
        #expect(list == "1.   1  Everett-Seattle          34 min (-11 min, CLEAR)\n2.  96  Seattle-Bellevue via 90  14 min (-1 min, CLEAR)\n")
        #expect(try sandbox.ok(["favorites", "move", "96", "--to", "1"]).stdout == "Favorites: 96, 1.\n")
        #expect(try sandbox.json(["favorites", "--json"]) as? [String] == ["96", "1"])
    }

    @Test func badIDsAreQuotedAndChangeNothing() throws {
        let sandbox = Sandbox()
        try sandbox.ok(["refresh", "--source", Paths.fixture])
        let bad = try sandbox.run(["favorites", "add", "1", "a_b"])
        #expect(bad.status == 64 && bad.stderr == "traveltimes: Invalid route ID 'a_b': route IDs are numbers from the feed, or a custom route's lowercase letters, digits and dashes (home-work), as `traveltimes routes` lists them\n")
        let unknown = try sandbox.run(["favorites", "add", "1", "99999"])
        #expect(unknown.status == 64 && unknown.stderr == "traveltimes: Unknown route ID '99999': it is not in the route cache; see `traveltimes routes`\n")
        #expect(try sandbox.store.favorites().routeIDs.isEmpty)
        try sandbox.ok(["favorites", "add", "1"])
        let move = try sandbox.run(["favorites", "move", "1", "--to", "5"])
        #expect(move.status == 64 && move.stderr == "traveltimes: Invalid position '5': use a number from 1 to 1\n")
        let notFavorite = try sandbox.run(["favorites", "remove", "96", "--yes"])
        #expect(notFavorite.status == 64 && notFavorite.stderr == "traveltimes: Route '96' is not a favorite; see `traveltimes favorites`\n")
        let noTo = try sandbox.run(["favorites", "move", "1"])
        #expect(noTo.status == 64 && noTo.stderr == "traveltimes: Missing --to POSITION. See 'traveltimes favorites move --help'.\n")
    }

    @Test func removingCascadesAndNeedsConfirmation() throws {
        let sandbox = try Sandbox().prepared()  // morning preset on 1, 96, 4
        try sandbox.ok(["schedule", "add", "--at", "16:45", "--days", "mon,wed,fri", "--route", "96", "--now", Paths.capturedAt])
        let before = try sandbox.store.schedules()

        let refused = try sandbox.run(["favorites", "remove", "96"])
        #expect(refused.status == 64)
        #expect(refused.stderr == "traveltimes: This will remove 96 (Seattle-Bellevue via 90) from your favorites, and from the schedule at 7:00 AM on Weekdays. This will stop notifications at 4:45 PM on Mon, Wed, Fri (the schedule has no other route). Re-run with --yes to confirm. See 'traveltimes favorites remove --help'.\n")
        #expect(try sandbox.store.schedules() == before)

        let done = try sandbox.ok(["favorites", "remove", "96", "--yes", "--now", Paths.capturedAt])
        #expect(Whole.normal(done.stdout) == """
            Removed from favorites: 96 (Seattle-Bellevue via 90).
            Schedule $ID at 7:00 AM on Weekdays: now 2 routes (was 3).
            Deleted schedule $ID at 4:45 PM on Mon, Wed, Fri: it had no routes left.

            """)
        let schedules = try sandbox.store.schedules().schedules
        #expect(schedules.map(\.routeIDs) == [["1", "4"]])
        let pending = try #require(try sandbox.json(["pending", "--json", "--now", Paths.capturedAt]) as? [String: Any])
        #expect((pending["requests"] as? [[String: Any]])?.count == 5)
    }
}
