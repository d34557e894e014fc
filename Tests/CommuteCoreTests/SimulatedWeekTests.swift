@_spi(Store) import CommuteCore
@_spi(Store) import CommuteStore
import Foundation
import TestThreads
import Testing

/// A week of cron, in process with an injected clock: `refresh` every 15 minutes and `tick` every
/// minute, from Thursday 29 October to Wednesday 4 November 2026 in Los Angeles — across the
/// fall-back change — with quiet hours, a daily cap, a smart alert and a watched route.
@Suite(.ownThreads) struct SimulatedWeekTests {
    @Test func exactDeliveriesSuppressionsAndNoneTwice() throws {
        let directory = TemporaryDirectory()
        let store = try Store(directory: directory.path)
        let la = zone("America/Los_Angeles")
        let start = instant("2026-10-29T00:00:00-07:00")
        let calendar = ZonedCalendar(timeZone: la, around: start, daysBefore: 1, daysAfter: 9)
        // Renton-Auburn (70) usually takes 24 min: +11 on even local days, +2 on odd ones.
        var fixture = try WSDOTFeed.decode(Data(contentsOf: fixtureURL))
        func feed(delayed: Bool) throws -> Data {
            if let index = fixture.firstIndex(where: { $0.id == "70" }) { fixture[index].currentMinutes = delayed ? 35 : 26 }
            return try WSDOTFeed.encode(fixture)
        }
        let delayedFeed = try feed(delayed: true)
        let clearFeed = try feed(delayed: false)
        func isDelayedDay(_ date: Date) -> Bool { calendar.local(date).date.dayNumber % 2 == 0 }

        let setup = Commute(store: store, now: start, timeZone: la)
        _ = try setup.refresh.run(feed: isDelayedDay(start) ? delayedFeed : clearFeed, source: "sim")
        _ = try setup.favorites.addFavorites(["1", "70"])
        let daily = Set(Weekday.allCases)
        let a = try setup.schedules.addSchedule(.init(routeIDs: ["1"], days: daily, time: TimeOfDay(hour: 7, minute: 0))).schedule
        let d = try setup.schedules.addSchedule(.init(routeIDs: ["1"], days: daily, time: TimeOfDay(hour: 7, minute: 5))).schedule
        let e = try setup.schedules.addSchedule(.init(routeIDs: ["1"], days: daily, time: TimeOfDay(hour: 7, minute: 10))).schedule
        let c = try setup.schedules.addSchedule(.init(routeIDs: ["1"], days: daily, time: TimeOfDay(hour: 23, minute: 30))).schedule
        let b = try setup.schedules.addSchedule(.init(routeIDs: ["1"], days: [.sunday], time: TimeOfDay(hour: 1, minute: 30))).schedule
        let f = try setup.schedules.addSchedule(.init(
            routeIDs: ["70"], days: daily, time: TimeOfDay(hour: 6, minute: 30), onlyWhenDelayedBy: 10)).schedule
        try store.updateConfiguration { $0.watches = [DelayWatch(routeID: "70", overMinutes: 10)] }
        let quiet = try QuietHours("23:00-06:00")
        let notifiers = [Notifier(id: 0, kind: .stdout)]

        var delivered: [(id: AlertID, at: Date)] = []
        var watchAlerts: [(title: String, at: Date)] = []
        let minutes = 7 * 1_440 + 60  // the fall-back day has 25 hours
        for minute in 1...minutes {
            let now = start.addingTimeInterval(TimeInterval(minute * 60))
            let commute = Commute(store: store, now: now, timeZone: la)
            if minute % 15 == 0 {
                let result = try commute.refresh.run(feed: isDelayedDay(now) ? delayedFeed : clearFeed, source: "sim")
                _ = try commute.alerts.checkWatches(
                    routes: result.routesByID, notifiers: notifiers, quietHours: quiet,
                    sender: ClosureSender { message, _ in
                        watchAlerts.append((message.title, now))
                        return .delivered
                    })
            }
            let report = try commute.alerts.tick(
                notifiers: notifiers, quietHours: quiet, standardDailyCap: 3,
                sender: ClosureSender { message, _ in
                    delivered.append((message.id, now))
                    return .delivered
                })
            #expect(report.missed.isEmpty, "missed at \(now)")
        }

        func count(_ schedule: Schedule) -> Int { delivered.filter { $0.id.scheduleID == schedule.id }.count }
        let ledger = try store.ledger().entries
        func suppressed(_ schedule: Schedule, _ reason: String) -> Int {
            ledger.filter {
                $0.alert.scheduleID == schedule.id && $0.outcome == .suppressed && ($0.reason ?? "").hasPrefix(reason)
            }.count
        }
        let delayedDays = (0..<7).filter { isDelayedDay(start.addingTimeInterval(TimeInterval($0 * 86_400 + 12 * 3_600))) }.count
        // The smart alert (6:30) goes out on the delayed days only, and then takes one of the three
        // daily slots: 7:00 and 7:05 always go out, 7:10 only on the other days.
        #expect(count(f) == delayedDays)
        #expect(suppressed(f, "not delayed") == 7 - delayedDays)
        #expect(count(a) == 7 && count(d) == 7)
        #expect(count(e) == 7 - delayedDays && suppressed(e, "daily cap of 3") == delayedDays)
        // 23:30 every day, and Sunday's 1:30 (once, though the hour repeats), fall in quiet hours.
        #expect(count(c) == 0 && suppressed(c, "quiet hours") == 7)
        #expect(count(b) == 0 && suppressed(b, "quiet hours") == 1)
        // Nothing was delivered twice.
        let keys = delivered.map { "\($0.id)@\(Int($0.at.timeIntervalSince1970 / 86_400))" }
        #expect(Set(keys).count == keys.count)
        // Route 70 crosses its threshold at each of the 7 local midnights, alternating over and
        // clear — plus an "over" at the first look if it was over then. Each "over" is critical: it
        // goes out at midnight, quiet hours or not. Each clearing is not urgent: at midnight it falls
        // in quiet hours and is held back, and says why in the ledger.
        let delayedNoons: Int = (1...7).filter { (day: Int) -> Bool in
            let noon: TimeInterval = TimeInterval(day * 86_400 + 12 * 3_600)
            return isDelayedDay(start.addingTimeInterval(noon))
        }.count
        let overs: Int = delayedNoons + (isDelayedDay(start) ? 1 : 0)
        #expect(watchAlerts.count == overs, "\(watchAlerts.map(\.title))")
        #expect(watchAlerts.allSatisfy { $0.title.contains("is running") })
        #expect(watchAlerts.allSatisfy { calendar.local($0.at).hour == 0 || $0.at == watchAlerts[0].at })
        let heldClears = ledger.filter { $0.alert == .watch(routeID: "70", .clear) && $0.outcome == .suppressed }
        // Seven midnight crossings in all: those that were not "over" were clearings.
        #expect(heldClears.count == 7 - (overs - (isDelayedDay(start) ? 1 : 0)), "\(heldClears.count)")
        #expect(heldClears.allSatisfy { $0.reason?.hasPrefix("quiet hours") == true })
    }
}
