import Basics
import CommuteModel
import FoundationEssentials
@_spi(Store) import CommuteStore
@_spi(Store) import CommuteDelivery
@_spi(Store) import CommuteHistory
@_spi(Store) import CommuteSources

extension Exports {
    /// What every export publishes, worked out once a run: the favorites as sensors, the planned
    /// leave alerts as an iCalendar file, the metrics as a Prometheus textfile.
    struct Content {
        var sensors: [HomeAssistantSensor] = []
        var calendar = Data()
        var metrics = Data()
        private var comparisons: [WayComparison] = []
        private var reliability: [History.ScheduleReliability] = []

        /// What the exports of `kinds` publish.
        init(commute: Commute, kinds: Set<ExportTarget.Kind>) throws {
            guard !kinds.isEmpty else { return }
            let pending = try commute.store.pending()
            let schedules = try commute.store.schedules().schedules + commute.calendars.departureSchedules()
            let favorites = try commute.store.favorites().routeIDs
            // Only the routes followed are read (the others are passed over unbuilt).
            let routes = try commute.store.routes(withIDs: Set(favorites + schedules.flatMap(\.routeIDs))).mapValues(commute.current)
            let byID = Dictionary(schedules.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            // Each route's usual time is read from its history once, for the sensors and metrics both.
            var usual: [RouteID: Int?] = [:]
            func typical(_ route: Route) -> Int? {
                if let known = usual[route.id] { return known }
                let value = Self.typical(route, commute)
                usual[route.id] = value
                return value
            }
            // Leave alerts yet to come, soonest first (a heads-up is a reminder of one, not one).
            let leaves = pending.requests.filter { !$0.isHeadsUp && ($0.arrival ?? $0.nextFire) >= commute.now }
            // Each commute's best way now (the named ones, and the routes followed that share their
            // places with others), and each arrive-by schedule's reliability on each way: worked
            // out only where there are commutes or arrive-by schedules to say it of.
            let named = try commute.ways.list()
            let commutes = try named + commute.ways.commutes(of: favorites + schedules.flatMap(\.routeIDs), known: routes).filter { !named.contains($0) }
            let comparisons = try commutes.map { try commute.ways.compare($0) }
            let hasArrival = schedules.contains { if case .arriveBy = $0.timing { $0.isEnabled && $0.event == nil } else { false } }
            let reliability = hasArrival ? try commute.history.reliability(of: nil) : []
            self.comparisons = comparisons
            self.reliability = reliability
            if kinds.contains(.homeassistant) || kinds.contains(.mqtt) {
                let objectIDs = HomeAssistantSensor.objectIDs(for: favorites)
                let followed = commute.alerts.followedTrips()
                let iso = { (date: Date) in TimeFormatting.iso8601(date, calendar: commute.calendar) }
                sensors = zip(favorites, objectIDs).map { routeID, objectID in
                    let route = routes[routeID]
                    let next = leaves.first { byID[$0.scheduleID]?.routeIDs.contains(routeID) == true }
                    var sensor = HomeAssistantSensor(
                        objectID: objectID, routeID: routeID, name: route?.name ?? "Route \(routeID)",
                        minutes: route?.suspiciousMinutes == nil ? route?.currentMinutes : nil, typical: route.flatMap(typical),
                        status: route.map { $0.suspiciousMinutes == nil ? $0.status.rawValue : "SUSPICIOUS" } ?? "UNAVAILABLE",
                        updated: route.map { TimeFormatting.iso8601($0.updatedAt, calendar: commute.calendar) } ?? "",
                        nextLeave: next.map { TimeFormatting.iso8601($0.nextFire, calendar: commute.calendar) })
                    if let comparison = comparisons.first(where: { $0.ways.contains { $0.routeID == routeID } }), let best = comparison.best {
                        sensor.bestWay = .init(commute: comparison.name, routeID: best.routeID, name: best.name, marginMinutes: comparison.margin)
                    }
                    sensor.onTime = Self.onTime(of: routeID, in: reliability)
                    sensor.followedTrip = followed[routeID].map { trip in
                        HomeAssistantSensor.FollowedTripState(
                            line: trip.service, leavesStop: iso(trip.boarding), arrives: iso(trip.arrival), leaveDoor: iso(trip.leave), update: trip.said,
                            stopped: trip.stopped)
                    }
                    return sensor
                }
            }
            if kinds.contains(.ics) {
                calendar = ICalendarFeed.render(
                    leaves.map { entry in
                        var event = Self.event(entry, schedule: byID[entry.scheduleID], routes: routes, commute: commute)
                        let ways = Self.waysLines(byID[entry.scheduleID], comparisons: comparisons, reliability: reliability)
                        event.description = ([event.description].filter { !$0.isEmpty } + ways).joined(separator: "\n")
                        return event
                    },
                    version: Product.version)
            }
            if kinds.contains(.prometheus) {
                metrics = try Self.metrics(
                    commute, favorites: favorites, routes: routes, schedules: schedules, typical: typical, comparisons: comparisons, reliability: reliability)
            }
        }

        /// A planned departure's words on its ways: each commute it is on, side by side now, and
        /// how often its planned leave time arrived on time by each way (with the days behind it).
        static func waysLines(_ schedule: Schedule?, comparisons: [WayComparison], reliability: [History.ScheduleReliability]) -> [String] {
            guard let schedule else { return [] }
            var lines = comparisons.filter { comparison in comparison.ways.contains { schedule.routeIDs.contains($0.routeID) } }
                .map { "Which way (\($0.name)): \($0.sentence)" }
            for way in reliability.first(where: { $0.schedule.id == schedule.id })?.ways ?? [] {
                let (onTime, days) = way.recorded
                guard days > 0 else { continue }
                lines.append("On time by \(way.name): \(onTime) of the last \(days) recorded days")
            }
            return lines
        }

        /// The first arrive-by schedule on a route with recorded days: how often its planned leave
        /// time arrived on time, every weekday together.
        static func onTime(of routeID: RouteID, in reliability: [History.ScheduleReliability]) -> HomeAssistantSensor.OnTime? {
            for schedule in reliability {
                guard let way = schedule.ways.first(where: { $0.routeID == routeID }) else { continue }
                let (onTime, days) = way.recorded
                guard days > 0 else { continue }
                return .init(schedule: schedule.schedule.id.shortForm, onTime: onTime, days: days)
            }
            return nil
        }

        /// A route's usual minutes now: its history's median for this quarter hour when there is
        /// enough of it, else the feed's average.
        static func typical(_ route: Route, _ commute: Commute) -> Int? {
            if let typical = commute.history.typical(route.id, at: commute.now) { return Int(typical.median.rounded()) }
            return route.averageMinutes
        }

        /// A leave alert as an event: from its leave time to its arrival (or the route's time),
        /// named for what it leaves for, with the route times it was composed with.
        static func event(_ entry: PendingBook.Entry, schedule: Schedule?, routes: [RouteID: Route], commute: Commute) -> ICalendarFeed.Event {
            let occurrence = commute.calendar.local(entry.arrival ?? entry.nextFire).date
            let travel = schedule?.routeIDs.compactMap { routes[$0]?.currentMinutes }.min()
            let end = entry.arrival ?? entry.nextFire.addingTimeInterval(TimeInterval((travel ?? 1) * 60))
            // "Leave for" what: the event (its alert says "Leave now for Standup at 9:00 AM"), the
            // arrive-by schedule ("Arrive by 9:00 AM on Weekdays"), or the alert's own title.
            let title = entry.title ?? ""
            let summary = if title.hasPrefix("Leave now for ") {
                "Leave for " + title.dropFirst("Leave now for ".count)
            } else if let schedule, entry.arrival != nil {
                "Leave for \(schedule.timeLabel) on \(schedule.daysLabel)"
            } else {
                "Leave for \(title.isEmpty ? "your commute" : title)"
            }
            return ICalendarFeed.Event(
                uid: "\(entry.scheduleID.uuidString.lowercased())-\(occurrence.iso)@traveltimes",
                stamp: entry.since ?? entry.nextFire, start: entry.nextFire, end: end, summary: summary, description: entry.body ?? "")
        }

        /// The textfile: the followed routes' minutes and usual minutes, the last good refresh,
        /// and today's requests to each provider and alerts by outcome (both start again at local
        /// midnight, which Prometheus takes as a counter reset).
        static func metrics(
            _ commute: Commute, favorites: [RouteID], routes: [RouteID: Route], schedules: [Schedule], typical usual: (Route) -> Int?,
            comparisons: [WayComparison], reliability: [History.ScheduleReliability]
        ) throws -> Data {
            var followed: [RouteID] = []
            var seen = Set<RouteID>()
            for id in favorites + schedules.flatMap(\.routeIDs) where seen.insert(id).inserted { followed.append(id) }
            var minutes: [PrometheusText.Sample] = []
            var typical: [PrometheusText.Sample] = []
            for id in followed {
                guard let route = routes[id] else { continue }
                let labels = [("route", id.rawValue), ("name", route.name)]
                // Seconds, Prometheus's base unit of time (its naming rules; `promtool check metrics`).
                if route.suspiciousMinutes == nil, let current = route.currentMinutes { minutes.append(.init(labels: labels, value: Double(current * 60))) }
                if let usual = usual(route) { typical.append(.init(labels: labels, value: Double(usual * 60))) }
            }
            let log = try commute.store.refreshLog()
            let today = commute.calendar.local(commute.now).date.iso
            let counts = log.providerRequests?.day == today ? log.providerRequests?.counts ?? [:] : [:]
            let midnight = commute.calendar.instant(on: commute.today, hour: 0, minute: 0)
            var outcomes: [String: Int] = ["delivered": 0, "failed": 0, "missed": 0, "suppressed": 0]
            // Every attempt of a send counts (a counter never goes back); an update or a dismissal
            // of a notification already out is no alert.
            for decision in try commute.store.ledgerDecisions(since: midnight, detailSince: .distantFuture)
            where decision.outcome != .claimed && !decision.isAction {
                outcomes[decision.outcome.rawValue, default: 0] += 1
            }
            var families = [
                PrometheusText.Family(
                    name: "traveltimes_route_seconds", help: "How long a followed route takes now, in seconds (whole minutes).", kind: .gauge,
                    samples: minutes),
                PrometheusText.Family(
                    name: "traveltimes_route_typical_seconds",
                    help: "A followed route's usual time now, in seconds (its history, else the feed's average).", kind: .gauge, samples: typical),
            ]
            if let last = log.lastSuccessAt {
                families.append(.init(
                    name: "traveltimes_last_refresh_timestamp_seconds", help: "When the last refresh succeeded, in seconds since 1970.", kind: .gauge,
                    samples: [.init(value: last.timeIntervalSince1970.rounded(.down))]))
            }
            families.append(.init(
                name: "traveltimes_provider_requests_total", help: "Requests sent to each routing provider today (from 0 at local midnight).",
                kind: .counter, samples: RouteProvider.allCases.map { .init(labels: [("provider", $0.rawValue)], value: Double(counts[$0.rawValue] ?? 0)) }))
            families.append(.init(
                name: "traveltimes_alerts_total", help: "Alert sends decided today, by outcome, one per notifier and attempt (from 0 at local midnight).", kind: .counter,
                samples: outcomes.keys.sorted().map { .init(labels: [("outcome", $0)], value: Double(outcomes[$0] ?? 0)) }))
            families.append(.init(
                name: "traveltimes_commute_best_way", help: "1 for the way of each commute that is best now, 0 for the others that compete.", kind: .gauge,
                samples: comparisons.flatMap { comparison in
                    comparison.ways.filter { $0.minutes != nil }.map { way in
                        .init(labels: [("commute", comparison.name), ("route", way.routeID.rawValue)], value: way.routeID == comparison.best?.routeID ? 1 : 0)
                    }
                }))
            var onTime: [PrometheusText.Sample] = []
            var days: [PrometheusText.Sample] = []
            for schedule in reliability {
                for way in schedule.ways {
                    let (onTimeDays, count) = way.recorded
                    guard count > 0 else { continue }
                    let labels = [("schedule", schedule.schedule.id.shortForm), ("route", way.routeID.rawValue)]
                    onTime.append(.init(labels: labels, value: Double(onTimeDays) / Double(count)))
                    days.append(.init(labels: labels, value: Double(count)))
                }
            }
            families.append(.init(
                name: "traveltimes_schedule_on_time_ratio",
                help: "How often an arrive-by schedule's planned leave time arrived on time over the recorded days, by way (0 to 1).", kind: .gauge,
                samples: onTime))
            families.append(.init(
                name: "traveltimes_schedule_recorded_trips", help: "The recorded trips (one a day) behind traveltimes_schedule_on_time_ratio.", kind: .gauge, samples: days))
            return PrometheusText.render(families.filter { !$0.samples.isEmpty })
        }
    }
}
