@_spi(Store) import CommuteCore
import Foundation
import TestThreads
import Testing

/// `IANAZone` against Python's zoneinfo, which reads the same files its own way: every offset
/// at instants from 1901 to 2200 (the table, then the POSIX rule past it) and around each
/// transition in a dozen zones chosen for their oddities.
@Suite(.ownThreads) struct IANAZoneTests {
    static let zones = [
        "America/Los_Angeles", "Europe/London", "Europe/Dublin", "Australia/Sydney", "Australia/Lord_Howe", "America/Santiago",
        "Asia/Kolkata", "Pacific/Chatham", "Africa/Casablanca", "America/St_Johns", "Antarctica/Troll", "America/Sao_Paulo",
        "Pacific/Apia", "Asia/Tehran", "UTC",
    ]

    @Test func offsetsMatchZoneinfoFrom1901To2200() throws {
        // Every 9 days and 7 hours (every season and hour over the years), and each hour of the
        // days around the daylight-saving changes of 2024, 2038 and 2150.
        var instants = Array(stride(from: -2_145_916_800, to: 7_258_118_400, by: 9 * 86_400 + 7 * 3_600))
        for year in [2024, 2038, 2150] {
            let january1 = (year - 1970) * 31_556_952
            for month in 0..<12 {
                let start = january1 + month * 2_629_746
                instants += stride(from: start, to: start + 10 * 86_400, by: 1_800)
            }
        }
        let expected = try Self.oracle(Self.zones, instants)
        var mismatches: [String] = []
        for name in Self.zones {
            let zone = try #require(IANAZone(identifier: name))
            for instant in instants {
                let offset = zone.offset(at: instant)
                if offset != expected["\(name) \(instant)"] {
                    mismatches.append("\(name) at \(instant): \(offset), zoneinfo \(expected["\(name) \(instant)"].map(String.init) ?? "nothing")")
                }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) of \(Self.zones.count * instants.count): \(mismatches.prefix(10))")
    }

    /// The span `offsetSpan` gives around an instant (what a reader of a year of days reuses) holds
    /// that instant, and zoneinfo gives its offset at every instant of the test's that falls in it:
    /// the table's spans run from one transition to the next, the rule's past it are the instant
    /// alone.
    @Test func everyInstantOfAnOffsetsSpanHasThatOffset() throws {
        var instants = Array(stride(from: -2_145_916_800, to: 7_258_118_400, by: 9 * 86_400 + 7 * 3_600))
        for year in [2024, 2038] {
            let january1 = (year - 1970) * 31_556_952
            for month in 0..<12 { instants += stride(from: january1 + month * 2_629_746, to: january1 + month * 2_629_746 + 10 * 86_400, by: 1_800) }
        }
        instants.sort()
        let expected = try Self.oracle(Self.zones, instants)
        var mismatches: [String] = []
        for name in Self.zones {
            let zone = try #require(IANAZone(identifier: name))
            var checked = Set<ClosedRange<Int>>()
            for instant in instants {
                let (offset, span) = zone.offsetSpan(at: instant)
                guard offset == expected["\(name) \(instant)"], span.contains(instant) else {
                    mismatches.append("\(name) at \(instant): \(offset) over \(span)")
                    continue
                }
                guard checked.insert(span).inserted else { continue }
                let first = instants.partitioningIndex { $0 >= span.lowerBound }
                for other in instants[first...].prefix(while: { $0 <= span.upperBound }) where expected["\(name) \(other)"] != offset {
                    mismatches.append("\(name): \(other) is in \(span) of \(offset), zoneinfo \(expected["\(name) \(other)"].map(String.init) ?? "nothing")")
                }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count): \(mismatches.prefix(10))")
    }

    @Test func namesOutsideTheDatabaseAreNotZones() {
        for name in ["", "Nowhere/Special", "../../etc/passwd", "/usr/share/zoneinfo/UTC", "America/../UTC", "America/Los Angeles", "America/Los_Angeles\n", "Europe"] {
            #expect(IANAZone(identifier: name) == nil, "\(name)")
        }
        #expect(IANAZone(identifier: "Etc/GMT+5")?.offset(at: 0) == -5 * 3_600)
        #expect(IANAZone(identifier: "Asia/Kathmandu")?.offset(at: 1_700_000_000) == 20_700)
    }

    static func oracle(_ zones: [String], _ instants: [Int]) throws -> [String: Int] {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Support/zone_oracle.py").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script] + zones
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        let writer = Thread {
            input.fileHandleForWriting.write(Data(instants.map(String.init).joined(separator: "\n").utf8))
            try? input.fileHandleForWriting.close()
        }
        writer.start()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0)
        var table: [String: Int] = [:]
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            let parts = line.split(separator: " ")
            table["\(parts[0]) \(parts[1])"] = Int(parts[2])
        }
        return table
    }
}

private extension Array {
    /// The first index whose element is `past` (which, once true, stays true): a binary search.
    func partitioningIndex(where past: (Element) -> Bool) -> Int {
        var (low, high) = (0, count)
        while low < high {
            let middle = (low + high) / 2
            if past(self[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
