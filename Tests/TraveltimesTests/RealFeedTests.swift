import Foundation
import TestThreads
import Testing

/// A real agency's GTFS timetable (Cairns, Queensland, 2014: `Fixtures/real/gtfs/`, from gtfs-kit's
/// own test data), read through the binary and compared with gtfs-kit, the independent oracle
/// (`Tests/Support/gtfs_oracle.py`): which buses serve two stops on a day, and when.
@Suite(.ownThreads) struct RealFeedTests {
    static let feed = RealAnswerTests.real("gtfs/cairns-gtfs.zip")
    static let oracle = Paths.root.appendingPathComponent("Tests/Support/gtfs_oracle.py").path
    /// Fifty stop pairs, days and times drawn from the feed's own trips (`gtfs_oracle.py FEED
    /// samples 45 50`), half of them at a call where a night bus may not be boarded or left.
    static let samples = Paths.root.appendingPathComponent("Tests/Support/gtfs_samples.json").path

    struct Sample: Codable {
        var from: String
        var to: String
        var date: String
        var time: String

        /// `2014-07-20T10:10:00+10:00`: the moment in Cairns (no daylight saving).
        var moment: String {
            let day = "\(date.prefix(4))-\(date.dropFirst(4).prefix(2))-\(date.suffix(2))"
            return "\(day)T\(time)+10:00"
        }
    }

    func sandbox(at moment: String) throws -> Sandbox {
        let sandbox = Sandbox(zone: "Australia/Brisbane")
        try sandbox.ok(["transit", "add", "cairns", "--static", Self.feed, "--now", moment])
        return sandbox
    }

    /// `[trip, HH:MM:SS, HH:MM:SS]` of a route's departures on the sample's service day, as
    /// `route ID --json` lists them (at most 10, from the moment on).
    func departures(_ sandbox: Sandbox, route: String, sample: Sample) throws -> [[String]] {
        let json = try #require(try sandbox.json(["route", route, "--json", "--now", sample.moment]) as? [String: Any])
        let listed = try #require(json["departures"] as? [[String: Any]])
        let formatter = ISO8601DateFormatter()
        let midnight = try #require(formatter.date(from: "\(sample.moment.prefix(10))T00:00:00+10:00"))
        func clock(_ text: Any?) -> String? {
            guard let text = text as? String, let date = formatter.date(from: text) else { return nil }
            let seconds = Int(date.timeIntervalSince(midnight))
            return String(format: "%02d:%02d:%02d", seconds / 3600, seconds / 60 % 60, seconds % 60)
        }
        return listed.compactMap { departure in
            guard let trip = departure["trip"] as? String, let leave = clock(departure["scheduled"]), let arrive = clock(departure["arrival"]) else { return nil }
            return [trip, leave, arrive]
        }
    }

    @Test(ExternalTool.gtfsKit.needed) func everySampledDepartureIsTheOraclesOnARealFeed() throws {
        let samples = try JSONDecoder().decode([Sample].self, from: Data(contentsOf: URL(fileURLWithPath: Self.samples)))
        #expect(samples.count == 50)
        let said = try execute(
            ["/bin/sh", "-c", "python3 \"$0\" \"$1\" departures < \"$2\"", Self.oracle, Self.feed, Self.samples],
            environment: ProcessInfo.processInfo.environment)
        #expect(said.status == 0, "\(said)")
        let expected = try #require(try JSONSerialization.jsonObject(with: Data(said.stdout.utf8)) as? [[[String]]])
        #expect(expected.count == samples.count)
        var compared = 0
        for (index, sample) in samples.enumerated() where index < expected.count {
            let sandbox = try sandbox(at: sample.moment)
            let added = try sandbox.run(["route", "add", "r", "--transit", "cairns", "--from-stop", sample.from, "--to-stop", sample.to, "--now", sample.moment])
            guard added.status == 0 else {
                // Every trip between them refuses riders at one end: no route, and no departure to the oracle either.
                #expect(added.status == 1 && added.stderr.contains("takes riders on at \(sample.from) and off later at \(sample.to)"), "\(added)")
                #expect(expected[index].isEmpty, "sample \(index): \(sample)")
                continue
            }
            // The oracle reads one service day: compare the departures before the next midnight.
            let mine = try departures(sandbox, route: "r", sample: sample).filter { $0[1] < "24:00:00" }
            let theirs = expected[index].filter { $0[1] < "24:00:00" }
            let shown = min(mine.count, theirs.count, 10)
            #expect(Array(mine.prefix(shown)) == Array(theirs.prefix(shown)), "sample \(index): \(sample)")
            #expect(mine.isEmpty == theirs.isEmpty, "sample \(index): \(sample): \(mine) against \(theirs)")
            compared += shown
        }
        // Enough departures behind the comparison that it says something.
        #expect(compared > 300, "\(compared)")
    }

    /// What the file says at one stop pair: from Smithfield Shopping Centre (750073) to James
    /// Cook University (750047), Saturday's service ends with five 110N night buses at 1:00–5:00
    /// AM on Sunday (25:00:00–29:00:00), which call at 750073 with pickup_type=1: riders cannot
    /// board there. At 12:50 AM on Sunday the next buses to take are Sunday's, from 8:06 AM.
    @Test func aBusThatDoesNotPickUpIsNoDeparture() throws {
        let script = """
            import sys, zipfile
            for line in zipfile.ZipFile(sys.argv[1]).read("stop_times.txt").decode().splitlines():
                if line.startswith("CNS2014-CNS_MUL-Saturday-00-41661") and ",750073," in line and "-4166112," <= line[27:] <= "-4166116,~":
                    print(line)
            """
        let rows = try execute(["python3", "-c", script, Self.feed], environment: ProcessInfo.processInfo.environment)
        #expect(rows.stdout == """
            CNS2014-CNS_MUL-Saturday-00-4166112,25:00:00,25:00:00,750073,16,1,0
            CNS2014-CNS_MUL-Saturday-00-4166113,26:00:00,26:00:00,750073,16,1,0
            CNS2014-CNS_MUL-Saturday-00-4166114,27:00:00,27:00:00,750073,16,1,0
            CNS2014-CNS_MUL-Saturday-00-4166115,28:00:00,28:00:00,750073,16,1,0
            CNS2014-CNS_MUL-Saturday-00-4166116,29:00:00,29:00:00,750073,16,1,0

            """)
        let sandbox = try sandbox(at: "2014-07-20T00:50:00+10:00")
        let added = try sandbox.ok(["route", "add", "r", "--transit", "cairns", "--from-stop", "750073", "--to-stop", "750047", "--now", "2014-07-20T00:50:00+10:00"])
        #expect(added.stdout == """
            Added route r: Smithfield Shopping Centre - N229 → James Cook University - N242 (110, 111, 122, …).
            Next: 111 to Kewarra Beach: 8:06 AM, then 8:36 AM (110 to Palm Cove), 9:06 AM; leave by 8:06 AM; timetable times, no live data

            """)
    }

    /// An untimed stop (Arawa St, 750015, blank in 38 trips): its time is worked out between the
    /// trip's timed calls — 6:28 PM at Captain Cook Hwy N7 (750012) and 6:32 PM at N17 (750041) —
    /// by the distance along the way, rather than the trip being dropped.
    @Test func anUntimedStopIsTimedBetweenItsNeighbours() throws {
        let sandbox = try sandbox(at: "2014-07-21T18:00:00+10:00")
        let added = try sandbox.ok(["route", "add", "r", "--transit", "cairns", "--from-stop", "750015", "--to-stop", "750041", "--now", "2014-07-21T18:00:00+10:00"])
        #expect(added.stdout == """
            Added route r: Arawa St - Hail and Ride Location → Captain Cook Hwy N17 (110).
            Next: 110 to The Pier Cairns Terminus: 6:09 PM, then 6:30 PM, 7:30 PM; leave by 6:09 PM; timetable times, no live data

            """)
        let sample = Sample(from: "750015", to: "750041", date: "20140721", time: "18:00:00")
        let listed = try departures(sandbox, route: "r", sample: sample)
        #expect(listed.prefix(3).map { [String($0[0].suffix(7)), $0[1], $0[2]] } == [
            ["4165902", "18:09:00", "18:11:00"],
            ["4165903", "18:30:00", "18:32:00"],
            ["4165904", "19:30:00", "19:32:00"],
        ])
    }
}
