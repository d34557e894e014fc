@_spi(Store) import CommuteCore
@_spi(Store) import CommuteStore
import Foundation
import Testing

extension TransitTests {
    /// Keys stay in config.json: the header's value and a URL's key appear in no output, no other
    /// file, and not in the fetch helper's arguments (the request goes in on its stdin).
    @Test func theAgencysKeyIsInConfigAlone() throws {
        let server = try TransitServer()
        let sandbox = try commuter(server)
        try sandbox.ok(["refresh", "--now", Self.at("07:15")])
        let outputs = [
            try sandbox.ok(["transit", "list", "--now", Self.at("07:15")]),
            try sandbox.ok(["transit", "list", "--json", "--now", Self.at("07:15")]),
            try sandbox.ok(["config", "show"]), try sandbox.ok(["status", "--now", Self.at("07:15")]),
        ]
        for outcome in outputs { #expect(!(outcome.stdout + outcome.stderr).contains("sekrit"), "\(outcome)") }
        #expect(Whole.normal(outputs[0].stdout) == """
            metro
              static    http://127.0.0.1:PORT/…
              realtime  http://127.0.0.1:PORT/…
              alerts    http://127.0.0.1:PORT/…
              headers   X-Api-Key: …
              timetable fetched 7:00 AM, checked 7:00 AM; zone America/Los_Angeles
              realtime  read 7:15 AM
              routes    commute

            """)
        let files = try FileManager.default.subpathsOfDirectory(atPath: sandbox.home)
        for file in files where file != "config.json" {
            let data = FileManager.default.contents(atPath: sandbox.path(file)) ?? Data()
            #expect(data.range(of: Data("sekrit".utf8)) == nil, "\(file) holds the key")
        }
        #expect(sandbox.bytes("config.json").map { $0.range(of: Data("sekrit-key-42".utf8)) != nil } == true)
    }

    /// Hostile timetables and realtime feeds through the binary: a clear message, a non-zero
    /// status, nothing saved or the previous data kept, nothing on the terminal it should not.
    @Test func hostileFeedsChangeNothing() throws {
        let fixtures = FileManager.default.temporaryDirectory.appendingPathComponent("gtfs-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: fixtures) }
        _ = try execute(["python3", Paths.root.appendingPathComponent("Tests/Support/gtfs_fixtures.py").path, fixtures], environment: [:])
        let sandbox = Sandbox(runner: .binary)
        let refusals = [
            "bomb.zip": "a zip bomb", "truncated.zip": "", "lying.zip": "", "zip64-directory.zip": "ZIP64",
            "broken-quote.zip": "", "long-line.zip": "",
        ]
        for (name, words) in refusals.sorted(by: { $0.key < $1.key }) {
            let outcome = try sandbox.run(["transit", "add", "bad", "--static", "\(fixtures)/\(name)", "--now", Self.at("07:00")])
            let shown = outcome.stdout + outcome.stderr
            #expect(outcome.status != 0 && shown.contains("feed bad was not added") && (words.isEmpty || shown.contains(words)), "\(name): \(outcome)")
            #expect(!shown.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "\(name)")
        }
        #expect(try sandbox.store.configuration().transitFeeds == nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.path("transit")).isEmpty)
        // A good feed, then hostile realtime: warnings, the timetable's departures, exit 75.
        let realtime = sandbox.home + "-realtime.pb"
        defer { try? FileManager.default.removeItem(atPath: realtime) }
        try FileManager.default.copyItem(atPath: Paths.transit("realtime-0715.pb"), toPath: realtime)
        try sandbox.ok(["transit", "add", "metro", "--static", Paths.transit("metro-gtfs.zip"), "--realtime", realtime, "--now", Self.at("07:00")])
        try sandbox.ok(["route", "add", "bus", "--transit", "metro", "--from-stop", "CH", "--to-stop", "2301", "--now", Self.at("07:00")])
        try sandbox.ok(["refresh", "--now", Self.at("07:15")])
        for name in ["bad-varint", "past-end", "group", "deep", "many-stops", "year-9999", "truncated"] {
            try FileManager.default.removeItem(atPath: realtime)
            try FileManager.default.copyItem(atPath: "\(fixtures)/hostile-\(name).pb", toPath: realtime)
            let outcome = try sandbox.run(["refresh", "--now", Self.at("07:20")])
            #expect([0, 75].contains(outcome.status), "\(name): \(outcome)")
            let route = try sandbox.ok(["route", "bus", "--now", Self.at("07:20")]).stdout
            #expect(route == """
                Capitol Hill Station → Redmond Technology Station (542, 545) (route bus)
                  From:     Capitol Hill Station (stop CH)
                  To:       Redmond Technology Station (stop 2301)
                  Source:   transit feed metro, any line
                  Next:     545 to Redmond: 7:27 AM (timetable), then 7:35 AM (timetable) (542 to Redmond TC), 7:42 AM (timetable); leave by 7:27 AM
                  Trip:     38 min (walk 0 min, then the ride; timetable 38 min)
                  Delay:    unknown: the realtime feed says nothing of the next bus
                  Arrive:   8:05 AM if you leave now
                  Updated:  7:20 AM (0 min ago)
                  Schedules: none

                """, "\(name): \(route)")
            // Refused whole: the last good feed, under 15 minutes old, still gives the delay.
            if outcome.stderr.contains("is not GTFS-realtime") {
                let kept = try sandbox.store.transitState().routes.first?.transit?.departures.first { $0.tripID == "545-0757" }
                #expect(outcome.status == 75 && kept?.delaySeconds == 240, "\(name): \(outcome)")
            }
        }
        // Bad words on the command line: usage errors, nothing saved.
        for words in [["transit", "add", "Bad Name", "--static", "x.zip"], ["transit", "add", "ok", "--static", "http://"],
                      ["transit", "add", "ok", "--static", "x.zip", "--header", "no colon"],
                      ["route", "add", "bus2", "--transit", "metro", "--from-stop", "CH", "--to-stop", "2301", "--walk", "999"],
                      ["route", "add", "bus2", "--transit", "nope", "--from-stop", "CH", "--to-stop", "2301"],
                      ["route", "add", "bus2", "--transit", "metro", "--from-stop", "1500", "--to-stop", "2301"]] {
            let outcome = try sandbox.run(words + ["--now", Self.at("07:00")])
            #expect(outcome.status != 0 && !outcome.stderr.isEmpty, "\(words): \(outcome)")
        }
        #expect(try sandbox.store.transitState().routes.map(\.id) == ["bus"])
    }
}
