@_spi(Store) @testable import CommuteHistory
import Basics
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
            // From a caller's guess, however far off (a week's stride where the gaps are uneven).
            let guess = Int(generator.next() % UInt64(contents.count + 200)) - 100
            #expect(contents.firstIndex(near: moment, from: guess) == contents.firstIndex(atOrAfter: moment), "\(moment) from \(guess)")
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
            let guess = generator.next() % 2 == 0 ? nil : Int(generator.next() % 3_200) - 100
            let first = contents.appendSoundReadings(in: range, to: &bulk, searchingFrom: guess)
            #expect(first == contents.firstIndex(atOrAfter: range.lowerBound))
            var each: [(at: Int, minutes: Int)] = []
            _ = contents.forEach(in: range, nearby: true) { record in
                if !record.suspicious { each.append((record.at, record.minutes)) }
            }
            #expect(bulk.map(\.at) == each.map(\.at) && bulk.map(\.minutes) == each.map(\.minutes), "\(range)")
        }
    }

    /// A plan tries a run of minutes with the same readings at once: it makes the leave time a
    /// plan trying every minute makes (from the arrival less the buffer, without the fastest
    /// reading's head start), and every minute of a run has its first minute's readings. Over
    /// half a year of uneven readings in Los Angeles — gaps of seconds to days, several readings
    /// at one second, suspicious ones — with both clock changes, for arrivals whose spans hold
    /// the skipped and the repeated hour, on the median and on percentiles.
    @Test func aPlanByRunsIsThePlanOfEveryMinute() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("departure-days-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try Store(directory: directory)
        var generator = SeededRandom(seed: 5_050)
        // 2024-01-01 to mid-July 2024 (spring forward on March 10), then October to December
        // (fall back on November 3).
        var records: [HistoryRecord] = []
        var minutes = 30
        for (from, to) in [(1_704_096_000, 1_720_000_000), (1_727_740_800, 1_733_000_000)] {
            var at = from
            while at < to {
                switch generator.next() % 40 {
                case 0: at += 86_400 + Int(generator.next() % 86_400)
                case 1, 2: at += 0
                default: at += 30 + Int(generator.next() % 720)
                }
                minutes = max(5, min(90, minutes + Int(generator.next() % 9) - 4))
                let flags = generator.next() % 16
                records.append(HistoryRecord(at: at, minutes: minutes, source: .wsdot, outside: flags < 2, confirmed: flags == 0))
            }
        }
        let last = try #require(records.last?.at)
        _ = try store.history.record([RouteID("1"): records], now: Date(timeIntervalSince1970: TimeInterval(last + 60)), retentionDays: 4_000)
        let contents = try store.history.contents(of: RouteID("1"))
        let zone = try #require(IANAZone(identifier: "America/Los_Angeles"))
        let calendar = ZonedCalendar(timeZone: zone, around: Date(timeIntervalSince1970: TimeInterval(last)))
        let today = calendar.localDay(of: last) + 1
        var plans = 0
        for weekday in Weekday.mondayFirst {
            for (arrival, buffer) in [(9 * 60, 5), (2 * 60 + 45, 0), (1 * 60 + 40, 10), (23 * 60 + 59, 30), (0 * 60 + 20, 5)] {
                let latest = arrival - buffer - 1
                let earliest = max(0, arrival - buffer - DepartureTimes.span)
                let days = DepartureDays(contents, weekday: weekday, departures: earliest...latest, before: today, calendar: calendar)
                // Every minute, latest first, through the cursors: each run's minutes are its first's.
                var cursors = days.cursors
                var seen: [Int: (same: Int, minutes: [Int])] = [:]
                for minute in stride(from: latest, through: earliest, by: -1) {
                    var found: [Int] = []
                    let same = days.minutes(leavingAt: minute, into: &found, cursors: &cursors)
                    #expect(same <= minute)
                    #expect(found == days.times(leavingAt: minute).map(\.minutes), "\(weekday) \(minute)")
                    seen[minute] = (same, found)
                }
                for (minute, run) in seen {
                    for other in max(run.same, earliest)...minute where seen[other]?.minutes != run.minutes {
                        Issue.record("\(weekday) arriving \(arrival): \(other) is in the run of \(minute) from \(run.same), with other readings")
                    }
                }
                for percent in [nil, 50, 80, 95, 100] {
                    var planCursors = days.cursors
                    let byRuns = PlannedDeparture.plan(arrival: arrival, buffer: buffer, percent: percent, fastest: days.fastest) { leave, minutes in
                        days.minutes(leavingAt: leave, into: &minutes, cursors: &planCursors)
                    }
                    #expect(byRuns == Self.everyMinute(days, arrival: arrival, buffer: buffer, percent: percent), "\(weekday) \(arrival) \(String(describing: percent))")
                    if byRuns != nil { plans += 1 }
                }
            }
        }
        // Many make a plan (72 of the 175; a span of 15 minutes before 0:20 never does): the
        // test is not of nothing.
        #expect(plans > 50)
    }

    /// The plan of trying every minute, latest first, each day's time found afresh.
    static func everyMinute(_ days: DepartureDays, arrival: Int, buffer: Int, percent: Int?) -> PlannedDeparture? {
        let latest = arrival - buffer
        for leave in stride(from: latest - 1, through: max(0, latest - DepartureTimes.span), by: -1) {
            let minutes = days.times(leavingAt: leave).map(\.minutes)
            if minutes.count >= DepartureTimes.minimumDays, let estimate = DepartureTimes.estimate(minutes, percent: percent),
                Double(leave) + estimate <= Double(latest)
            {
                return PlannedDeparture(leave: leave, minutes: estimate, days: minutes.count, percent: percent)
            }
        }
        return nil
    }

    /// The offsets looked up along a run of instants (each from the last one's span when inside
    /// it) are the calendar's, inside its window and outside it, across clock changes.
    @Test func offsetsAlongARunAreTheCalendars() throws {
        let zone = try #require(IANAZone(identifier: "America/Los_Angeles"))
        let calendar = ZonedCalendar(timeZone: zone, around: Date(timeIntervalSince1970: 1_710_000_000))
        var offsets = ZonedCalendar.Offsets(calendar)
        var generator = SeededRandom(seed: 3)
        var instant = 1_740_000_000
        while instant > 1_650_000_000 {
            #expect(offsets.at(instant) == calendar.offset(at: instant), "\(instant)")
            let (offset, span) = calendar.offsetSpan(at: instant)
            #expect(offset == calendar.offset(at: instant) && span.contains(instant))
            for probe in [span.lowerBound, span.upperBound, (span.lowerBound / 2 + span.upperBound / 2)] where abs(probe) < 1 << 40 {
                #expect(calendar.offset(at: probe) == offset, "\(instant): \(probe) in \(span)")
            }
            instant -= Int(generator.next() % 200_000)
        }
    }
}
