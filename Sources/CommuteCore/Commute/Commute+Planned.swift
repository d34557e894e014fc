@_spi(Store) import CommuteStore
@_spi(Store) import CommuteSources
import CommuteModel
import FoundationEssentials

extension Commute {
    /// Every request of `pending`: the scheduled ones as planned, and every deferred one. A plan
    /// lists the soonest deferred requests only (`PendingBook.listedDeferred`); the rest are
    /// worked out from the schedules as a plan made now would defer them (without their content).
    /// `routes`, when the caller has them, saves reading the route cache.
    func plannedEntries(_ pending: PendingBook, routes: [RouteID: Route]? = nil) throws -> [PendingBook.Entry] {
        guard !pending.listsEveryDeferred else { return pending.requests + pending.deferred }
        let book = try store.schedules()
        let plan = FanOut.plan(
            schedules: calendars.withDepartures(book.schedules), routes: try routes ?? store.routes().byID, now: now, calendar: calendar, cap: 0,
            pauses: Pauses((book.pauses ?? []) + calendars.skipPauses()), typical: history.typicalLookup,
            freeFlowMargin: configuration.freeFlowMarginInForce, onTime: history.onTimeLookup)
        let scheduled = Set(pending.requests.map(\.id))
        return pending.requests + plan.deferred.lazy.filter { !scheduled.contains($0.id) }.map { PendingBook.Entry($0, content: nil) }
    }
}

extension Calendars {
    /// The schedules with the calendar's departures after them; the same array, not a copy of
    /// 3,000 schedules, when there are none.
    func withDepartures(_ schedules: [Schedule]) -> [Schedule] {
        let departures = departureSchedules()
        return departures.isEmpty ? schedules : schedules + departures
    }
}
