@_spi(Store) import CommuteHistory
import CommuteModel
import FoundationEssentials
import Synchronization
@_spi(Store) import CommuteSources
@_spi(Store) import CommuteStore

extension History {
    /// How an arrive-by schedule fares on each of its ways, weekday by weekday, over the recorded
    /// days: the leave time a plan makes from history (the median, or the schedule's `--on-time`
    /// share) and how often leaving then arrived on time.
    public struct ScheduleReliability: Sendable, Equatable {
        public struct Outcome: Sendable, Equatable {
            public var weekday: Weekday
            /// The leave time planned from the recorded days; nil with too few.
            public var planned: PlannedDeparture?
            /// How leaving at it fared; nil with too few days to plan.
            public var reliability: Reliability?
            /// The days with a reading near a departure the plan looked at.
            public var recordedDays: Int
        }

        public struct Way: Sendable, Equatable {
            public var routeID: RouteID
            public var name: String
            /// The schedule's weekdays, Monday first.
            public var outcomes: [Outcome]

            /// Every weekday together: the days on time, of the recorded days behind them.
            public var recorded: (onTime: Int, days: Int) {
                let figures = outcomes.compactMap(\.reliability)
                return (figures.map(\.onTime).reduce(0, +), figures.map(\.days.count).reduce(0, +))
            }

            /// The weekday whose leave time arrived on time least often (enough days behind it);
            /// on a tie, the one late by the most.
            public var worst: Outcome? {
                outcomes.filter { $0.reliability?.isEnough == true }.min { lhs, rhs in
                    let (left, right) = (lhs.reliability?.share ?? 1, rhs.reliability?.share ?? 1)
                    return left != right ? left < right : (lhs.reliability?.latestLate ?? 0) > (rhs.reliability?.latestLate ?? 0)
                }
            }
        }

        public var schedule: Schedule
        public var arrival: TimeOfDay
        public var buffer: Int
        /// The schedule's `--on-time` share; nil plans on the median.
        public var percent: Int?
        public var ways: [Way]
    }

    /// Every enabled arrive-by schedule's reliability, or the one `prefix` names (which must
    /// arrive by a time). Its ways are its routes and the other ways of any commute they are in.
    public func reliability(of prefix: String?) throws -> [ScheduleReliability] {
        let schedules: [Schedule]
        if let prefix {
            let schedule = try commute.schedule(matching: prefix)
            guard case .arriveBy = schedule.timing else { throw CommuteError.notArriveBy(schedule.id.shortForm) }
            schedules = [schedule]
        } else {
            schedules = try store.schedules().schedules.filter { schedule in
                if case .arriveBy = schedule.timing { schedule.isEnabled } else { false }
            }
        }
        let commutes = try store.favorites().commutes
        let today = calendar.localDay(of: ZonedCalendar.seconds(now))
        // Each schedule's ways: its routes, then the other ways of the commutes they are in.
        let plans = try schedules.map { schedule -> (schedule: Schedule, buffer: Int, ways: [RouteID]) in
            guard case .arriveBy(let buffer, _) = schedule.timing else { throw CommuteError.notArriveBy(schedule.id.shortForm) }
            var ways: [RouteID] = []
            for id in schedule.routeIDs + commutes.filter({ !Set($0.routeIDs).isDisjoint(with: schedule.routeIDs) }).flatMap(\.routeIDs)
            where !ways.contains(id) {
                ways.append(id)
            }
            return (schedule, buffer, ways)
        }
        // Every way is its own work (a year of readings): the cores share it, a route each, every
        // schedule on it at once, while this thread first reads the routes' names; what is needed
        // is copied out, and a history's pages go back when its work is done.
        let ways = Array(Set(plans.flatMap(\.ways))).sorted { $0.rawValue < $1.rawValue }
        let histories = store.history
        let results = Mutex<[RouteID: Result<[Int: [ScheduleReliability.Outcome]], StoreError>]>([:])
        let calendar = calendar
        let routes = try concurrently(ways.count, meanwhile: { try store.routes(withIDs: Set(ways)) }) { task in
            // Opened here, not before: a file's first page read maps in much of it.
            let contents: HistoryFile.Contents
            do throws(StoreError) {
                contents = try histories.contents(of: ways[task])
            } catch {
                results.withLock { $0[ways[task]] = .failure(error) }
                return
            }
            var byPlan: [Int: [ScheduleReliability.Outcome]] = [:]
            for (index, plan) in plans.enumerated() where plan.ways.contains(ways[task]) {
                byPlan[index] = Weekday.mondayFirst.filter(plan.schedule.days.contains).map { weekday in
                    Self.outcome(
                        contents, weekday: weekday, arrival: plan.schedule.hour * 60 + plan.schedule.minute, buffer: plan.buffer,
                        percent: plan.schedule.onTimePercent, before: today, calendar: calendar)
                }
            }
            contents.releasePages()
            results.withLock { $0[ways[task]] = .success(byPlan) }
        }
        // A history that cannot be read fails the command, the first route's in order.
        let read = results.withLock { $0 }
        var outcomes: [RouteID: [Int: [ScheduleReliability.Outcome]]] = [:]
        for id in ways { outcomes[id] = try read[id]?.get() }
        return plans.indices.map { index in
            let plan = plans[index]
            return ScheduleReliability(
                schedule: plan.schedule, arrival: plan.schedule.time, buffer: plan.buffer, percent: plan.schedule.onTimePercent,
                ways: plan.ways.map { id in
                    ScheduleReliability.Way(routeID: id, name: routes[id]?.name ?? "Route \(id)", outcomes: outcomes[id]?[index] ?? [])
                })
        }
    }

    /// A weekday's planned departure, and how leaving at it fared.
    static func outcome(
        _ contents: HistoryFile.Contents, weekday: Weekday, arrival: Int, buffer: Int, percent: Int?, before today: Int, calendar: ZonedCalendar
    ) -> ScheduleReliability.Outcome {
        let latest = arrival - buffer - 1
        let earliest = max(0, arrival - buffer - DepartureTimes.span)
        guard latest >= earliest else { return ScheduleReliability.Outcome(weekday: weekday, planned: nil, reliability: nil, recordedDays: 0) }
        let days = DepartureDays(contents, weekday: weekday, departures: earliest...latest, before: today, calendar: calendar)
        var cursors = days.cursors
        let planned = PlannedDeparture.plan(arrival: arrival, buffer: buffer, percent: percent, fastest: days.fastest) { leave, minutes in
            days.minutes(leavingAt: leave, into: &minutes, cursors: &cursors)
        }
        let reliability = planned.map { Reliability(weekday: weekday, leave: $0.leave, arrival: arrival, times: days.times(leavingAt: $0.leave)) }
        return ScheduleReliability.Outcome(weekday: weekday, planned: planned, reliability: reliability, recordedDays: days.days.count)
    }

    /// What `LeaveTime` asks of an `--on-time` schedule: the departure its route's recorded days
    /// give for the arrival's weekday, and when that falls on the arrival's day.
    public var onTimeLookup: LeaveTime.OnTimeLookup {
        { routeID, arrival, buffer, percent in
            guard let contents = try? store.history.contents(of: routeID) else { return nil }
            let local = calendar.local(arrival)
            let minute = local.hour * 60 + local.minute
            let outcome = Self.outcome(
                contents, weekday: local.weekday, arrival: minute, buffer: buffer, percent: percent,
                before: calendar.localDay(of: ZonedCalendar.seconds(now)), calendar: calendar)
            let leave = outcome.planned.map { arrival.addingTimeInterval(-TimeInterval((minute - $0.leave) * 60)) }
            return (leave, LeaveTime.OnTime(percent: percent, planned: outcome.planned, days: outcome.recordedDays))
        }
    }
}
