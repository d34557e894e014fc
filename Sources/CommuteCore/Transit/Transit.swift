import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// Why a transit feed or route could not be used: a message that names the feed and the file.
public struct TransitProblem: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String
    /// Whether it is the outside's (a server, a file) rather than the user's words.
    public var isTemporary: Bool

    public init(_ message: String, isTemporary: Bool = false) {
        self.message = message
        self.isTemporary = isTemporary
    }

    public var description: String { message }
}

extension Transit {
    /// The largest timetable zip fetched or read, and the largest realtime feed.
    public static let largestTimetableZip = 256 << 20
    public static let largestRealtimeFeed = 32 << 20
    /// How often a timetable is asked about again: at most daily.
    public static let timetableInterval: TimeInterval = 86_400
    /// A realtime feed older than this is not used for predictions.
    public static let realtimeLifetime: TimeInterval = 15 * 60

    // MARK: Feeds

    /// The configured feed named `name`.
    public func transitFeed(_ name: String) throws -> TransitFeed {
        guard let feed = configuration.transitFeeds?.first(where: { $0.name == name }) else {
            let known = (configuration.transitFeeds ?? []).map(\.name)
            throw TransitProblem(
                "no transit feed '\(DisplayText.line(name))'" + (known.isEmpty ? "; add one with `traveltimes transit add`" : " (there are: \(known.joined(separator: ", ")))"))
        }
        return feed
    }

    /// The feeds, and what is known of each.
    public func transitFeeds() throws -> [(feed: TransitFeed, state: TransitState.FeedState?, routes: [String])] {
        let state = try store.transitState()
        return (configuration.transitFeeds ?? []).map { feed in
            (feed, state.feeds[feed.name], state.routes.filter { $0.transit?.feed == feed.name }.map(\.id))
        }
    }

    /// Adds a feed: its timetable is fetched now and must be one (an agency with a time zone, and
    /// stops); nothing is saved otherwise.
    public func addTransitFeed(_ feed: TransitFeed, client: any HTTPClient, timeout: TimeInterval) throws -> TransitTimetable.Contents {
        guard configuration.transitFeeds?.contains(where: { $0.name == feed.name }) != true else {
            throw TransitProblem("there is already a transit feed '\(feed.name)' (`traveltimes transit remove \(feed.name)` first)")
        }
        guard (configuration.transitFeeds ?? []).count < Configuration.largestTransitFeedCount else {
            throw TransitProblem("there are \(Configuration.largestTransitFeedCount) transit feeds already; remove one first")
        }
        let fetched = try fetchTimetable(feed, validators: nil, for: [], client: client, timeout: timeout)
        guard case .fresh(let staged, let validators) = fetched else {
            throw TransitProblem("the server answered 304 Not Modified to a request without validators", isTemporary: true)
        }
        defer { unlink(staged.path) }
        try store.updateConfiguration { configuration in
            guard configuration.transitFeeds?.contains(where: { $0.name == feed.name }) != true else {
                throw TransitProblem("there is already a transit feed '\(feed.name)'")
            }
            configuration.transitFeeds = (configuration.transitFeeds ?? []) + [feed]
        }
        var state = TransitState.FeedState()
        state.fetchedAt = now
        state.checkedAt = now
        state.validators = validators.isEmpty ? nil : validators
        state.timeZone = staged.timeZone
        try store.updateTransit { transit in
            try Self.install(staged, as: store.transitPath(feed.name, "zip"))
            transit.feeds[feed.name] = state
        }
        return staged.contents
    }

    /// Removes a feed no route uses, with its files.
    public func removeTransitFeed(_ name: String) throws {
        _ = try transitFeed(name)
        try store.updateTransit { state in
            let users = state.routes.filter { $0.transit?.feed == name }.map(\.id)
            guard users.isEmpty else {
                throw TransitProblem(
                    "transit feed '\(name)' is used by route\(users.count == 1 ? "" : "s") \(users.joined(separator: ", ")): remove \(users.count == 1 ? "it" : "them") first (`traveltimes route remove ID`)")
            }
            state.feeds[name] = nil
        }
        try store.updateConfiguration { configuration in
            configuration.transitFeeds?.removeAll { $0.name == name }
            if configuration.transitFeeds?.isEmpty == true { configuration.transitFeeds = nil }
        }
        for suffix in ["zip", "realtime.pb", "alerts.pb"] { unlink(store.transitPath(name, suffix)) }
    }

    // MARK: Fetching

    /// A timetable zip fetched (or read) into the store's `transit/` under a name of its own, and
    /// checked: an agency with a time zone, stops and trips, every file whole. Moved into place
    /// only once everything built from it is built.
    struct StagedTimetable {
        var path: String
        var timeZone: String
        var contents: TransitTimetable.Contents
        /// Each requested route's trips, read in the same pass as the check.
        var timetables: [Result<TransitTimetable, ZipProblem>]
    }

    enum TimetableFetch {
        case fresh(StagedTimetable, FeedFetcher.Validators)
        case notModified
    }

    /// Fetches a feed's timetable (unless the validators say it is unchanged) and reads it once:
    /// checked whole, and with the trips of each of `requests`.
    func fetchTimetable(
        _ feed: TransitFeed, validators: FeedFetcher.Validators?, for requests: [TransitTimetable.Request], client: any HTTPClient,
        timeout: TimeInterval
    ) throws -> TimetableFetch {
        let (data, newValidators): (Data, FeedFetcher.Validators)
        switch try fetchTransitFile(feed.staticURL, feed: feed, what: "timetable", validators: validators, limit: Self.largestTimetableZip, client: client, timeout: timeout) {
        case .notModified: return .notModified
        case .fresh(let body, let received): (data, newValidators) = (body, received)
        }
        try store.makeTransitDirectory()
        let path = store.transitPath("\(feed.name).\(getpid()).\(UInt32.random(in: 0...UInt32.max))", "zip.new")
        try AtomicFile.write(data, to: path)
        do {
            let archive = try ZipArchive(path: path)
            let reading = try TransitTimetable.read(archive, requests: requests, checkingEverything: true)
            let contents = reading.contents
            guard contents.stops > 0, contents.trips > 0 else { throw ZipProblem("it has no stops or no trips") }
            return .fresh(
                StagedTimetable(path: path, timeZone: contents.timeZone, contents: contents, timetables: reading.timetables), newValidators)
        } catch {
            unlink(path)
            throw TransitProblem("\(feed.name)'s timetable is not a GTFS feed: \(Self.describe(error))")
        }
    }

    /// The outcome of one feed file's fetch.
    enum TransitFetch {
        case fresh(Data, FeedFetcher.Validators)
        case notModified
    }

    /// Fetches one of a feed's files over HTTP (with the feed's headers and, for the timetable,
    /// its validators), or reads it from a file.
    func fetchTransitFile(
        _ text: String, feed: TransitFeed, what: String, validators: FeedFetcher.Validators?, limit: Int, client: any HTTPClient,
        timeout: TimeInterval
    ) throws -> TransitFetch {
        let shown = TransitFeed.shown(text)
        guard let location = TransitLocation(text) else { throw TransitProblem("\(feed.name)'s \(what) '\(shown)' is not a URL or a path") }
        switch location {
        case .file(let path):
            do {
                guard let data = try RegularFile.read(path, maximumSize: limit) else {
                    throw TransitProblem("\(feed.name)'s \(what): \(path) does not exist", isTemporary: true)
                }
                return .fresh(data, FeedFetcher.Validators())
            } catch let error as StoreError {
                throw TransitProblem("\(feed.name)'s \(what): \(error)", isTemporary: true)
            }
        case .url(let url):
            do {
                switch try FeedFetcher(client: client).fetch(
                    url, validators: validators, timeout: timeout, headers: feed.requestHeaders, body: FeedFetcher.binaryBody)
                {
                case .fresh(let data, let received): return .fresh(data, received)
                case .notModified: return .notModified
                }
            } catch {
                let message = FeedSource.redact("\(feed.name)'s \(what) (\(shown)): \(error)", secrets: feed.secrets)
                if case .helperMissing = error { throw error }
                throw TransitProblem(message, isTemporary: true)
            }
        }
    }

    static func install(_ staged: StagedTimetable, as path: String) throws {
        guard rename(staged.path, path) == 0 else {
            throw StoreError.io(path: path, reason: "cannot move the new timetable into place: \(String(cString: strerror(errno)))")
        }
    }

    static func describe(_ error: any Error) -> String {
        switch error {
        case let problem as ZipProblem: problem.reason
        case let problem as GTFSTable.Problem: problem.description
        case let problem as TransitProblem: problem.message
        default: DisplayText.line(String(describing: error))
        }
    }

    // MARK: Stops

    /// One stop of a feed, as `transit stops` lists it.
    public struct TransitStop: Sendable, Equatable {
        public var id: String
        public var name: String
        /// The station it is a platform of; nil for a stop on its own or a station.
        public var parent: String?
        public var isStation: Bool
        public var point: Coordinate?
        /// From the point asked about, in metres.
        public var metres: Double?
    }

    /// The stops whose name holds `search` (any case), or the nearest to `near`; at most `limit`.
    public func transitStops(_ name: String, search: String?, near: Coordinate?, limit: Int = 20) throws -> [TransitStop] {
        _ = try transitFeed(name)
        let archive = try openTimetable(name)
        let needle = search?.lowercased()
        var found: [TransitStop] = []
        do {
            try GTFSTable.read(
                "stops.txt", in: archive, columns: ["stop_id", "stop_name", "parent_station", "location_type", "stop_lat", "stop_lon"]
            ) { row in
                let stopName = DisplayText.line(String(row[1].prefix(120)))
                if let needle, !stopName.lowercased().contains(needle), row[0].lowercased() != needle { return true }
                // Entrances, generic nodes and boarding areas are not where a trip starts.
                guard row[3].isEmpty || row[3] == "0" || row[3] == "1" else { return true }
                let point = Double(row[4]).flatMap { latitude in Double(row[5]).flatMap { Coordinate(latitude: latitude, longitude: $0) } }
                var stop = TransitStop(
                    id: DisplayText.line(String(row[0].prefix(64))), name: stopName, parent: row[2].isEmpty ? nil : DisplayText.line(String(row[2].prefix(64))),
                    isStation: row[3] == "1", point: point, metres: nil)
                if let near {
                    guard let point else { return true }
                    stop.metres = Self.metres(near, point)
                }
                found.append(stop)
                // Bounded: a search of every stop keeps the nearest as it goes.
                if found.count > 4 * limit + 256 { found = Self.best(found, limit: limit, byDistance: near != nil) }
                return true
            }
        } catch {
            throw TransitProblem("\(name)'s timetable: \(Self.describe(error))")
        }
        return Self.best(found, limit: limit, byDistance: near != nil)
    }

    private static func best(_ stops: [TransitStop], limit: Int, byDistance: Bool) -> [TransitStop] {
        let sorted = byDistance
            ? stops.sorted { ($0.metres ?? 0, $0.id) < ($1.metres ?? 0, $1.id) }
            : stops.sorted { ($0.name, $0.id) < ($1.name, $1.id) }
        return Array(sorted.prefix(limit))
    }

    /// The great-circle distance between two points, in metres.
    static func metres(_ a: Coordinate, _ b: Coordinate) -> Double {
        let radians = Double.pi / 180
        let dLat = (b.latitude - a.latitude) * radians
        let dLon = (b.longitude - a.longitude) * radians
        let h = sin(dLat / 2) * sin(dLat / 2) + cos(a.latitude * radians) * cos(b.latitude * radians) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * 6_371_000 * asin(min(1, sqrt(h)))
    }

    func openTimetable(_ name: String) throws -> ZipArchive {
        let path = store.transitPath(name, "zip")
        guard FileManager.default.fileExists(atPath: path) else {
            throw TransitProblem("\(name)'s timetable has not been fetched yet: run `traveltimes refresh`", isTemporary: true)
        }
        do {
            return try ZipArchive(path: path)
        } catch {
            throw TransitProblem("\(name)'s timetable (\(path)): \(Self.describe(error))")
        }
    }

    // MARK: Routes

    /// A transit route as `route add --transit` asks for it.
    public struct TransitRequest: Sendable, Equatable {
        public var id: String
        public var name: String?
        public var feed: String
        public var fromStop: String
        public var toStop: String
        public var line: String?
        public var walkMinutes: Int

        public init(id: String, name: String?, feed: String, fromStop: String, toStop: String, line: String?, walkMinutes: Int) {
            self.id = id
            self.name = name
            self.feed = feed
            self.fromStop = fromStop
            self.toStop = toStop
            self.line = line
            self.walkMinutes = walkMinutes
        }
    }

    /// Adds a transit route: its trips are read from the feed's timetable (there must be at least
    /// one from the first stop to the second), its departures worked out with the last realtime
    /// feed still fresh, and the alerts re-planned.
    public func addTransitRoute(_ request: TransitRequest) throws -> Route {
        let feed = try transitFeed(request.feed)
        let archive = try openTimetable(feed.name)
        let timetable: TransitTimetable
        do {
            timetable = try TransitTimetable(archive: archive, from: request.fromStop, to: request.toStop, line: request.line)
        } catch {
            throw TransitProblem("\(feed.name)'s timetable: \(Self.describe(error))")
        }
        guard !timetable.trips.isEmpty else {
            let line = request.line.map { " on line \(DisplayText.line($0))" } ?? ""
            throw TransitProblem(
                "no trip of \(feed.name) calls at \(DisplayText.line(request.fromStop)) and then at \(DisplayText.line(request.toStop))\(line): check the stops' order with `traveltimes transit stops \(feed.name) --search NAME`")
        }
        let transit = Route.Transit(
            feed: feed.name, fromStop: request.fromStop, toStop: request.toStop, line: request.line, walkMinutes: request.walkMinutes,
            fromName: timetable.fromName, toName: timetable.toName)
        let lines = Set(timetable.trips.map(\.line)).sorted()
        let shownLines = lines.count <= 3 ? lines.joined(separator: ", ") : "\(lines.prefix(3).joined(separator: ", ")), …"
        var route = Route(
            id: request.id, name: request.name,
            description: "\(transit.fromName ?? transit.fromStop) → \(transit.toName ?? transit.toStop) (\(shownLines))",
            currentMinutes: nil, averageMinutes: nil, updatedAt: now)
        route.transit = transit
        let realtime = storedRealtime(feed.name, .tripUpdates, keepingTrips: Set(timetable.trips.map(\.id)))
        let alerts = storedRealtime(feed.name, .alerts)
        route = Self.planned(route, timetable: timetable, realtime: realtime, alerts: alerts, at: now)
        try saveTimetable(timetable, for: request.id)
        do {
            try store.updateTransit(checkingCache: { state, cache in
                guard !cache.routes.contains(where: { $0.id == request.id }), !state.routes.contains(where: { $0.id == request.id }) else {
                    throw CommuteError.routeExists(request.id)
                }
                guard state.routes.count < TransitState.largestRouteCount else {
                    throw TransitProblem("there are \(TransitState.largestRouteCount) transit routes already; remove one first")
                }
                state.routes.append(route)
            })
        } catch {
            unlink(store.transitPath(request.id, "timetable.json"))
            throw error
        }
        try commute.reschedule()
        return route
    }

    func saveTimetable(_ timetable: TransitTimetable, for routeID: String) throws {
        try store.makeTransitDirectory()
        try AtomicFile.write(Array(try StoreCoding.encoder.encode(timetable)), to: store.transitPath(routeID, "timetable.json"))
    }

    func loadTimetable(for routeID: String) throws -> TransitTimetable {
        let path = store.transitPath(routeID, "timetable.json")
        guard let data = try RegularFile.read(path, maximumSize: 64 << 20) else {
            throw TransitProblem("route \(routeID)'s timetable is missing (\(path)): remove the route and add it again")
        }
        do {
            return try StoreCoding.decoder.decode(TransitTimetable.self, from: data)
        } catch {
            throw StoreError.unreadable(path: path, reason: "not a timetable: remove the route and add it again")
        }
    }

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

    /// The route with its departures worked out at `moment` from the timetable and realtime feed,
    /// the service alerts that name its line or stops, and its times as of then.
    static func planned(
        _ route: Route, timetable: TransitTimetable, realtime: GTFSRealtime?, alerts: GTFSRealtime?, at moment: Date,
        realtimeProblem: String? = nil
    ) -> Route {
        guard var transit = route.transit else { return route }
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
        // A delay held back puts its bus back at its timetable time: soonest first again.
        transit.departures = judged.sorted { $0.expected != $1.expected ? $0.expected < $1.expected : $0.tripID < $1.tripID }
        // Departures past the most kept are not known: the window ends at the last one kept.
        transit.coveredUntil = transit.departures.count >= Route.Transit.largestDepartureCount
            ? transit.departures.last.map(\.expected) : moment.addingTimeInterval(TransitTimetable.lookahead)
        let service = timetable.serviceDates
        transit.serviceFrom = service?.lowerBound.dayNumber
        transit.serviceUntil = service?.upperBound.dayNumber
        transit.realtimeProblem = realtimeProblem
        let found = alerts.map { Self.notices(in: $0, for: timetable, at: moment) } ?? []
        transit.notices = found.isEmpty ? nil : found
        var planned = route
        planned.transit = transit
        planned.updatedAt = moment
        return planned.at(moment)
    }

    /// The headers of the alerts in force at `moment` that name one of the timetable's lines or
    /// stops, or one of its trips.
    static func notices(in feed: GTFSRealtime, for timetable: TransitTimetable, at moment: Date) -> [String] {
        let routeIDs = Set(timetable.trips.map(\.routeID))
        let stops = Set(timetable.fromStops + timetable.toStops)
        let trips = Set(timetable.trips.map(\.id))
        let seconds = Int(moment.timeIntervalSince1970)
        var found: [String] = []
        for alert in feed.alerts {
            let inForce = alert.periods.isEmpty || alert.periods.contains { ($0.start ?? .min) <= seconds && seconds <= ($0.end ?? .max) }
            guard inForce else { continue }
            let names = alert.routeIDs.contains(where: routeIDs.contains) || alert.stopIDs.contains(where: stops.contains)
                || alert.tripIDs.contains(where: trips.contains)
            guard names else { continue }
            let text = alert.header ?? alert.description ?? "a service alert"
            let line = String(DisplayText.line(text).prefix(Route.Transit.longestNotice))
            if !found.contains(line) { found.append(line) }
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
    public struct TransitRefreshOutcome: Sendable, Equatable {
        public var feed: String
        /// `fetched` (a new timetable), `unchanged` (304), `kept` (not due), or nil when it failed.
        public var timetable: String?
        public var realtime: Bool
        public var routes: [String]
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
        var rebuilt: [String: TransitTimetable] = [:]
        var plannedRoutes: [String: Route] = [:]
        for feed in feeds {
            var state = states[feed.name] ?? TransitState.FeedState()
            var problems: [String: String] = [:]
            var outcome = TransitRefreshOutcome(
                feed: feed.name, timetable: "kept", realtime: false, routes: [], planned: [], problems: [], newProblems: [])
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
                        outcome.timetable = "unchanged"
                    case .fresh(let staged, let validators):
                        defer { unlink(staged.path) }
                        // Every route's trips from the new timetable, before it replaces the old.
                        var built: [String: TransitTimetable] = [:]
                        for (route, result) in zip(routes.filter { $0.transit != nil }, staged.timetables) {
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
                        outcome.timetable = "fetched"
                    }
                } catch let error as TransitProblem {
                    problems["static"] = error.message
                    outcome.timetable = nil
                }
            }
            var timetables: [String: TransitTimetable] = [:]
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
                    realtimeProblem: feed.realtimeURL != nil && realtime == nil ? problems[RealtimeKind.tripUpdates.file] ?? "no realtime data" : nil)
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
