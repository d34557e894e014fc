import Basics
@_spi(Store) import CommuteDelivery
@_spi(Store) import CommuteHistory
import CommuteModel
@_spi(Store) import CommuteSources
@_spi(Store) import CommuteStore
import FoundationEssentials
import Glibc

extension Transit {
    /// A feed's two realtime files: what each is called, in the store and in messages.
    enum RealtimeKind {
        case tripUpdates, alerts

        /// `NAME.realtime.pb`, `NAME.alerts.pb`; the key of its problem in the feed's state.
        var file: String { self == .alerts ? "alerts" : "realtime" }
        var what: String { self == .alerts ? "service alerts" : "realtime feed" }

        func fetchedAt(_ state: TransitState.FeedState) -> Date? { self == .alerts ? state.alertsFetchedAt : state.realtimeFetchedAt }
    }

    /// The last realtime feed (or alerts) of `feed`, when it was fetched recently enough to use;
    /// of its trip updates, only those of `trips` when given.
    func storedRealtime(_ feed: String, _ kind: RealtimeKind, keepingTrips trips: Set<String>? = nil) -> GTFSRealtime? {
        let path = store.transitPath(feed, "\(kind.file).pb")
        guard let state = try? store.transitState().feeds[feed], let fetched = kind.fetchedAt(state),
            now.timeIntervalSince(fetched) < Self.realtimeLifetime, now >= fetched.addingTimeInterval(-60),
            let data = try? RegularFile.read(path, maximumSize: Self.largestRealtimeFeed)
        else { return nil }
        return try? GTFSRealtime(decoding: data, keepingTrips: trips)
    }

    /// How long a late bus's prediction is carried while no realtime feed is read.
    static let carriedPrediction: TimeInterval = 3_600

    /// The route with its departures worked out at `moment` from the timetable and realtime feed,
    /// the service alerts that name its line or stops, and its times as of then.
    static func planned(
        _ route: Route, timetable: TransitTimetable, realtime: GTFSRealtime?, alerts: GTFSRealtime?, at moment: Date,
        realtimeProblem: String? = nil, following runs: [TransitRun] = []
    ) -> Route {
        guard case .transitFeed(var transit) = route.kind else { return route }
        // A bus that leaves before the walk to it ends can never be taken, now or later.
        let departures = timetable.departures(
            after: moment.addingTimeInterval(TimeInterval(transit.walkMinutes * 60)), realtime: realtime,
            limit: Route.Transit.largestDepartureCount)
        transit.realtimeAt = realtime.map { feed in feed.timestamp.map { Date(timeIntervalSince1970: TimeInterval($0)) } ?? moment }
        if let at = transit.realtimeAt, !Route.Transit.plausibleDates.contains(at) { transit.realtimeAt = moment }
        // A delay outside what the trip can be is held back until the next feed says it too: the
        // departures before are that memory, when they came from an older feed.
        let earlier = route.transit.flatMap { before in
            before.realtimeAt.flatMap { at in transit.realtimeAt.map { at < $0 } } == true ? before.departures : nil
        } ?? []
        let plausible = departures.filter { (departure: TransitDeparture) -> Bool in
            let dates: [Date] = [departure.scheduled, departure.arrival, departure.scheduledArrival] + [departure.predicted].compactMap { $0 }
            return dates.allSatisfy { Route.Transit.plausibleDates.contains($0) }
        }
        var judged: [TransitDeparture] = []
        for departure in plausible {
            let previous = earlier.first { $0.isSameRun(as: departure) }
            judged.append(departure.judged(walkMinutes: transit.walkMinutes, factor: History.absurdFactor, previous: previous))
        }
        // Without realtime data now, a bus the last feed (within the hour) predicted late, still
        // to come though its timetable time has gone, keeps that prediction, said as of then: the
        // late bus is the one that can still be caught.
        if realtime == nil, let before = route.departures, let at = before.realtimeAt ?? before.departures.compactMap(\.predictedAt).max(),
            moment.timeIntervalSince(at) < Self.carriedPrediction
        {
            let leaving = moment.addingTimeInterval(TimeInterval(transit.walkMinutes * 60))
            for var late in before.departures where late.predicted != nil && !late.canceled && !late.skipped && !late.dropped && late.expected >= leaving
                && late.legs == nil && !judged.contains(where: { $0.isSameRun(as: late) })
            {
                late.predictedAt = late.predictedAt ?? at
                judged.append(late)
            }
        }
        // A delay held back puts its bus back at its timetable time: soonest first again.
        transit.departures = judged.sorted { $0.expected != $1.expected ? $0.expected < $1.expected : $0.tripID < $1.tripID }
        // Departures past the most kept are not known: the window ends at the last one kept.
        transit.coveredUntil = transit.departures.count >= Route.Transit.largestDepartureCount
            ? transit.departures.last.map(\.expected) : moment.addingTimeInterval(TransitTimetable.lookahead)
        let service = timetable.serviceDates
        transit.serviceFrom = service?.lowerBound.dayNumber
        transit.serviceUntil = service?.upperBound.dayNumber
        let agency = IANAZone(identifier: timetable.timeZone).map { ZonedCalendar(timeZone: $0, around: moment) }
        transit.nextServiceDay = agency.flatMap { timetable.nextServiceDay(from: $0.local(moment).date.dayNumber) }
        transit.realtimeProblem = realtimeProblem
        transit.followed = Self.followed(runs, in: timetable, realtime: realtime, besides: transit.departures)
        // The alerts of the window of the next trip that can be taken: from now until it arrives.
        let until = transit.departures.first(where: Route.Transit.isRunning)?.arrival ?? moment
        let found = alerts.map { Self.notices(in: $0, for: timetable, from: moment, until: max(moment, until)) } ?? []
        transit.notices = found.isEmpty ? nil : found
        var planned = route
        planned.transit = transit
        planned.updatedAt = moment
        return planned.at(moment)
    }

    /// The runs followed after their leave alerts that `departures` no longer lists (the rider is
    /// walking to them), as the realtime feed has them now; nil when there are none.
    static func followed(_ runs: [TransitRun], in timetable: TransitTimetable, realtime: GTFSRealtime?, besides departures: [TransitDeparture]) -> [TransitDeparture]? {
        let missing = Set(runs.prefix(Route.Transit.largestFollowedCount)).filter { run in !departures.contains { $0.run == run } }
        guard let earliest = missing.map(\.scheduled).min() else { return nil }
        let found = timetable.departures(after: earliest.addingTimeInterval(-1), realtime: realtime, limit: 4 * Route.Transit.largestFollowedCount)
            .filter { missing.contains($0.run) }
        return found.isEmpty ? nil : found
    }

    /// The headers of the alerts in force at some time from `moment` to `until` (the window of the
    /// next trip) that name one of the timetable's lines or stops, or one of its trips: one line
    /// each, in plain words (a feed's HTML taken out), once.
    static func notices(in feed: GTFSRealtime, for timetable: TransitTimetable, from moment: Date, until: Date) -> [String] {
        let routeIDs = Set(timetable.trips.map(\.routeID))
        let stops = Set(timetable.fromStops + timetable.toStops)
        let trips = Set(timetable.trips.map(\.id))
        let start = Int(moment.timeIntervalSince1970), end = Int(until.timeIntervalSince1970)
        var found: [String] = []
        for alert in feed.alerts {
            // A period overlaps the window unless it ends before it starts or starts after it ends.
            let inForce = alert.periods.isEmpty || alert.periods.contains { ($0.start ?? .min) <= end && start <= ($0.end ?? .max) }
            guard inForce else { continue }
            let names = alert.routeIDs.contains(where: routeIDs.contains) || alert.stopIDs.contains(where: stops.contains)
                || alert.tripIDs.contains(where: trips.contains)
            guard names else { continue }
            let line = PlainText.line(alert.header ?? alert.description ?? "a service alert", longest: Route.Transit.longestNotice)
            if !line.isEmpty, !found.contains(line) { found.append(line) }
            if found.count == Route.Transit.largestNoticeCount { break }
        }
        return found
    }

    // MARK: Refresh

    /// What is left of the refresh's deadline for one file; none left is the feed's problem.
    static func left(_ deadline: FeedInput.Deadline, _ feed: TransitFeed, _ what: String) throws -> TimeInterval {
        let left = deadline.remaining
        guard left >= 0.05 else {
            throw TransitProblem("\(feed.name)'s \(what) was not fetched: the refresh's --timeout ran out first", isTemporary: true)
        }
        return left
    }

    /// What a refresh did for one feed.
    /// What a refresh did with a feed's timetable.
    public enum TimetableOutcome: String, Sendable, Equatable {
        /// A new one, fetched and read.
        case fetched
        /// The server said it had not changed (304).
        case unchanged
        /// Not due: fetched less than a day ago.
        case kept
    }

    public struct TransitRefreshOutcome: Sendable, Equatable {
        public var feed: String
        /// What became of the timetable; nil when it could not be had.
        public var timetable: TimetableOutcome?
        public var realtime: Bool
        public var routes: [RouteID]
        /// Those routes with their new departures: what the delay watches look at.
        public var planned: [Route]
        public var problems: [String]
        /// The problems the last refresh did not have: what a quiet refresh says.
        public var newProblems: [String]
        /// Delays held back as outside what a trip can be, and what could not be recorded in the
        /// routes' history (a refresh never fails over either).
        public var warnings: [Refresh.RefreshWarning] = []
    }

    /// The feeds' refresh: each timetable when due (daily, with validators), the realtime feeds
    /// every time, then every transit route's departures. A file that cannot be fetched or read
    /// keeps what there was, and says so; the others go on.
    /// `timeout` is one deadline for every file of every feed, as `--timeout` says: a file whose
    /// turn comes after it is not fetched, and that is said as the feed's problem.
    public func refreshTransit(client: any HTTPClient, timeout: TimeInterval, forceTimetable: Bool = false) throws -> [TransitRefreshOutcome] {
        let feeds = configuration.transitFeeds ?? []
        guard !feeds.isEmpty else { return [] }
        let deadline = FeedInput.Deadline(seconds: timeout)
        let before = try store.transitState()
        var outcomes: [TransitRefreshOutcome] = []
        var states = before.feeds
        var rebuilt: [RouteID: TransitTimetable] = [:]
        var plannedRoutes: [RouteID: Route] = [:]
        // The runs riders are following now, by route: kept in view after the walk to them began.
        var followedRuns: [RouteID: [TransitRun]] = [:]
        for alert in (try? store.openAlerts().alerts) ?? [] {
            if let follow = alert.follow, follow.boarding > now, !(followedRuns[follow.route] ?? []).contains(follow.run) {
                followedRuns[follow.route, default: []].append(follow.run)
            }
        }
        for feed in feeds {
            var state = states[feed.name] ?? TransitState.FeedState()
            var problems: [String: String] = [:]
            var outcome = TransitRefreshOutcome(
                feed: feed.name, timetable: .kept, realtime: false, routes: [], planned: [], problems: [], newProblems: [])
            let routes = before.routes.filter { $0.transit?.feed == feed.name }
            let zipPath = store.transitPath(feed.name, "zip")
            let hasZip = FileManager.default.fileExists(atPath: zipPath)
            let due = forceTimetable || !hasZip || state.checkedAt.map { now.timeIntervalSince($0) >= Self.timetableInterval || $0 > now } ?? true
            if due {
                do {
                    let requests = routes.compactMap(\.transit).map { TransitTimetable.Request(from: $0.fromStop, to: $0.toStop, line: $0.line) }
                    switch try fetchTimetable(
                        feed, validators: hasZip ? state.validators : nil, for: requests, client: client, timeout: try Self.left(deadline, feed, "timetable"))
                    {
                    case .notModified:
                        state.checkedAt = now
                        outcome.timetable = .unchanged
                    case .fresh(let staged, let validators):
                        defer { unlink(staged.path) }
                        // Every route's trips from the new timetable, before it replaces the old.
                        var built: [RouteID: TransitTimetable] = [:]
                        for (route, result) in zip(routes.filter(\.isTransitFeed), staged.timetables) {
                            let reason: String
                            switch result {
                            case .success(let timetable) where !timetable.trips.isEmpty:
                                built[route.id] = timetable
                                continue
                            case .success: reason = "no trip calls at its stops in that order"
                            case .failure(let problem): reason = problem.reason
                            }
                            throw TransitProblem("\(feed.name)'s new timetable does not serve route \(route.id): \(reason); the old one is kept")
                        }
                        for (id, timetable) in built { try saveTimetable(timetable, for: id) }
                        try Self.install(staged, as: zipPath)
                        rebuilt.merge(built) { _, new in new }
                        state.fetchedAt = now
                        state.checkedAt = now
                        state.validators = validators.isEmpty ? nil : validators
                        state.timeZone = staged.timeZone
                        outcome.timetable = .fetched
                    }
                } catch let error as TransitProblem {
                    problems["static"] = error.message
                    outcome.timetable = nil
                }
            }
            var timetables: [RouteID: TransitTimetable] = [:]
            for route in routes {
                do {
                    timetables[route.id] = try rebuilt[route.id] ?? loadTimetable(for: route.id)
                } catch {
                    problems["route \(route.id)"] = Self.describe(error)
                }
            }
            let trips = Set(timetables.values.flatMap { $0.trips.map(\.id) })
            let realtime = fetchRealtime(
                feed, .tripUpdates, url: feed.realtimeURL, keepingTrips: trips, client: client, deadline: deadline, state: &state, problems: &problems)
            let alerts = fetchRealtime(feed, .alerts, url: feed.alertsURL, client: client, deadline: deadline, state: &state, problems: &problems)
            outcome.realtime = realtime != nil
            for route in routes {
                guard let timetable = timetables[route.id] else { continue }
                let planned = Self.planned(
                    route, timetable: timetable, realtime: realtime, alerts: alerts, at: now,
                    realtimeProblem: feed.realtimeURL != nil && realtime == nil ? problems[RealtimeKind.tripUpdates.file] ?? "no realtime data" : nil,
                    following: followedRuns[route.id] ?? [])
                plannedRoutes[route.id] = planned
                outcome.routes.append(route.id)
                outcome.planned.append(planned)
            }
            // With live data, each route's door-to-door time is a reading, as a provider's is:
            // dated by the feed, so a feed read twice is recorded once.
            // A delay held back is recorded as outside, and said.
            if realtime != nil {
                let current = outcome.planned.map { $0.at(now) }
                outcome.warnings = current.filter { $0.suspiciousMinutes != nil }.map(History.heldBack)
                outcome.warnings += commute.history.record(current.compactMap { route in
                    guard let minutes = route.currentMinutes ?? route.suspiciousMinutes else { return nil }
                    let at = ZonedCalendar.seconds(route.transit?.realtimeAt ?? now)
                    return (route.id, HistoryRecord(at: at, minutes: minutes, source: .transit, outside: route.suspiciousMinutes != nil))
                })
            }
            state.problems = problems.isEmpty ? nil : problems
            states[feed.name] = state
            outcome.problems = state.problemList
            let previous = Set((before.feeds[feed.name]?.problems ?? [:]).values)
            outcome.newProblems = outcome.problems.filter { !previous.contains($0) }
            outcomes.append(outcome)
        }
        try store.updateTransit { state in
            state.feeds = states.filter { name, _ in feeds.contains { $0.name == name } }
            for index in state.routes.indices {
                if let planned = plannedRoutes[state.routes[index].id], planned.transit?.fromStop == state.routes[index].transit?.fromStop {
                    state.routes[index] = planned
                }
            }
        }
        return outcomes
    }

    /// One realtime file of a feed, fetched and decoded; on failure the last one still fresh, and
    /// the problem noted.
    private func fetchRealtime(
        _ feed: TransitFeed, _ kind: RealtimeKind, url: String?, keepingTrips trips: Set<String>? = nil, client: any HTTPClient,
        deadline: FeedInput.Deadline, state: inout TransitState.FeedState, problems: inout [String: String]
    ) -> GTFSRealtime? {
        guard let url else { return nil }
        do {
            guard case .fresh(let data, _) = try fetchTransitFile(
                url, feed: feed, what: kind.what, validators: nil, limit: Self.largestRealtimeFeed,
                client: client, timeout: try Self.left(deadline, feed, kind.what))
            else { return storedRealtime(feed.name, kind, keepingTrips: trips) }
            let decoded: GTFSRealtime
            do {
                decoded = try GTFSRealtime(decoding: data, keepingTrips: trips)
            } catch {
                throw TransitProblem("\(feed.name)'s \(kind.what) is not GTFS-realtime: \(Self.describe(error))")
            }
            if let stamp = decoded.timestamp, Double(stamp) - now.timeIntervalSince1970 > 3_600 {
                throw TransitProblem("\(feed.name)'s \(kind.what) \(kind == .alerts ? "are" : "is") dated over an hour ahead (\(stamp) s since 1970): not used")
            }
            // A feed stuck in the past is not live data, however recently it was fetched.
            if kind == .tripUpdates, let stamp = decoded.timestamp, now.timeIntervalSince1970 - Double(stamp) > Self.realtimeLifetime {
                let when = Route.Transit.plausibleDates.contains(Date(timeIntervalSince1970: Double(stamp)))
                    ? TimeFormatting.moment(Date(timeIntervalSince1970: Double(stamp)), relativeTo: now, calendar: calendar) : "no real time"
                throw TransitProblem("\(feed.name)'s realtime feed is from \(when), over 15 min ago: not used")
            }
            try store.makeTransitDirectory()
            try AtomicFile.write(data, to: store.transitPath(feed.name, "\(kind.file).pb"))
            if kind == .alerts {
                state.alertsFetchedAt = now
            } else {
                state.realtimeFetchedAt = now
                state.realtimeTimestamp = decoded.timestamp.map { Date(timeIntervalSince1970: TimeInterval($0)) }
                    .flatMap { Route.Transit.plausibleDates.contains($0) ? $0 : nil }
            }
            return decoded
        } catch {
            problems[kind.file] = Self.describe(error)
            let kept = storedRealtime(feed.name, kind, keepingTrips: trips)
            if kept != nil { problems[kind.file, default: ""] += "; the last one, under 15 min old, is used" }
            return kept
        }
    }
}
