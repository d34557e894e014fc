@_spi(Store) import CommuteCore
@_spi(Store) import CommuteStore
import Foundation
import TestThreads
import Testing

/// Minute by minute through the two daylight-saving weeks of 2026 in Los Angeles, with a real store:
/// every scheduled occurrence is delivered exactly once, the spring-forward one at 03:00, the
/// fall-back one at its first 01:30.
@Suite(.ownThreads) struct TickSimulationTests {
    func simulate(from start: String, days: Int) throws -> [(id: AlertID, at: Date)] {
        let directory = TemporaryDirectory()
        let store = try Store(directory: directory.path)
        let la = zone("America/Los_Angeles")
        let begin = instant(start)
        let setup = Commute(store: store, now: begin, timeZone: la)
        _ = try setup.refresh.run(feed: Data(contentsOf: fixtureURL), source: "fixture")
        _ = try setup.favorites.addFavorites(["1"])
        _ = try setup.schedules.addSchedule(.init(days: [.sunday], time: TimeOfDay(hour: 2, minute: 30)))
        _ = try setup.schedules.addSchedule(.init(days: [.sunday], time: TimeOfDay(hour: 1, minute: 30)))
        _ = try setup.schedules.addSchedule(.init(days: Set(Weekday.allCases), time: TimeOfDay(hour: 7, minute: 0)))
        var delivered: [(id: AlertID, at: Date)] = []
        for minute in 1...(days * 1_440) {
            let now = begin.addingTimeInterval(TimeInterval(minute * 60))
            let report = try Commute(store: store, now: now, timeZone: la, grace: 600).alerts.tick(
                notifiers: [Notifier(id: 0, kind: .stdout)],
                sender: ClosureSender { message, _ in
                    delivered.append((message.id, now))
                    return .delivered
                })
            #expect(report.missed.isEmpty, "missed at \(now)")
        }
        return delivered
    }

    func local(_ date: Date) -> String {
        TimeFormatting.iso8601(date, calendar: ZonedCalendar(timeZone: zone("America/Los_Angeles"), around: date))
    }

    @Test func springForwardWeek() throws {
        let delivered = try simulate(from: "2026-03-05T00:00:00-08:00", days: 5)
        // Over five days no weekly request fires twice: nothing is delivered twice.
        #expect(Set(delivered.map { "\($0.id)@\($0.at)" }).count == delivered.count)
        let sunday = delivered.filter { if case .schedule(_, let weekday, _) = $0.id { weekday != .thursday && weekday != .friday } else { true } }
            .map { local($0.at) }.filter { $0.hasPrefix("2026-03-08") }
        #expect(sunday == ["2026-03-08T01:30:00-08:00", "2026-03-08T03:00:00-07:00", "2026-03-08T07:00:00-07:00"])
        #expect(delivered.count == 7, "five 7:00 alerts, and the two Sunday ones")
    }

    @Test func fallBackWeek() throws {
        let delivered = try simulate(from: "2026-10-29T00:00:00-07:00", days: 5)
        let sunday = delivered.map { local($0.at) }.filter { $0.hasPrefix("2026-11-01") }
        #expect(sunday == ["2026-11-01T01:30:00-07:00", "2026-11-01T02:30:00-08:00", "2026-11-01T07:00:00-08:00"])
        #expect(Set(delivered.map(\.id)).count == delivered.count)
        #expect(delivered.count == 7)
    }
}
