import CommuteCore
import Foundation
import Testing

/// Issue 21's formats, read without packages: zip archives over zlib's raw inflate, GTFS's CSV,
/// and the protocol-buffer wire format of GTFS-realtime — each against fixtures written by an
/// independent encoder (`Tests/Support/gtfs_fixtures.py`: Python's zipfile, and a protobuf encoder
/// written from the `.proto` field numbers), good and hostile.
@Suite struct TransitFormatTests {
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
        for name in ["good-deflated", "good-stored", "descriptors", "zip64"] {
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
