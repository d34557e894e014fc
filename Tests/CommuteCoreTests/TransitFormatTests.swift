@_spi(Store) import CommuteCore
import Foundation
import TestThreads
import Testing

/// Issue 21's formats, read without packages: zip archives over zlib's raw inflate, GTFS's CSV,
/// and the protocol-buffer wire format of GTFS-realtime — each against fixtures written by an
/// independent encoder (`Tests/Support/gtfs_fixtures.py`: Python's zipfile, and a protobuf encoder
/// written from the `.proto` field numbers), good and hostile.
@Suite(.ownThreads) struct TransitFormatTests {
    /// The fixtures, written once per test into a temporary directory.
    static func fixtures() throws -> TemporaryDirectory {
        let directory = TemporaryDirectory()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Support/gtfs_fixtures.py").path
        process.arguments = ["python3", script, directory.path]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return directory
    }

    static func stops(_ archive: ZipArchive) throws -> [[String]] {
        var rows: [[String]] = []
        try GTFSTable.read("stops.txt", in: archive, columns: ["stop_id", "stop_name", "parent_station", "no_such_column"]) { row in
            rows.append((0..<4).map { String(row[$0]) })
            return true
        }
        return rows
    }

    @Test func storedDeflatedAndDescriptorZipsReadTheSame() throws {
        let directory = try Self.fixtures()
        let expected = [
            ["1001", "Bellevue TC, Bay 1", "9000", ""], ["1002", "The \"Main\" St", "", ""], ["9000", "Bellevue Transit Center", "", ""],
        ]
        for name in ["good-deflated", "good-stored", "descriptors"] {
            let archive = try ZipArchive(path: "\(directory.path)/\(name).zip")
            #expect(try Self.stops(archive) == expected, "\(name)")
            var times: [String] = []
            try GTFSTable.read("stop_times.txt", in: archive, columns: ["trip_id", "departure_time", "stop_id"]) { row in
                times.append("\(row[0]) \(row[1]) \(row[2])")
                return true
            }
            #expect(times == ["T1 07:42:00 1002", "T1 08:10:00 1001", "T2 25:10:00 1002", "T2 25:40:00 1001"], "\(name): CRLF lines")
        }
    }

    @Test func hostileZipsAreRefusedWithAReasonAndNeverRunAway() throws {
        let directory = try Self.fixtures()
        func problem(_ name: String, _ entry: String = "stop_times.txt") -> String {
            do {
                let archive = try ZipArchive(path: "\(directory.path)/\(name).zip")
                try archive.forEachLine(of: entry) { _ in true }
                try GTFSTable.read(entry, in: archive, columns: ["stop_id"]) { _ in true }
                return "read"
            } catch {
                return "\(error)"
            }
        }
        #expect(problem("bomb").contains("a zip bomb, not read"))
        #expect(problem("truncated").contains("no end of central directory"))
        #expect(problem("lying").contains("holds more than the"))
        #expect(problem("zip64-directory").contains("ZIP64 archive, which traveltimes does not read"))
        // A ZIP64 extra field in one entry's local header is a ZIP64 entry: refused too, as the
        // README says, not read as if it were not there.
        #expect(problem("zip64") == "stop_times.txt is a ZIP64 entry, which traveltimes does not read (no GTFS file needs 4 GiB)")
        #expect(problem("broken-quote", "stops.txt") == "stops.txt, line 2: a quoted field is not closed")
        #expect(problem("long-line", "stops.txt").contains("has a line over 1 MiB"))
        // An entry named ../stops.txt is not stops.txt: nothing is ever written out.
        let dotdot = try ZipArchive(path: "\(directory.path)/dotdot.zip")
        #expect(try Self.stops(dotdot).map { $0[0] } == ["1001", "1002", "9000"])
        #expect(problem("good-deflated", "shapes.txt") == "it has no shapes.txt")
        // Random bytes, and a zip with every byte of its directory flipped in turn: an error, never a crash.
        var random = FixedSeed(21)
        let good = try Data(contentsOf: URL(fileURLWithPath: "\(directory.path)/good-deflated.zip"))
        for round in 0..<300 {
            var bytes = good
            for _ in 0..<(1 + round % 5) { bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random) }
            let path = "\(directory.path)/fuzz.zip"
            try bytes.write(to: URL(fileURLWithPath: path))
            _ = problem("fuzz")
        }
    }

    @Test func tripUpdatesAndAlertsDecodeAsTheProtoNumbersSay() throws {
        let directory = try Self.fixtures()
        let feed = try GTFSRealtime(decoding: Data(contentsOf: URL(fileURLWithPath: "\(directory.path)/tripupdates.pb")))
        #expect(feed.timestamp == 1_762_268_400)
        #expect(feed.tripUpdates.map(\.tripID) == ["T1", "T9", "T2"])
        let late = feed.tripUpdates[0]
        #expect(late.routeID == "545" && late.startDate == "20251104" && late.relationship == .scheduled)
        #expect(late.stopTimeUpdates.map(\.stopID) == ["1002", "1001"])
        #expect(late.stopTimeUpdates[0].departure?.delay == 180 && late.stopTimeUpdates[1].relationship == .skipped)
        #expect(feed.tripUpdates[1].relationship == .canceled)
        let early = try #require(feed.tripUpdates[2].stopTimeUpdates.first?.departure)
        #expect(early.delay == -90 && early.time == 1_762_363_800)

        let alerts = try GTFSRealtime(decoding: Data(contentsOf: URL(fileURLWithPath: "\(directory.path)/alerts.pb"))).alerts
        try #require(alerts.count == 1)
        #expect(alerts[0].routeIDs == ["545"] && alerts[0].stopIDs == ["1001"] && alerts[0].effect == 4)
        #expect(alerts[0].header == "545 detoured" && alerts[0].description == "Use stop 1003\u{FFFD}[2J")
        #expect(alerts[0].periods.map { [$0.start, $0.end] } == [[1_762_260_000, 1_762_300_000]])
    }

    @Test func hostileProtobufsFailWithAReasonOrDecodeBounded() throws {
        let directory = try Self.fixtures()
        func decode(_ name: String) -> Result<GTFSRealtime, any Error> {
            Result { try GTFSRealtime(decoding: Data(contentsOf: URL(fileURLWithPath: "\(directory.path)/hostile-\(name).pb"))) }
        }
        func reason(_ name: String) -> String {
            if case .failure(let error) = decode(name) { return "\(error)" }
            return "decoded"
        }
        #expect(reason("bad-varint") == "a varint is longer than 10 bytes")
        #expect(reason("past-end").contains("claims 1000000 bytes where"))
        #expect(reason("group").contains("wire type 3"))
        #expect(reason("truncated").contains("runs past the end") || reason("truncated").contains("claims"))
        #expect(reason("many-stops") == "a trip update with over 2000 stops")
        // Unknown nesting is skipped, not descended into.
        #expect(reason("deep") == "decoded")
        let year = try decode("year-9999").get()
        #expect(year.timestamp == 253_402_300_799 && year.tripUpdates[0].stopTimeUpdates[0].arrival?.time == nil)
        var random = FixedSeed(21)
        let good = try Data(contentsOf: URL(fileURLWithPath: "\(directory.path)/tripupdates.pb"))
        for _ in 0..<2_000 {
            var bytes = good
            bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
            _ = try? GTFSRealtime(decoding: bytes)
        }
    }
}

/// The same bytes flipped every run: a linear congruential generator with a fixed seed.
struct FixedSeed: RandomNumberGenerator {
    private var state: UInt64
    init(_ seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return state ^ (state >> 29)
    }
}

/// Issue 21's timetable: the trips from one stop to another kept from a GTFS archive, their
/// service days, and their next departures with realtime delays and cancellations.
@Suite(.ownThreads) struct TransitTimetableTests {
    static func timetable(line: String? = nil, from: String = "S", to: String = "B") throws -> (TransitTimetable, TemporaryDirectory) {
        let directory = try TransitFormatTests.fixtures()
        return (try TransitTimetable(archive: try ZipArchive(path: "\(directory.path)/timetable.zip"), from: from, to: to, line: line), directory)
    }

    static func date(_ text: String) throws -> Date { try #require(ISO8601.parse(text)?.instant) }

    static func summary(_ departures: [TransitDeparture]) -> [String] {
        let zone = IANAZone(identifier: "America/Los_Angeles") ?? .utc
        let calendar = ZonedCalendar(timeZone: zone, around: departures.first?.scheduled ?? Date())
        func clock(_ date: Date) -> String { TimeFormatting.iso8601(date, calendar: calendar) }
        return departures.map { departure in
            var text = "\(departure.tripID) \(departure.line) \(clock(departure.scheduled))"
            if let predicted = departure.predicted { text += " → \(clock(predicted))" }
            if departure.canceled { text += " canceled" }
            if departure.skipped { text += " skipped" }
            return text + " arrives \(clock(departure.arrival))"
        }
    }

    @Test func aStationStandsForItsPlatformsAndOnlyTripsFromTheOneToTheOtherAreKept() throws {
        let (all, _) = try Self.timetable()
        #expect(all.fromStops == ["A1", "A2", "S"] && all.toStops == ["B"] && all.timeZone == "America/Los_Angeles")
        // TR runs B then A1: the wrong way. T2's rows come out of order.
        #expect(all.trips.map(\.id).sorted() == ["T1", "T2", "T3", "T4", "TF", "TM"])
        let (line, _) = try Self.timetable(line: "545")
        #expect(!line.trips.contains { $0.id == "T3" })
        #expect(throws: ZipProblem.self) { try Self.timetable(line: "999") }
        #expect(throws: ZipProblem.self) { try Self.timetable(from: "NOWHERE") }
    }

    /// A new timetable is read once for all of a feed's routes: each request gets what a read of
    /// its own would give, a request the archive cannot serve gets its reason, and the whole
    /// archive is still counted and checked.
    @Test func oneReadServesEveryRouteAsItsOwnReadWould() throws {
        let directory = try TransitFormatTests.fixtures()
        let archive = try ZipArchive(path: "\(directory.path)/timetable.zip")
        let requests = [
            TransitTimetable.Request(from: "S", to: "B"), TransitTimetable.Request(from: "S", to: "B", line: "545"),
            TransitTimetable.Request(from: "NOWHERE", to: "B"), TransitTimetable.Request(from: "S", to: "B", line: "999"),
            TransitTimetable.Request(from: "B", to: "S"),
        ]
        let reading = try TransitTimetable.read(archive, requests: requests, checkingEverything: true)
        #expect(reading.contents == (try TransitTimetable.read(archive, requests: [], checkingEverything: true)).contents)
        #expect(reading.contents.stops > 0 && reading.contents.trips > 0)
        for (request, result) in zip(requests, reading.timetables) {
            switch result {
            case .success(let timetable):
                #expect(timetable == (try TransitTimetable(archive: archive, from: request.from, to: request.to, line: request.line)))
            case .failure(let problem):
                #expect(throws: problem) { try TransitTimetable(archive: archive, from: request.from, to: request.to, line: request.line) }
            }
        }
        #expect(reading.timetables.map { (try? $0.get())?.trips.count ?? -1 } == [6, 5, -1, -1, 1])
        #expect((try? reading.timetables[2].get()) == nil && "\(reading.timetables[2])".contains("stops.txt has no stop NOWHERE"))
        #expect("\(reading.timetables[3])".contains("routes.txt has no line 999"))
    }

    @Test func nextDeparturesHonourServiceDaysTimesPastMidnightAndFrequencies() throws {
        let (timetable, _) = try Self.timetable()
        let tuesday = timetable.departures(after: try Self.date("2025-11-04T05:50:00-08:00"), realtime: nil, limit: 6)
        #expect(Self.summary(tuesday) == [
            "TF 545 2025-11-04T06:05:00-08:00 arrives 2025-11-04T06:30:00-08:00",
            "TF 545 2025-11-04T06:25:00-08:00 arrives 2025-11-04T06:50:00-08:00",
            "TF 545 2025-11-04T06:45:00-08:00 arrives 2025-11-04T07:10:00-08:00",
            "T1 545 2025-11-04T07:42:00-08:00 arrives 2025-11-04T08:10:00-08:00",
            "T2 545 2025-11-04T07:57:00-08:00 arrives 2025-11-04T08:25:00-08:00",
            "T3 271 2025-11-04T08:05:00-08:00 arrives 2025-11-04T08:40:00-08:00",
        ])
        // 24:30 on Tuesday's service is Wednesday 00:30, found after midnight.
        let night = timetable.departures(after: try Self.date("2025-11-05T00:10:00-08:00"), realtime: nil, limit: 2)
        #expect(Self.summary(night).first == "T4 545 2025-11-05T00:30:00-08:00 arrives 2025-11-05T01:05:00-08:00")
        // Thanksgiving is removed from weekdays; the Saturday after is added.
        let thanksgiving = timetable.departures(after: try Self.date("2025-11-27T07:00:00-08:00"), realtime: nil, limit: 3)
        #expect(!thanksgiving.contains { ["T1", "T2", "T3"].contains($0.tripID) })
        let saturday = timetable.departures(after: try Self.date("2025-11-29T07:00:00-08:00"), realtime: nil, limit: 1)
        #expect(saturday.first?.tripID == "T1")
    }

    @Test func timesCountFromNoonLessTwelveHoursOnBothClockChanges() throws {
        let (timetable, _) = try Self.timetable()
        // 00:30:00 on the service day: 12 hours before noon, plus 30 minutes — computed by Python
        // from instants: 1:30 AM PDT on Nov 2, 2025; 11:30 PM PST the evening before Mar 8, 2026.
        let fall = timetable.departures(after: try Self.date("2025-11-02T00:00:00-07:00"), realtime: nil, limit: 1)
        #expect(fall.first?.tripID == "TM" && fall.first?.scheduled.timeIntervalSince1970 == 1_762_072_200)
        let spring = timetable.departures(after: try Self.date("2026-03-07T23:00:00-08:00"), realtime: nil, limit: 1)
        #expect(spring.first?.tripID == "TM" && spring.first?.scheduled.timeIntervalSince1970 == 1_772_955_000)
    }

    @Test func realtimeDelaysPropagateCancellationsShowAndALateBusIsNotLost() throws {
        let (timetable, directory) = try Self.timetable()
        let realtime = try GTFSRealtime(decoding: Data(contentsOf: URL(fileURLWithPath: "\(directory.path)/tripupdates.pb")))
        // T1 is 3 minutes late at its first stop (and skips B, the second: its delay carries on);
        // T9 is cancelled but not in this timetable; T2 has a departure 90 s early given by time.
        let late = timetable.departures(after: try Self.date("2025-11-04T07:43:00-08:00"), realtime: realtime, limit: 2)
        #expect(Self.summary(late).first == "T1 545 2025-11-04T07:42:00-08:00 → 2025-11-04T07:45:00-08:00 arrives 2025-11-04T08:13:00-08:00")
        #expect(late.first?.delaySeconds == 180)
        // Without realtime the same query has no prediction, and T1 is gone.
        let timetableOnly = timetable.departures(after: try Self.date("2025-11-04T07:43:00-08:00"), realtime: nil, limit: 2)
        #expect(timetableOnly.first?.tripID == "T2" && timetableOnly.allSatisfy { $0.predicted == nil })
        var cancelled = realtime
        cancelled.tripUpdates = [GTFSRealtime.TripUpdate(tripID: "T2", relationship: .canceled)]
        let gone = timetable.departures(after: try Self.date("2025-11-04T07:50:00-08:00"), realtime: cancelled, limit: 2)
        #expect(gone.first?.tripID == "T2" && gone.first?.canceled == true && gone.first?.predicted == nil)
    }
}
