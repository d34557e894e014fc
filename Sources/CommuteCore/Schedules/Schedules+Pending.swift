import CommuteModel
import FoundationEssentials
@_spi(Store) import CommuteStore
@_spi(Store) import CommuteSources

extension Schedules {
    /// One row of `pending`.
    public struct PendingItem: Sendable, Equatable {
        public var request: TriggerRequest
        /// What it says; for a deferred request, only when asked for.
        public var content: AlertContent?
    }

    /// The pending triggers as they are stored, soonest first, with each next fire recomputed for
    /// *now* (a weekly trigger that fired since the plan fires again a week on) — except a due
    /// occurrence inside the grace window, which stays at its time until `tick` deals with it.
    public struct PendingReport: Sendable, Equatable {
        public var cap: Int
        public var requested: Int
        public var plannedAt: Date?
        public var requests: [PendingItem]
        /// Every deferred request, or the soonest few (`DeferredDetail`).
        public var deferred: [PendingItem]
        /// How many are deferred, listed or not.
        public var deferredCount: Int
        /// The pauses in force (those that have not ended).
        public var pauses: [Pause] = []
    }

    /// An entry's words with its data's age as of `moment` (when it would fire), not as of the fire
    /// the plan was made for: the age line the plan wrote is the last, and is recomputed.
    func bodyAged(_ entry: PendingBook.Entry, firingAt moment: Date) -> String {
        let body = entry.body ?? ""
        guard moment != entry.nextFire, let dataAsOf = entry.dataAsOf else { return body }
        var lines = body.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if let planned = AlertComposer.ageLine(dataAsOf, at: entry.nextFire, calendar: calendar), lines.last == planned {
            lines.removeLast()
        }
        if let aged = AlertComposer.ageLine(dataAsOf, at: moment, calendar: calendar) { lines.append(aged) }
        return lines.joined(separator: "\n")
    }

    /// How the deferred requests are reported.
    public enum DeferredDetail: Sendable, Equatable {
        /// Every one, with the content it would have, rendered from the cache.
        case everyWithContent
        /// The soonest `count`, without content: nothing but the pending file is read, and of its
        /// deferred requests (nearly all of it at scale) no more than that when the plan is current.
        case soonest(Int)
    }

    public func pendingReport(deferred detail: DeferredDetail = .everyWithContent) throws -> PendingReport {
        let reading: PendingBook.DeferredReading
        switch detail {
        case .everyWithContent: reading = .all
        case .soonest(let count): reading = .first(count)
        }
        var book = try store.pending(deferred: reading)
        // A plan older than the schedules (a command died in between) is made again first.
        if !store.planIsCurrent(book) {
            try commute.reschedule()
            book = try store.pending(deferred: reading)
        }
        let sameZone = book.timeZone == timeZone.identifier
        // Calendar departures' schedules, read only when an arrival has passed since the plan.
        var events: Set<UUID>?
        func eventIDs() -> Set<UUID> {
            if let events { return events }
            let found = Set(commute.calendars.departureSchedules().map(\.id))
            events = found
            return found
        }
        func refreshed(_ entry: PendingBook.Entry) -> TriggerRequest {
            var request = entry.request
            // Arrive-by: the leave time stands until its arrival; a plan older than that moves on
            // to the next arrival, the leave time keeping its distance from it.
            if let arrival = request.arrival {
                // A calendar event's departure has one arrival: the next plan drops it.
                guard arrival <= now, !request.isOnce, !eventIDs().contains(request.scheduleID) else { return request }
                let next = calendar.nextFire(weekday: request.weekday, hour: request.hour, minute: request.minute, after: now)
                request.nextFire = next.addingTimeInterval(request.nextFire.timeIntervalSince(arrival))
                request.arrival = next
                return request
            }
            // Planned in this zone and still ahead: nothing has fired since the plan, so it is
            // still the next fire. Just past, inside the grace window: due, and it stays until
            // tick deals with it.
            if sameZone, request.nextFire > now || now.timeIntervalSince(request.nextFire) <= grace { return request }
            request.nextFire = calendar.nextFire(
                weekday: request.weekday, hour: request.hour, minute: request.minute, after: now)
            // Past paused days, as the plan would have it.
            while let pauses = book.pauses, pauses.contains(where: { $0.covers(request.scheduleID, dayNumber: calendar.local(request.nextFire).date.dayNumber) }) {
                request.nextFire = calendar.nextFire(weekday: request.weekday, hour: request.hour, minute: request.minute, after: request.nextFire)
            }
            return request
        }
        /// Every deferred request: as the plan lists them when it lists all, else worked out.
        func everyDeferred(routes: [RouteID: Route]? = nil) throws -> [PendingBook.Entry] {
            let whole = book.listsEveryDeferred ? book : try store.pending(deferred: .all)
            guard !whole.listsEveryDeferred else { return whole.deferred }
            return Array(try commute.plannedEntries(whole, routes: routes).dropFirst(whole.requests.count))
        }
        // A calendar event whose time has come is no longer pending: `tick` records it as missed.
        let goneBy = book.requests.filter { $0.isOnce && ($0.arrival ?? now) <= now }.count
        let requests = book.requests.filter { !($0.isOnce && ($0.arrival ?? now) <= now) }.map { entry in
            let request = refreshed(entry)
            return PendingItem(
                request: request,
                content: AlertContent(title: entry.title ?? "", body: bodyAged(entry, firingAt: request.nextFire), dataAsOf: entry.dataAsOf))
        }
        let order: (PendingItem, PendingItem) -> Bool = { $0.request.nextFire < $1.request.nextFire }
        var deferred: [PendingItem] = []
        switch detail {
        case .soonest(let count):
            deferred = book.deferred.map { PendingItem(request: refreshed($0), content: nil) }
            // The file lists them soonest first, as planned. When none of those read has moved
            // on since, none after them has either (they fire later still), and these are the
            // soonest; otherwise the order may have changed, and every one is read to find them.
            let moved = zip(book.deferred, deferred).contains { $0.request != $1.request }
            // The plan lists the soonest few deferred requests: when more are asked for, they
            // are worked out from the schedules too.
            let unlisted = deferred.count < count && deferred.count < book.deferredCount
            if moved || unlisted || (deferred.last.map { $0.request.nextFire <= now } ?? false) {
                deferred = try everyDeferred().map { PendingItem(request: refreshed($0), content: nil) }
            }
            deferred = Array(deferred.sorted(by: order).prefix(count))
        case .everyWithContent where !book.deferred.isEmpty:
            let schedules = Dictionary(
                (try store.schedules().schedules + commute.calendars.departureSchedules()).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            let routes = try store.routes().byID
            for entry in try everyDeferred(routes: routes) {
                guard let schedule = schedules[entry.scheduleID] else { continue }
                let request = refreshed(entry)
                let content = AlertComposer.content(
                    for: schedule, routes: routes, firesAt: request.nextFire, calendar: calendar)
                deferred.append(PendingItem(request: request, content: content))
            }
            deferred.sort(by: order)
        case .everyWithContent: break
        }
        let today = self.today
        // `requested` is what was planned: the scheduled and the deferred (from a file, so never
        // trusted to be arithmetic-safe).
        return PendingReport(
            cap: book.cap, requested: book.requested.subtractingReportingOverflow(goneBy).overflow ? book.requested : max(0, book.requested - goneBy),
            plannedAt: book.plannedAt,
            requests: requests.sorted(by: order), deferred: deferred,
            deferredCount: max(deferred.count, book.deferredCount),
            pauses: (book.pauses ?? []).filter { !$0.hasEnded(before: today) })
    }
}
