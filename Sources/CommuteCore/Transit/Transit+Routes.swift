import Basics
import CommuteModel
@_spi(Store) import CommuteSources
@_spi(Store) import CommuteStore
import FoundationEssentials
import Glibc

extension Transit {
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
        public var id: RouteID
        public var name: String?
        public var feed: String
        public var fromStop: String
        public var toStop: String
        public var line: String?
        public var walkMinutes: Int

        public init(id: RouteID, name: String?, feed: String, fromStop: String, toStop: String, line: String?, walkMinutes: Int) {
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
                "no trip of \(feed.name) takes riders on at \(DisplayText.line(request.fromStop)) and off later at \(DisplayText.line(request.toStop))\(line) (a call where the timetable lets no one on or off does not count): check the stops and their order with `traveltimes transit stops \(feed.name) --search NAME`")
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
        // Its timetable is written under the lock its ID is taken under: a second command adding
        // the same ID meanwhile is refused before it touches the first one's file.
        var saved = false
        do {
            try store.updateTransit(checkingCache: { state, cache in
                guard !cache.routes.contains(where: { $0.id == request.id }), !state.routes.contains(where: { $0.id == request.id }) else {
                    throw CommuteError.routeExists(request.id)
                }
                guard state.routes.count < TransitState.largestRouteCount else {
                    throw TransitProblem("there are \(TransitState.largestRouteCount) transit routes already; remove one first")
                }
                try saveTimetable(timetable, for: request.id)
                saved = true
                state.routes.append(route)
            })
        } catch {
            if saved { unlink(store.transitPath(request.id.rawValue, "timetable.json")) }
            throw error
        }
        try commute.reschedule()
        return route
    }

    func saveTimetable(_ timetable: TransitTimetable, for routeID: RouteID) throws {
        try store.makeTransitDirectory()
        try AtomicFile.write(Array(try StoreCoding.encoder.encode(timetable)), to: store.transitPath(routeID.rawValue, "timetable.json"))
    }

    func loadTimetable(for routeID: RouteID) throws -> TransitTimetable {
        let path = store.transitPath(routeID.rawValue, "timetable.json")
        guard let data = try RegularFile.read(path, maximumSize: 64 << 20) else {
            throw TransitProblem("route \(routeID)'s timetable is missing (\(path)): remove the route and add it again")
        }
        do {
            return try StoreCoding.decoder.decode(TransitTimetable.self, from: data)
        } catch {
            throw StoreError.unreadable(path: path, reason: "not a timetable: remove the route and add it again")
        }
    }
}
