@_spi(Store) import CommuteHistory
import CommuteModel
import FoundationEssentials
@_spi(Store) import CommuteStore
@_spi(Store) import CommuteSources

extension History {
    /// When to leave, from history: for each day asked about, the departure with the least typical
    /// travel that arrives in time on a usual day, and the latest that arrives in time 9 times in 10.
    public struct BestTime: Sendable, Equatable {
        /// One departure: when, by which route, how long it usually takes then (the median, or the
        /// 90th percentile for the safe choice), and how many weeks of readings stand behind it.
        public struct Choice: Sendable, Equatable {
            public var routeID: RouteID
            public var routeName: String
            public var leave: TimeOfDay
            public var minutes: Double
            public var weeks: Int
            public var readings: Int

            /// When it arrives: the departure plus its minutes, to the next whole minute.
            public var arrival: TimeOfDay {
                let total = leave.hour * 60 + leave.minute + Int(minutes.rounded(.up))
                return TimeOfDay(hour: total / 60 % 24, minute: total % 60)
            }
        }

        public struct Day: Sendable, Equatable {
            public var weekday: Weekday
            /// Least typical (median) travel among departures whose median arrives in time.
            public var leastTravel: Choice?
            /// The latest departure whose 90th percentile still arrives in time.
            public var onTime: Choice?
            /// With a share asked for (`--on-time P%`): the latest departure that arrived in time on
            /// that share of the recorded days (its minutes the percentile, its weeks the days).
            public var reliable: Choice?
        }

        public var arriveBy: TimeOfDay
        /// The departures looked at, from `earliest` to `latest`.
        public var earliest: TimeOfDay
        public var latest: TimeOfDay
        public var weeks: Int
        public var days: [Day]
        /// The share `reliable` is planned on, when asked for.
        public var percent: Int?
    }

    /// Departures are tried this often.
    public static let bestTimeStep = 5
    /// Without `--window`, departures from this long before the arrival are tried.
    public static let bestTimeSpan = 180

    /// The best times to leave on `days` to arrive by `arriveBy` over `routeIDs`, from each
    /// route's typical times; a slot with too few readings is never chosen. `window` bounds the
    /// departures (default the three hours before the arrival, never before midnight).
    public func bestTime(
        routeIDs: [RouteID], arriveBy: TimeOfDay, days: Set<Weekday>, window departures: (start: TimeOfDay, end: TimeOfDay)? = nil,
        onTime percent: Int? = nil
    ) throws -> BestTime {
        let routes = try store.routes(withIDs: Set(routeIDs))
        let window = TypicalTimes.window(weeks: typicalWeeks, before: now)
        var weeks: [(id: RouteID, name: String, slots: [TimeSlot: TypicalTime])] = []
        for id in routeIDs {
            let contents = try store.history.contents(of: id)
            guard routes[id] != nil || contents.count > 0 else { throw ModelError.unknownRoute(id) }
            weeks.append((id, routes[id]?.name ?? "Route \(id)", TypicalTimes.week(contents, window: window, calendar: calendar).slots))
        }
        let arrival = arriveBy.hour * 60 + arriveBy.minute
        let start = departures.map { $0.start.hour * 60 + $0.start.minute } ?? max(0, arrival - Self.bestTimeSpan)
        let end = min(arrival - 1, departures.map { $0.end.hour * 60 + $0.end.minute } ?? arrival)
        var result: [BestTime.Day] = []
        for weekday in Weekday.mondayFirst where days.contains(weekday) {
            var day = BestTime.Day(weekday: weekday)
            for leave in stride(from: start, through: end, by: Self.bestTimeStep) {
                let time = TimeOfDay(hour: leave / 60, minute: leave % 60)
                let slot = TimeSlot(weekday: weekday, time: time)
                for route in weeks {
                    guard let typical = route.slots[slot], typical.isEnough else { continue }
                    func choice(_ minutes: Double) -> BestTime.Choice {
                        BestTime.Choice(
                            routeID: route.id, routeName: route.name, leave: time, minutes: minutes, weeks: typical.weeks,
                            readings: typical.readings)
                    }
                    // Least travel; a tie goes to the later departure (less time waiting at the end).
                    if Double(leave) + typical.median <= Double(arrival), typical.median <= day.leastTravel?.minutes ?? .infinity {
                        day.leastTravel = choice(typical.median)
                    }
                    // The latest safe departure; at the same time, the route safer still.
                    if Double(leave) + typical.p90 <= Double(arrival),
                        day.onTime.map({ $0.leave < time || typical.p90 < $0.minutes }) ?? true
                    {
                        day.onTime = choice(typical.p90)
                    }
                }
            }
            if let percent {
                // As `--on-time` plans: every recorded day, the latest minute, the latest route.
                let today = calendar.localDay(of: ZonedCalendar.seconds(now))
                day.reliable = try routeIDs.compactMap { id -> BestTime.Choice? in
                    let outcome = Self.outcome(
                        try store.history.contents(of: id), weekday: weekday, arrival: arrival, buffer: 0, percent: percent, before: today,
                        calendar: calendar)
                    guard let planned = outcome.planned else { return nil }
                    return BestTime.Choice(
                        routeID: id, routeName: weeks.first { $0.id == id }?.name ?? "Route \(id)", leave: TimeOfDay(minuteOfDay: planned.leave),
                        minutes: planned.minutes, weeks: planned.days, readings: planned.days)
                }.max { $0.leave < $1.leave }
            }
            result.append(day)
        }
        return BestTime(
            arriveBy: arriveBy, earliest: TimeOfDay(hour: start / 60, minute: start % 60), latest: TimeOfDay(hour: end / 60, minute: end % 60),
            weeks: typicalWeeks, days: result, percent: percent)
    }
}
