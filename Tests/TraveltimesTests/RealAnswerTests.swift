import Foundation
import TestThreads
import Testing

/// Answers the real services sent, recorded in their documentation or in other projects' test
/// data (`Fixtures/real/`, each named in `SOURCES.md`), served byte for byte by the stand-ins and
/// read through the binary. Each test states what the file says.
@Suite(.ownThreads) struct RealAnswerTests {
    static func real(_ name: String) -> String { Paths.root.appendingPathComponent("Fixtures/real/\(name)").path }

    /// A store with the Transitous/Nominatim stand-in answering `path` with a recorded file.
    func replaying(_ server: TransitousServer, _ replay: [String: String]) throws -> Sandbox {
        let sandbox = Sandbox()
        sandbox.environment.merge(server.environment) { _, new in new }
        // A file of Fixtures/real/, or a full path (an answer rebuilt for the test).
        let table = replay.map { "\"\($0.key)\": \"\($0.value.hasPrefix("/") ? $0.value : Self.real($0.value))\"" }.joined(separator: ", ")
        try server.steer("{\"replay\": {\(table)}}")
        return sandbox
    }

    /// Nominatim's own documented answers: centroids of 14 and 15 decimals (`13.36690305710228`),
    /// as its server writes a double, are read as the places they are.
    @Test func nominatimsDocumentedAnswersAreReadWithEveryDecimal() throws {
        let server = try TransitousServer()
        let cases: [(file: String, search: String, saved: String)] = [
            ("nominatim/search-jsonv2-bakery-in-berlin-wedding.json", "bakery in berlin wedding",
             "52.542743,13.366903: Ditsch, Lindower Straße, Sprengelkiez, Wedding, Mitte, Berlin, 13347, Deutschland"),
            ("nominatim/search-json-unter-den-linden-1-berlin.json", "Unter den Linden 1 Berlin",
             "52.517208,13.397834: Kommandantenhaus, 1, Unter den Linden, Friedrichswerder, Mitte, Berlin, 10117, Deutschland"),
            ("nominatim/lookup-json-brandenburger-tor.json", "Brandenburger Tor Potsdam",
             "52.399551,13.048067: Brandenburger Tor, Brandenburger Straße, Historische Innenstadt, Innenstadt, Potsdam, Brandenburg, 14467, Germany"),
        ]
        for (index, item) in cases.enumerated() {
            let sandbox = try replaying(server, ["/search": item.file])
            let saved = try sandbox.ok(["place", "add", "p\(index)", "--search", item.search])
            #expect(saved.stdout == "Saved place p\(index) at \(item.saved).\n" + TransitousTests.nominatim, "\(item.file)")
        }
        // The place keeps what the answer said, not the six decimals shown.
        let sandbox = try replaying(server, ["/search": "nominatim/search-jsonv2-bakery-in-berlin-wedding.json"])
        try sandbox.ok(["place", "add", "bakery", "--search", "bakery in berlin wedding"])
        let places = try #require(try sandbox.json(["place", "list", "--json"]) as? [[String: Any]])
        #expect(places.first?["lat"] as? Double == 52.54274275)
        #expect(places.first?["lon"] as? Double == 13.36690305710228)
    }

    /// The same precision pasted by hand, as a user copies it from the answer or a map.
    @Test func aPastedCoordinateOfAnyPrecisionIsAPlace() throws {
        let sandbox = Sandbox()
        #expect(try sandbox.ok(["place", "add", "bakery", "52.54274275,13.36690305710228"]).stdout
            == "Saved place bakery at 52.542743,13.366903.\n")
        #expect(try sandbox.ok(["place", "add", "tor", "52.399550700000006,13.048066846939687"]).stdout
            == "Saved place tor at 52.399551,13.048067.\n")
        // Still only plain decimals: an exponent, a whole part no degree has, or no digits is refused.
        for text in ["5.2e1,13.3", "1234567890.1,13.3", "52.,13.3", "52.5,13.3.1"] {
            let refused = try sandbox.run(["place", "add", "x", text])
            #expect(refused.status == 64, "\(text): \(refused)")
        }
    }
}

/// Transitous's (MOTIS's) real answers, recorded by KDE's KPublicTransport against the public
/// servers (`Fixtures/real/motis/`), served byte for byte.
@Suite(.ownThreads) struct RealTransitousTests {
    func sandbox(_ server: TransitousServer, replaying file: String, zone: String) throws -> Sandbox {
        let sandbox = try RealAnswerTests().replaying(server, ["/api/v6/plan": file])
        sandbox.environment["TRAVELTIMES_TZ"] = zone
        try sandbox.ok(["config", "set", "contact", "me@example.org"])
        return sandbox
    }

    /// From Charles de Gaulle airport to the Gare de Lyon on 6 November 2024: a 2-minute walk to
    /// the RER B of 5:36 PM (`routeShortName` "B ", padded), a change at Châtelet to the RER A
    /// to Torcy, and a 4-minute walk; at the door at 6:29 PM. The alert names the line's own
    /// time (5:36 PM) and the door's (5:34 PM), and the stop it leaves from.
    @Test func aTransitItineraryIsTheLineFromItsStop() throws {
        let server = try TransitousServer()
        let sandbox = try sandbox(server, replaying: "motis/journey-transit.json", zone: "Europe/Paris")
        let added = try sandbox.ok(["route", "add", "r", "--provider", "transitous", "--from", "49.0041,2.5711", "--to", "48.8439,2.37708",
                                    "--name", "Airport to Gare de Lyon", "--now", "2024-11-06T17:00:00+01:00"])
        #expect(added.stdout == "Added route r: Airport to Gare de Lyon: 55 min now (usually 55 min; on time, CLEAR).\n" + TransitousTests.attribution)
        try sandbox.ok(["favorites", "add", "r"])
        try sandbox.ok(["schedule", "add", "--arrive-by", "18:29", "--buffer", "2m", "--route", "r", "--days", "wed", "--heads-up", "off",
                        "--now", "2024-11-06T17:00:00+01:00"])
        // None arrives 2 minutes early: the last in time at all, with less to spare.
        #expect(try sandbox.ok(["tick", "--now", "2024-11-06T17:33:00+01:00"]).stdout.isEmpty)
        #expect(try sandbox.ok(["tick", "--now", "2024-11-06T17:34:00+01:00"]).stdout == """
            Leave now for the B → A to Torcy at 5:36 PM to arrive by 6:29 PM
            Airport to Gare de Lyon: leave 5:34 PM for the B → A to Torcy at 5:36 PM from Aéroport CDG - Terminal 2 (Tgv), arriving your destination at 6:29 PM
            Timetable times: no live data


            """)
        #expect(try sandbox.ok(["route", "r", "--now", "2024-11-06T17:00:00+01:00"]).stdout.components(separatedBy: "\n")
            .contains("    5:34 PM → 6:29 PM  55 min  B at 5:36 PM → A (1 change), walk 8 min, timetable"))
    }

    /// Answers with no itinerary on a line, their ways all in `direct`: a 5-minute walk in Berlin
    /// (6 November 2024), and in Stuttgart a rental bike (4 minutes' walk, 5 on the bike, 1 on
    /// foot) beside an 18-minute walk (18 February 2026). Each is a way to go, not "no itinerary".
    @Test func aWalkOrBikeOnlyAnswerIsAWayToGo() throws {
        let server = try TransitousServer()
        let walk = try sandbox(server, replaying: "motis/journey-direct-walk.json", zone: "Europe/Berlin")
        #expect(try walk.ok(["route", "add", "w", "--provider", "transitous", "--from", "52.50602341723939,13.45152382711484",
                             "--to", "52.50494050893889,13.448614380176252", "--now", "2024-11-06T17:28:00+01:00"]).stdout
            == "Added route w: 52.506023,13.451524 → 52.504941,13.448614 (Transitous): 5 min now (usually 5 min; on time, CLEAR).\n"
            + TransitousTests.attribution)
        #expect(try walk.ok(["route", "w", "--now", "2024-11-06T17:28:00+01:00"]).stdout.components(separatedBy: "\n")
            .contains("    5:28 PM → 5:33 PM  5 min  walk 5 min"))
        let bike = try sandbox(server, replaying: "motis/journey-bike-rental.json", zone: "Europe/Berlin")
        try bike.ok(["route", "add", "b", "--provider", "transitous", "--from", "48.78307942920833,9.179988172389386",
                     "--to", "48.77412867867625,9.170254801374966", "--now", "2026-02-18T16:56:00+01:00"])
        let listed = try bike.ok(["route", "b", "--now", "2026-02-18T16:56:00+01:00"]).stdout.components(separatedBy: "\n")
        #expect(listed.contains("    4:56 PM → 5:06 PM  10 min  rental 5 min, walk 5 min"), "\(listed)")
        #expect(listed.contains("    4:56 PM → 5:14 PM  18 min  walk 18 min"), "\(listed)")
        try bike.ok(["favorites", "add", "b"])
        try bike.ok(["schedule", "add", "--arrive-by", "17:06", "--buffer", "0m", "--route", "b", "--days", "wed", "--heads-up", "off",
                     "--now", "2026-02-18T16:00:00+01:00"])
        #expect(try bike.ok(["tick", "--now", "2026-02-18T16:56:00+01:00"]).stdout.hasPrefix("Leave now by rental (10 min) to arrive by 5:06 PM\n"))
    }

    /// The 3-minute RER B ride from Gare du Nord to Châtelet of 27 August 2026, as large as
    /// Transitous sent it (6.7 MB: a works notice for every weeknight from August to December, on
    /// every place and leg; `Tests/Support/motis_alerts.py` rebuilds it from its recorded pieces).
    /// Read whole, no notice is in force during a ride at 12:41 PM, and none is shown.
    @Test func aHugeAnswerOfNoticesIsReadAndOnlyThoseInForceAreShown() throws {
        let server = try TransitousServer()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("alerts-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        let built = try execute(["python3", Paths.root.appendingPathComponent("Tests/Support/motis_alerts.py").path, file],
                                environment: ProcessInfo.processInfo.environment)
        #expect(built.status == 0 && (Int(built.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0) > 6_500_000, "\(built)")
        let sandbox = try RealAnswerTests().replaying(server, ["/api/v6/plan": file])
        sandbox.environment["TRAVELTIMES_TZ"] = "Europe/Paris"
        try sandbox.ok(["route", "add", "rer", "--provider", "transitous", "--from", "48.8809,2.3553", "--to", "48.8617,2.3469",
                        "--now", "2026-08-27T12:40:00+02:00"])
        let route = try sandbox.ok(["route", "rer", "--now", "2026-08-27T12:40:00+02:00"]).stdout.components(separatedBy: "\n")
        #expect(route.contains("    12:41 PM → 12:44 PM  3 min  B at 12:41 PM, timetable"), "\(route)")
        #expect(!route.contains { $0.contains("Service alert") })
        let json = try #require(try sandbox.json(["route", "rer", "--json", "--now", "2026-08-27T12:40:00+02:00"]) as? [String: Any])
        let itineraries = try #require(json["itineraries"] as? [[String: Any]])
        #expect(itineraries.count == 10 && itineraries.allSatisfy { ($0["notices"] as? [Any])?.isEmpty == true })
    }

    /// A run carrying the recorded works notice in force during the ride (on the leg, and again
    /// on its stop), the same notice for another week, and a fixed notice with only a code: one
    /// line, in plain text, where the HTML description is not wanted.
    @Test func aNoticeInForceIsShownOnceInPlainWords() throws {
        let server = try TransitousServer()
        let sandbox = try TransitousTests().prepared(server)
        try server.steer(#"{"alerts": ["16:17"]}"#)
        try sandbox.ok(["refresh", "--all", "--now", "2026-11-24T08:00:00-08:00"])
        let route = try sandbox.ok(["route", "bus", "--now", "2026-11-24T08:00:00-08:00"]).stdout.components(separatedBy: "\n")
        #expect(route.filter { $0.contains("Service alert") } == ["  Service alert: RER B : Châtelet <-> Aéroport CDG2 - Mitry - Claye 01/06-31/12"], "\(route)")
        // And in the alert that sends the rider to that run.
        try sandbox.ok(["favorites", "add", "bus"])
        try sandbox.ok(["notify", "add", "stdout"])
        try sandbox.ok(["schedule", "add", "--arrive-by", "9:00", "--buffer", "5m", "--heads-up", "off", "--route", "bus", "--days", "weekdays",
                        "--now", "2026-11-24T08:00:00-08:00"])
        #expect(try sandbox.ok(["tick", "--now", "2026-11-24T08:11:00-08:00"]).stdout == """
            Leave now for the 545 to Redmond at 8:17 AM to arrive by 9:00 AM
            home → work (Transitous): leave 8:11 AM for the 545 to Redmond at 8:17 AM from Stop A, arriving work at 8:51 AM
            Service alert: RER B : Châtelet <-> Aéroport CDG2 - Mitry - Claye 01/06-31/12
            Timetable times: no live data


            """)
    }
}

/// The open routing engines' real answers (`Fixtures/real/osrm/`, `Fixtures/real/valhalla/`),
/// served byte for byte.
@Suite(.ownThreads) struct RealEngineTests {
    func sandbox(_ server: EngineServer, replaying: [String: String]) throws -> Sandbox {
        let sandbox = Sandbox(zone: "Europe/Berlin")
        sandbox.environment.merge(server.environment) { _, new in new }
        try sandbox.ok(["config", "set", "contact", "me@example.org"])
        let table = replaying.map { "\"\($0.key)\": \"\(RealAnswerTests.real($0.value))\"" }.joined(separator: ", ")
        try server.steer("{\"replay\": {\(table)}}")
        return sandbox
    }

    /// Valhalla's own documented route: Karl-Marx-Allee to Lebuser Straße in Berlin, 0.292 km in
    /// 55.543 s (`"units": "kilometers"`): a 1-minute free-flow estimate, 0.3 km.
    @Test func valhallasDocumentedRouteIsAMinuteOnTheOpenRoad() throws {
        let server = try EngineServer()
        let sandbox = try sandbox(server, replaying: ["valhalla": "valhalla/route.json"])
        let added = try sandbox.ok(["route", "add", "d", "--provider", "valhalla", "--from", "52.51797,13.433304", "--to", "52.519601,13.434275"])
        #expect(added.stdout.hasPrefix("Added route d: 52.51797,13.433304 → 52.519601,13.434275 (Valhalla): 1 min, a free-flow estimate from Valhalla (no live traffic), 0.3 km.\n"), "\(added)")
    }

    /// OSRM's own recorded answer from its test data: Korea to Portugal, 13,444,776.2 m in
    /// 563,351.6 s (six and a half days) — no commute: refused in one line, nothing added.
    @Test func osrmsRecordedAnswerAcrossContinentsIsNoCommute() throws {
        let server = try EngineServer()
        let sandbox = try sandbox(server, replaying: ["osrm": "osrm/portugal_to_korea.json"])
        let refused = try sandbox.run(["route", "add", "k", "--provider", "osrm", "--from", "36.123533,127.628493", "--to", "39.368112,-7.735503"])
        #expect(refused == Outcome(
            status: 69, stdout: "",
            stderr: "traveltimes: OSRM answered oddly: routes[0].duration of 563352 s is not a travel time (0 to a day); route k was not added\n"))
    }
}

/// Transitous's own geocoding answers (`Fixtures/real/motis/location-*.json`), served byte for byte.
@Suite(.ownThreads) struct RealGeocodingTests {
    /// "Guido Gezellelaan 106": ten addresses in the Netherlands and Belgium, best first; the
    /// town shown is each one's default area. Several: nothing saved until one is picked.
    @Test func tenAddressesOfOneNameAreListedByTheirTowns() throws {
        let server = try TransitousServer()
        let sandbox = try RealAnswerTests().replaying(server, ["/api/v1/geocode": "motis/location-addresses.json"])
        let listed = try sandbox.run(["place", "add", "aunt", "--search", "Guido Gezellelaan 106", "--geocoder", "transitous"])
        #expect(listed.status == 1 && listed.stdout == """
            Transitous found 5 places for "Guido Gezellelaan 106"; nothing saved:
              1. Guido Gezellelaan 106, Goirle (51.526752,5.075568)
              2. Guido Gezellelaan 106, Roeselare (50.936945,3.151533)
              3. Guido Gezellelaan 106, Menin (50.802996,3.109953)
              4. Guido Gezellelaan 106, Mortsel (51.176049,4.446062)
              5. Guido Gezellelaan 106, Kortrijk (50.835644,3.237462)

            """ + TransitousTests.attribution, "\(listed)")
        #expect(try sandbox.ok(["place", "add", "aunt", "--search", "Guido Gezellelaan 106", "--geocoder", "transitous", "--pick", "2"]).stdout
            == "Saved place aunt at 50.936945,3.151533: Guido Gezellelaan 106, Roeselare (found before; not asked again).\n" + TransitousTests.attribution)
    }

    /// "Karlsruhe Hbf": the station four times at one point (once per area it lies in), then places
    /// of other names: one station, then the others.
    @Test func oneStationNamedOncePerAreaIsOnePlace() throws {
        let server = try TransitousServer()
        let sandbox = try RealAnswerTests().replaying(server, ["/api/v1/geocode": "motis/location-name-search.json"])
        let listed = try sandbox.run(["place", "add", "hbf", "--search", "Karlsruhe Hbf", "--geocoder", "transitous"])
        let lines = listed.stdout.components(separatedBy: "\n")
        #expect(lines.filter { $0.hasPrefix("  ") && $0.contains("Karlsruhe Hbf") } == ["  1. Karlsruhe Hbf, Protestant Church in Baden (48.993515,8.402185)"], "\(listed)")
        #expect(lines.first == #"Transitous found 5 places for "Karlsruhe Hbf"; nothing saved:"# && lines.filter { $0.hasPrefix("  ") }.count == 5, "\(listed)")
    }
}
