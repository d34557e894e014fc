@_spi(Store) import CommuteCore
import Foundation
import TestThreads
import Testing

@Suite(.ownThreads) struct FanOutTests {
    let la = "America/Los_Angeles"
    let now = instant("2025-11-04T16:00:00-08:00")  // a Tuesday
    var calendar: ZonedCalendar { ZonedCalendar(timeZone: zone(la), around: now) }
    let routes: [RouteID: Route] = [
        "1": route("1", "Everett-Seattle", current: 49, average: 30),
        "96": route("96", "Seattle-Bellevue via 90", current: 14, average: 15),
        "39": route("39", "Everett-Seattle EL", current: 0, average: 0),
    ]

    func schedule(_ id: Int, days: Set<Weekday>, at hour: Int, _ minute: Int = 0, routes: [RouteID] = ["1"], created: Int = 0) -> Schedule {
        Schedule(
            id: UUID(uuidString: String(format: "00000000-0000-0000-0000-%012d", id)) ?? UUID(), routeIDs: routes,
            days: days, hour: hour, minute: minute, createdAt: Date(timeIntervalSince1970: TimeInterval(created)))
    }

    @Test func oneRequestPerSelectedWeekdayWithStructuredIdentifiers() {
        let morning = schedule(1, days: Weekday.weekdays, at: 7)
        let plan = FanOut.plan(schedules: [morning], routes: routes, now: now, calendar: calendar, cap: 64)
        #expect(plan.requested == 5)
        #expect(plan.deferred.isEmpty)
        #expect(plan.scheduled.map(\.request.id.description) == [4, 5, 6, 2, 3].map {
            "schedule.00000000-0000-0000-0000-000000000001.weekday.\($0)"
        })
        #expect(plan.scheduled.map { TimeFormatting.iso8601($0.request.nextFire, calendar: calendar) } == [
            "2025-11-05T07:00:00-08:00", "2025-11-06T07:00:00-08:00", "2025-11-07T07:00:00-08:00",
            "2025-11-10T07:00:00-08:00", "2025-11-11T07:00:00-08:00",
        ])
    }

    @Test func pausedDaysArePassedOverForTheNextOccurrenceAndTakeNoPlace() throws {
        let morning = schedule(1, days: Weekday.weekdays, at: 7)
        let evening = schedule(2, days: [.wednesday], at: 17, created: 1)
        // Wednesday 5 and Thursday 6 November for every schedule; 7 to 21 November for the morning
        // one: each weekday's next alert is the first day no pause covers (Mon 24 … Fri 28).
        let pauses = Pauses([
            Pause(number: 1, from: CivilDate(year: 2025, month: 11, day: 5), until: CivilDate(year: 2025, month: 11, day: 6)),
            Pause(number: 2, from: CivilDate(year: 2025, month: 11, day: 7), until: CivilDate(year: 2025, month: 11, day: 21), scheduleID: morning.id),
        ])
        let plan = FanOut.plan(schedules: [morning, evening], routes: routes, now: now, calendar: calendar, cap: 4, pauses: pauses)
        let fires = plan.scheduled.map { TimeFormatting.iso8601($0.request.nextFire, calendar: calendar) }
        #expect(fires == ["2025-11-12T17:00:00-08:00", "2025-11-24T07:00:00-08:00", "2025-11-25T07:00:00-08:00", "2025-11-26T07:00:00-08:00"])
        let deferred = plan.deferred.map { TimeFormatting.iso8601($0.nextFire, calendar: calendar) }
        #expect(deferred == ["2025-11-27T07:00:00-08:00", "2025-11-28T07:00:00-08:00"])
        // A due occurrence on a paused day is not kept for delivery.
        let due = DueOccurrences(
            grace: 600, since: [AlertID.schedule(morning.id, .wednesday, headsUp: false): now.addingTimeInterval(-86_400)],
            finished: [:])
        let atSeven = instant("2025-11-05T07:05:00-08:00")
        let duePlan = FanOut.plan(
            schedules: [morning], routes: routes, now: atSeven, calendar: ZonedCalendar(timeZone: zone(la), around: atSeven), cap: 64,
            due: due, pauses: pauses)
        #expect(!duePlan.scheduled.contains { $0.request.nextFire <= atSeven })
        let unpaused = FanOut.plan(
            schedules: [morning], routes: routes, now: atSeven, calendar: ZonedCalendar(timeZone: zone(la), around: atSeven), cap: 64,
            due: due)
        #expect(unpaused.scheduled.first?.request.nextFire == instant("2025-11-05T07:00:00-08:00"), "without the pause it is kept")
        // The longest pause puts the next fire two years off: still exact, still in order.
        let long = Pauses([Pause(number: 1, from: CivilDate(year: 2025, month: 11, day: 4), until: CivilDate(year: 2027, month: 11, day: 3))])
        let far = FanOut.plan(schedules: [morning, evening], routes: routes, now: now, calendar: calendar, cap: 64, pauses: long)
        #expect(far.scheduled.map { TimeFormatting.iso8601($0.request.nextFire, calendar: calendar) }.prefix(3) == [
            "2027-11-04T07:00:00-07:00", "2027-11-05T07:00:00-07:00", "2027-11-08T07:00:00-08:00",
        ])
    }

    @Test func disabledSchedulesRequestNothing() {
        var off = schedule(1, days: Weekday.weekdays, at: 7)
        off.isEnabled = false
        let plan = FanOut.plan(schedules: [off], routes: routes, now: now, calendar: calendar, cap: 64)
        #expect(plan.requested == 0 && plan.scheduled.isEmpty && plan.deferred.isEmpty)
    }

    @Test func capKeepsTheSoonestAndDefersTheRestInOrder() {
        // 10 daily schedules = 70 requests over a cap of 64.
        let schedules = (1...10).map { schedule($0, days: Set(Weekday.allCases), at: 6 + $0, created: $0) }
        let plan = FanOut.plan(schedules: schedules, routes: routes, now: now, calendar: calendar, cap: 64)
        #expect(plan.requested == 70)
        #expect(plan.scheduled.count == 64)
        #expect(plan.deferred.count == 6)
        let fires = plan.scheduled.map(\.request.nextFire) + plan.deferred.map(\.nextFire)
        #expect(fires == fires.sorted())
        #expect(plan.scheduled.last.map { $0.request.nextFire <= plan.deferred[0].nextFire } == true)
        // The latest fires are the deferred: next Tuesday's 4 PM and later.
        #expect(plan.deferred.map { calendar.local($0.nextFire).weekday } == Array(repeating: .tuesday, count: 6))
    }

    @Test func tiesGoToTheOlderScheduleThenTheLowerWeekday() {
        let newer = schedule(1, days: [.wednesday], at: 7, created: 200)
        let older = schedule(2, days: [.wednesday], at: 7, created: 100)
        let plan = FanOut.plan(schedules: [newer, older], routes: routes, now: now, calendar: calendar, cap: 1)
        #expect(plan.scheduled.map(\.request.scheduleID) == [older.id])
        #expect(plan.deferred.map(\.scheduleID) == [newer.id])

        // Same instant, different weekday number: at 3:00 on a spring-forward Sunday, 2:30 Sunday
        // and 3:00 Sunday coincide.
        let springNow = instant("2026-03-07T12:00:00-08:00")
        let springCalendar = ZonedCalendar(timeZone: zone(la), around: springNow)
        let gap = schedule(3, days: [.sunday], at: 2, 30, created: 1)
        let after = schedule(4, days: [.sunday], at: 3, 0, created: 1)
        let spring = FanOut.plan(schedules: [after, gap], routes: routes, now: springNow, calendar: springCalendar, cap: 2)
        #expect(spring.scheduled[0].request.nextFire == spring.scheduled[1].request.nextFire)
        let byID: [UUID] = [gap.id, after.id].sorted { (first: UUID, second: UUID) -> Bool in first.uuidString < second.uuidString }
        #expect(spring.scheduled.map(\.request.scheduleID) == byID)
    }

    @Test func capOfZeroDefersEverything() {
        let plan = FanOut.plan(schedules: [schedule(1, days: Weekday.weekend, at: 9)], routes: routes, now: now, calendar: calendar, cap: 0)
        #expect(plan.scheduled.isEmpty)
        #expect(plan.deferred.count == 2)
    }

    @Test func contentListsEveryRouteInOrderWithStatusAndNeverDropsOne() {
        let mixed = schedule(1, days: [.tuesday], at: 16, 30, routes: ["1", "96", "39", "999"])
        let plan = FanOut.plan(schedules: [mixed], routes: routes, now: now, calendar: calendar, cap: 64)
        let content = plan.scheduled[0].content
        #expect(content.title == "Commute at 4:30 PM (Tue)")
        #expect(content.body == """
            Everett-Seattle: 49 min (+19 min, CONGESTED)
            Seattle-Bellevue via 90: 14 min (-1 min, CLEAR)
            Everett-Seattle EL: no data (NO DATA)
            Route 999: unavailable (not in the latest feed)
            """)
    }

    @Test func contentSaysHowOldTheDataWillBeWhenOverAnHour() {
        let tomorrow = schedule(1, days: [.wednesday], at: 7)
        let plan = FanOut.plan(schedules: [tomorrow], routes: routes, now: now, calendar: calendar, cap: 64)
        #expect(plan.scheduled[0].content.body.hasSuffix("\nData is 15 h old (updated Tue, Nov 4, 4:00 PM)"))
        let soon = schedule(2, days: [.tuesday], at: 16, 30)
        let fresh = FanOut.plan(schedules: [soon], routes: routes, now: now, calendar: calendar, cap: 64)
        #expect(!fresh.scheduled[0].content.body.contains("old"))
    }

    @Test func thePlanIsAPureFunctionOfItsInputs() {
        let schedules = (1...12).map { schedule($0, days: Set(Weekday.allCases), at: $0, created: $0 % 3) }
        let first = FanOut.plan(schedules: schedules, routes: routes, now: now, calendar: calendar, cap: 64)
        let second = FanOut.plan(schedules: schedules.reversed(), routes: routes, now: now, calendar: calendar, cap: 64)
        #expect(first == second)
    }
}
