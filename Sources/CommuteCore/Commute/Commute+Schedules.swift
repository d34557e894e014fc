import Foundation

extension Commute {
    /// The fields of a new schedule, or the changes to one: nil means "not given".
    public struct ScheduleDraft: Sendable, Equatable {
        public var routeIDs: [String]?
        public var days: Set<Weekday>?
        public var time: TimeOfDay?
        public var isEnabled: Bool?
        /// `.some(nil)` clears the threshold.
        public var onlyWhenDelayedBy: Int??
        /// `.some(nil)` makes it a fixed time; `.some(x)` an arrive-by schedule.
        public var arriveBy: Schedule.ArriveBy??

        public init(
            routeIDs: [String]? = nil, days: Set<Weekday>? = nil, time: TimeOfDay? = nil, isEnabled: Bool? = nil,
            onlyWhenDelayedBy: Int?? = nil
        ) {
            self.routeIDs = routeIDs
            self.days = days
            self.time = time
            self.isEnabled = isEnabled
            self.onlyWhenDelayedBy = onlyWhenDelayedBy
        }

        public var isEmpty: Bool { self == ScheduleDraft() }
    }

    /// Adds a schedule. With no routes given, it takes every favourite, in favourites order; with no
    /// days or time, Monday–Friday at 7:00 AM (the morning preset). When no zone is saved yet, the
    /// zone this runs in is saved: the schedules live in it from now on, whatever `TZ` cron has.
    public func addSchedule(_ draft: ScheduleDraft, id: UUID = UUID()) throws -> (Schedule, RescheduleSummary) {
        let (schedule, summary, _) = try addScheduleSavingZone(draft, id: id)
        return (schedule, summary)
    }

    /// The same, saying whether it saved the zone.
    public func addScheduleSavingZone(
        _ draft: ScheduleDraft, id: UUID = UUID()
    ) throws -> (Schedule, RescheduleSummary, savedZone: Bool) {
        let schedule = try store.updateSchedules(checkingFavorites: { favorites, book in
            let time = draft.time ?? Schedule.Preset.morning.time
            let schedule = Schedule(
                id: id, routeIDs: draft.routeIDs ?? favorites.routeIDs, days: draft.days ?? Schedule.Preset.morning.days,
                hour: time.hour, minute: time.minute, isEnabled: draft.isEnabled ?? true, createdAt: now,
                onlyWhenDelayedBy: draft.onlyWhenDelayedBy ?? nil, arriveBy: draft.arriveBy ?? nil)
            try Self.check(schedule, favorites: favorites)
            book.schedules.append(schedule)
            return schedule
        })
        let savedZone = try store.updateConfiguration { configuration -> Bool in
            guard configuration.timeZone == nil else { return false }
            configuration.timeZone = timeZone.identifier
            return true
        }
        return (schedule, try reschedule(), savedZone)
    }

    /// Changes the given fields of the schedule whose ID starts with `prefix`.
    public func editSchedule(_ prefix: String, _ draft: ScheduleDraft) throws -> (before: Schedule, after: Schedule, RescheduleSummary) {
        let (before, after) = try store.updateSchedules(checkingFavorites: { favorites, book in
            let before = try Self.find(prefix, in: book.schedules)
            var after = before
            if let routeIDs = draft.routeIDs { after.routeIDs = routeIDs }
            if let days = draft.days { after.days = days }
            if let time = draft.time {
                after.hour = time.hour
                after.minute = time.minute
            }
            if let isEnabled = draft.isEnabled { after.isEnabled = isEnabled }
            if let threshold = draft.onlyWhenDelayedBy { after.onlyWhenDelayedBy = threshold }
            if let arriveBy = draft.arriveBy { after.arriveBy = arriveBy }
            // Routes a cascade could not have left behind are checked only when they change.
            try Self.check(after, favorites: favorites, checkRoutes: draft.routeIDs != nil)
            if let index = book.schedules.firstIndex(where: { $0.id == before.id }) { book.schedules[index] = after }
            return (before, after)
        })
        return (before, after, try reschedule())
    }

    /// Deletes the schedule whose ID starts with `prefix`; its pending triggers go with it.
    public func removeSchedule(_ prefix: String) throws -> (Schedule, RescheduleSummary) {
        let removed = try store.updateSchedules { book in
            let schedule = try Self.find(prefix, in: book.schedules)
            book.schedules.removeAll { $0.id == schedule.id }
            // Its pauses go with it.
            book.pauses?.removeAll { $0.scheduleID == schedule.id }
            if book.pauses?.isEmpty == true { book.pauses = nil }
            return schedule
        }
        return (removed, try reschedule())
    }

    static func check(_ schedule: Schedule, favorites: Favorites, checkRoutes: Bool = true) throws {
        try schedule.validate()
        guard checkRoutes else { return }
        var seen = Set<String>()
        for id in schedule.routeIDs {
            guard favorites.routeIDs.contains(id) else { throw ModelError.notFavorite(id) }
            guard seen.insert(id).inserted else { throw CommuteError.duplicateRoute(id) }
        }
    }
}
