import CommuteDelivery
import CommuteModel
import FoundationEssentials
@_spi(Store) import CommuteStore
@_spi(Store) import CommuteHistory
@_spi(Store) import CommuteSources

extension Schedules {
    /// The fields of a new schedule, or the changes to one: nil means "not given".
    public struct ScheduleDraft: Sendable, Equatable {
        public var routeIDs: [RouteID]?
        public var days: Set<Weekday>?
        public var time: TimeOfDay?
        public var isEnabled: Bool?
        /// `.some(nil)` clears the threshold.
        public var onlyWhenDelayedBy: Int??
        /// With `onlyWhenDelayedBy`: whether it is `auto` (see `Schedule.onlyWhenAboveUsual`).
        public var onlyWhenAboveUsual: Bool?
        /// `.at` makes it a fixed time; `.arriveBy` an arrive-by schedule.
        public var timing: Schedule.Timing?
        /// The notifiers it sends to, by name; `.some(nil)` sends to every one again.
        public var notify: [String]??
        /// `--on-time P%`; `.some(nil)` plans on today's times again.
        public var onTimePercent: Int??

        public init(
            routeIDs: [RouteID]? = nil, days: Set<Weekday>? = nil, time: TimeOfDay? = nil, isEnabled: Bool? = nil,
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

    /// Adds a schedule. With no routes given, it takes every favorite, in favorites order; with no
    /// days or time, Monday–Friday at 7:00 AM (the morning preset). When no zone is saved yet, the
    /// zone this runs in is saved: the schedules live in it from now on, whatever `TZ` cron has.
    public func addSchedule(_ draft: ScheduleDraft, id: UUID = UUID()) throws -> AddedSchedule {
        try namingUnknownRoutes { try addAndSaveZone(draft, id: id) }
    }

    /// What adding a schedule did.
    public struct AddedSchedule: Sendable {
        public var schedule: Schedule
        public var summary: Commute.RescheduleSummary
        /// Whether it saved the zone (the first schedule).
        public var savedZone: Bool
        /// Why it may not do what its owner expects: a copy of another, alerts inside quiet hours.
        public var warnings: [ScheduleWarning]
    }

    private func addAndSaveZone(_ draft: ScheduleDraft, id: UUID) throws -> AddedSchedule {
        // The zone is saved last, under the configuration lock taken first (the store's order):
        // an unreadable configuration fails the command before anything is written.
        try store.updateConfiguration { configuration in
            var warnings: [ScheduleWarning] = []
            let added = try commute.changeSchedules { favorites, book in
                let time = draft.time ?? Schedule.Preset.morning.time
                var schedule = Schedule(
                    id: id, routeIDs: draft.routeIDs ?? favorites.routeIDs, days: draft.days ?? Schedule.Preset.morning.days,
                    hour: time.hour, minute: time.minute, isEnabled: draft.isEnabled ?? true, createdAt: now,
                    onlyWhenDelayedBy: draft.onlyWhenDelayedBy ?? nil, onlyWhenAboveUsual: draft.onlyWhenAboveUsual == true ? true : nil,
                    timing: draft.timing ?? .at, notify: draft.notify ?? nil)
                schedule.onTimePercent = draft.onTimePercent ?? nil
                try Self.check(schedule, favorites: favorites)
                try Self.checkNotifierNames(schedule.notify, in: configuration)
                warnings = Self.warnings(for: schedule, among: book.schedules, quietHours: configuration.quietHours)
                book.schedules.append(schedule)
                return schedule
            }
            guard configuration.timeZone == nil else {
                return AddedSchedule(schedule: added.change, summary: added.summary, savedZone: false, warnings: warnings)
            }
            configuration.timeZone = timeZone.identifier
            return AddedSchedule(schedule: added.change, summary: added.summary, savedZone: true, warnings: warnings)
        }
    }

    /// Why a schedule may not do what its owner expects.
    public enum ScheduleWarning: Sendable, Equatable {
        /// Another schedule sends the very same alerts: each would be sent twice.
        case duplicate(of: Schedule)
        /// Its alerts fall inside quiet hours every day, so `tick` holds every one of them back.
        case insideQuietHours(QuietHours)
    }

    /// What to warn about `schedule` among the `others` (itself left out): an exact copy (same
    /// routes in any order, days, time, kind, threshold), and a time inside quiet hours — for
    /// arrive-by, the latest it can tell you to leave (the arrival less the buffer), so that every
    /// leave alert falls inside.
    public static func warnings(for schedule: Schedule, among others: [Schedule], quietHours: QuietHours?) -> [ScheduleWarning] {
        var warnings: [ScheduleWarning] = []
        if let copy = others.first(where: { $0.id != schedule.id && $0.isEnabled && $0.sendsTheSameAlerts(as: schedule) }) {
            warnings.append(.duplicate(of: copy))
        }
        if let quietHours, schedule.isEnabled, quietHours.contains(schedule.latestAlertTime) {
            warnings.append(.insideQuietHours(quietHours))
        }
        return warnings
    }

    /// The warnings for every schedule, in order: what `doctor` reports.
    public static func warnings(for schedules: [Schedule], quietHours: QuietHours?) -> [(Schedule, [ScheduleWarning])] {
        var seen: [Schedule] = []
        var result: [(Schedule, [ScheduleWarning])] = []
        for schedule in schedules {
            // A copy is reported once, against the first of its kind.
            var warnings = warnings(for: schedule, among: seen, quietHours: quietHours)
            if !schedule.isEnabled { warnings = [] }
            if !warnings.isEmpty { result.append((schedule, warnings)) }
            seen.append(schedule)
        }
        return result
    }

    /// What editing a schedule did.
    public struct EditedSchedule: Sendable {
        public var before: Schedule
        public var after: Schedule
        public var summary: Commute.RescheduleSummary
        /// Why it may not do what its owner expects, now: see `AddedSchedule.warnings`.
        public var warnings: [ScheduleWarning]
    }

    /// Changes the given fields of the schedule whose ID starts with `prefix`.
    public func editSchedule(_ prefix: String, _ draft: ScheduleDraft) throws -> EditedSchedule {
        let edit = try namingUnknownRoutes {
            try commute.changeSchedules { favorites, book -> Edit in
                let before = try Commute.find(prefix, in: book.schedules)
                var after = before
                if let routeIDs = draft.routeIDs { after.routeIDs = routeIDs }
                if let days = draft.days { after.days = days }
                if let time = draft.time {
                    after.hour = time.hour
                    after.minute = time.minute
                }
                if let isEnabled = draft.isEnabled { after.isEnabled = isEnabled }
                if let threshold = draft.onlyWhenDelayedBy {
                    after.onlyWhenDelayedBy = threshold
                    after.onlyWhenAboveUsual = draft.onlyWhenAboveUsual == true && threshold != nil ? true : nil
                }
                if let timing = draft.timing { after.timing = timing }
                if let percent = draft.onTimePercent { after.onTimePercent = percent }
                // A schedule made to alert at a time has no arrival to be on time for.
                if case .at = after.timing { after.onTimePercent = nil }
                if let notify = draft.notify {
                    try Self.checkNotifierNames(notify, in: configuration)
                    after.notify = notify
                }
                // Routes a cascade could not have left behind are checked only when they change.
                try Self.check(after, favorites: favorites, checkRoutes: draft.routeIDs != nil)
                if let index = book.schedules.firstIndex(where: { $0.id == before.id }) { book.schedules[index] = after }
                let warnings = Self.warnings(for: after, among: book.schedules, quietHours: configuration.quietHours)
                return Edit(before: before, after: after, warnings: warnings)
            }
        }
        return EditedSchedule(before: edit.change.before, after: edit.change.after, summary: edit.summary, warnings: edit.change.warnings)
    }

    private struct Edit: Sendable {
        var before: Schedule
        var after: Schedule
        var warnings: [ScheduleWarning]
    }

    /// A route that is not a favorite because no such route exists is said to be unknown: the
    /// advice to favorite it would only fail next.
    private func namingUnknownRoutes<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch ModelError.notFavorite(let id) {
            let known = ((try? store.routes().byID[id]) ?? nil) != nil
            throw known ? ModelError.notFavorite(id) : ModelError.unknownRoute(id)
        }
    }

    /// A schedule's next alert after now: nil when it is disabled.
    public enum NextAlert: Sendable {
        /// A fixed-time schedule's.
        case at(Date)
        /// An arrive-by schedule's: when to leave for its next arrival, on the routes' times now.
        case leave(LeaveTime)
    }

    /// When `schedule` next alerts, on the route cache as it is.
    public func nextAlert(for schedule: Schedule) throws -> NextAlert? {
        guard schedule.isEnabled else { return nil }
        let next = schedule.days.map { calendar.nextFire(weekday: $0, hour: schedule.hour, minute: schedule.minute, after: now) }.min()
        guard let next else { return nil }
        switch schedule.timing {
        case .at: return .at(next)
        case .arriveBy: return .leave(LeaveTime.compute(for: schedule, routes: try store.routes().byID, arrival: next, typical: commute.history.typicalLookup, freeFlowMargin: configuration.freeFlowMarginInForce,
            onTime: commute.history.onTimeLookup))
        }
    }

    /// Deletes the schedule whose ID starts with `prefix`; its pending triggers go with it.
    public func removeSchedule(_ prefix: String) throws -> Commute.Replanned<Schedule> {
        try commute.changeSchedules { _, book in
            let schedule = try Commute.find(prefix, in: book.schedules)
            book.schedules.removeAll { $0.id == schedule.id }
            // Its pauses go with it.
            book.pauses?.removeAll { $0.scheduleID == schedule.id }
            if book.pauses?.isEmpty == true { book.pauses = nil }
            return schedule
        }
    }

    /// Each name is a notifier's.
    static func checkNotifierNames(_ names: [String]?, in configuration: Configuration) throws {
        let known = Set((configuration.notifiers ?? []).compactMap { $0.name?.lowercased() })
        for name in names ?? [] where !known.contains(name.lowercased()) { throw CommuteError.unknownNotifier(name) }
    }

    static func check(_ schedule: Schedule, favorites: Favorites, checkRoutes: Bool = true) throws {
        try schedule.validate()
        guard checkRoutes else { return }
        var seen = Set<RouteID>()
        for id in schedule.routeIDs {
            guard favorites.routeIDs.contains(id) else { throw ModelError.notFavorite(id) }
            guard seen.insert(id).inserted else { throw CommuteError.duplicateRoute(id) }
        }
    }
}
