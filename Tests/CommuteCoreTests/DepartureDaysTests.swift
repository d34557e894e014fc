@_spi(Store) @testable import CommuteHistory
@testable import CommuteModel
@_spi(Store) @testable import CommuteStore
import Foundation
import TestThreads
import Testing

/// Issue 50's readers of a long history: a day found from where its time would be gives the index
/// a plain binary search gives; a day's time for a departure is its reading nearest it.
@Suite(.ownThreads) struct DepartureDaysTests {
    /// A history with uneven gaps (seconds to hours), several readings at one second, and days
    /// with none.
    static func history(_ store: Store, seed: UInt64) throws -> HistoryFile.Contents {
        var generator = SeededRandom(seed: seed)
        var at = 1_700_000_000
        var records: [HistoryRecord] = []
        for _ in 0..<5_000 {
            switch generator.next() % 10 {
            case 0: at += 0
            case 1: at += Int(generator.next() % 90_000)
            default: at += 60 + Int(generator.next() % 600)
            }
            records.append(HistoryRecord(at: at, minutes: 10 + Int(generator.next() % 50), source: .wsdot))
        }
        _ = try store.history.record([RouteID("1"): records], now: Date(timeIntervalSince1970: TimeInterval(at + 60)), retentionDays: 4_000)
        return try store.history.contents(of: RouteID("1"))
    }

    @Test func theIndexFoundNearItsTimeIsTheBinarySearchesEverywhere() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("departure-days-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try Store(directory: directory)
        let contents = try Self.history(store, seed: 50)
        #expect(contents.count > 4_000)
        var generator = SeededRandom(seed: 7)
        var moments = [Int.min, 0, 1_700_000_000, 1_700_000_001, Int.max]
        for _ in 0..<3_000 { moments.append(1_699_990_000 + Int(generator.next() % 5_000_000)) }
        for index in stride(from: 0, to: contents.count, by: 37) {
            if let record = contents.record(at: index) { moments += [record.at - 1, record.at, record.at + 1] }
        }
        for moment in moments {
            #expect(contents.firstIndex(near: moment) == contents.firstIndex(atOrAfter: moment), "\(moment)")
        }
    }
    /// The estimate counted (how plans find it) is the estimate sorted, for medians of odd and
    /// even counts, percentiles, one day, and times too far apart to count (sorted then).
    @Test func theCountedEstimateIsTheSortedOne() throws {
        var generator = SeededRandom(seed: 95)
        var counts: [Int32] = []
        for round in 0..<2_000 {
            let count = 1 + Int(generator.next() % 60)
            let spread = round % 10 == 0 ? 1_440 : 1 + Int(generator.next() % 90)
            let minutes = (0..<count).map { _ in 1 + Int(generator.next() % UInt64(spread)) }
            for percent in [nil, 50, 80, 95, 100] {
                #expect(
                    DepartureTimes.estimate(counting: minutes, counts: &counts, percent: percent)
                        == DepartureTimes.estimate(sorted: minutes.sorted(), percent: percent), "\(minutes) \(String(describing: percent))")
            }
        }
        #expect(DepartureTimes.estimate(counting: [], counts: &counts, percent: nil) == nil)
    }

    /// The readings a plan reads in bulk are those `forEach` hands over, suspicious ones left out:
    /// on a history with suspicious, confirmed and damaged records, for spans across it.
    @Test func theSoundReadingsReadInBulkAreThoseForEachGives() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("departure-days-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try Store(directory: directory)
        var generator = SeededRandom(seed: 51)
        var records: [HistoryRecord] = []
        var at = 1_700_000_000
        for _ in 0..<3_000 {
            at += Int(generator.next() % 700)
            let flags = generator.next() % 8
            records.append(HistoryRecord(at: at, minutes: 5 + Int(generator.next() % 80), source: .wsdot, outside: flags < 2, confirmed: flags == 0))
        }
        _ = try store.history.record([RouteID("1"): records], now: Date(timeIntervalSince1970: TimeInterval(at + 60)), retentionDays: 4_000)
        // Damage a record in the middle (its check byte), as a torn write would.
        let path = store.history.path(of: RouteID("1"))
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        bytes[HistoryFile.headerSize + 1_500 * HistoryRecord.size + HistoryRecord.size - 1] ^= 0xFF
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let contents = try store.history.contents(of: RouteID("1"))
        #expect(contents.count > 2_900)
        for _ in 0..<300 {
            let start = 1_699_999_000 + Int(generator.next() % 1_100_000)
            let range = start..<(start + Int(generator.next() % 20_000))
            var bulk: [(at: Int, minutes: Int)] = []
            contents.appendSoundReadings(in: range, to: &bulk)
            var each: [(at: Int, minutes: Int)] = []
            _ = contents.forEach(in: range, nearby: true) { record in
                if !record.suspicious { each.append((record.at, record.minutes)) }
            }
            #expect(bulk.map(\.at) == each.map(\.at) && bulk.map(\.minutes) == each.map(\.minutes), "\(range)")
        }
    }
}
