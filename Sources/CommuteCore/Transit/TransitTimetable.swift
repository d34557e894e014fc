import Foundation

/// What a transit route keeps of an agency's GTFS timetable: the trips that serve its first stop
/// and then its second (any line, or one), when each leaves the one and reaches the other, and the
/// service days they run on. Read from the archive in one streaming pass over `stop_times.txt`,
/// keeping only rows at those stops, so a timetable of two million rows costs the few hundred
/// trips kept.
public struct TransitTimetable: Codable, Sendable, Equatable {
    /// One trip from the first stop to the second.
    public struct Trip: Codable, Sendable, Equatable {
        public var id: String
        public var routeID: String
        /// The line as riders know it: the route's short name, else its long name, else its ID.
        public var line: String
        public var headsign: String
        public var serviceID: String
        /// Seconds after the service day's noon less 12 hours (GTFS time; may pass 24:00:00).
        public var departure: Int
        public var arrival: Int
        public var fromSequence: Int
        public var toSequence: Int
        /// When the trip leaves its first stop: what a frequency window's start times.
        public var start: Int
        /// For a frequency-based trip: its windows, the template's times shifted by each headway.
        public var frequencies: [Frequency]?
    }

    public struct Frequency: Codable, Sendable, Equatable {
        public var start: Int
        public var end: Int
        public var headway: Int
    }

    /// `calendar.txt`'s row (if any) and `calendar_dates.txt`'s exceptions for one service.
    public struct Service: Codable, Sendable, Equatable {
        /// Monday first, as calendar.txt lists them.
        public var weekdays: [Bool] = []
        /// YYYYMMDD, both inclusive.
        public var start: Int = 0
        public var end: Int = 0
        public var added: Set<Int> = []
        public var removed: Set<Int> = []

        /// Whether the service runs on `date`: added that day, or in its range on its weekday and
        /// not removed that day.
        public func runs(on date: CivilDate) -> Bool {
            let key = date.year * 10_000 + date.month * 100 + date.day
            if added.contains(key) { return true }
            if removed.contains(key) { return false }
            guard weekdays.count == 7, (start...max(start, end)).contains(key) else { return false }
            return weekdays[date.weekday.mondayFirstIndex]
        }
    }

    public var timeZone: String
    /// The two stops' names, as `stops.txt` gives them.
    public var fromName: String?
    public var toName: String?
    public var fromStops: [String]
    public var toStops: [String]
    public var trips: [Trip]
    public var services: [String: Service]

    /// The most trips kept for one pair of stops: far past any real route's.
    public static let largestTripCount = 20_000

    /// Reads the trips of `archive` that call at one of `from` (a stop, or a station and its
    /// platforms) and later at one of `to`, on `line` when given (a route's short name or ID).
    public init(archive: ZipArchive, from: String, to: String, line: String? = nil) throws {
        timeZone = try Self.timeZone(of: archive)
        // A station stands for its platforms.
        var fromStops: Set<String> = [from]
        var toStops: Set<String> = [to]
        var known: Set<String> = []
        var names: [String: String] = [:]
        try GTFSTable.read("stops.txt", in: archive, columns: ["stop_id", "parent_station", "stop_name"]) { row in
            let id = String(row[0])
            known.insert(id)
            if row[1] == from { fromStops.insert(id) }
            if row[1] == to { toStops.insert(id) }
            if id == from || id == to, !row[2].isEmpty { names[id] = DisplayText.line(String(row[2].prefix(120))) }
            return true
        }
        fromName = names[from]
        toName = names[to]
        for stop in [from, to] where !known.contains(stop) { throw ZipProblem("stops.txt has no stop \(DisplayText.line(String(stop.prefix(64))))") }
        self.fromStops = fromStops.sorted()
        self.toStops = toStops.sorted()
        var lines: [String: String] = [:]
        try GTFSTable.read("routes.txt", in: archive, columns: ["route_id", "route_short_name", "route_long_name"]) { row in
            let name = !row[1].isEmpty ? row[1] : !row[2].isEmpty ? row[2] : row[0]
            lines[String(row[0])] = DisplayText.line(String(name.prefix(64)))
            return true
        }
        if let line, !lines.contains(where: { $0.key == line || $0.value == line }) {
            throw ZipProblem("routes.txt has no line \(DisplayText.line(String(line.prefix(64))))")
        }
        var tripInfo: [String: (route: String, service: String, headsign: String)] = [:]
        try GTFSTable.read("trips.txt", in: archive, columns: ["trip_id", "route_id", "service_id", "trip_headsign"]) { row in
            let route = String(row[1])
            if let line, route != line, lines[route] != line { return true }
            tripInfo[String(row[0])] = (route, String(row[2]), DisplayText.line(String(row[3].prefix(80))))
            return true
        }
        // Each trip's first call at the first stop, and its calls at the second (rows may come in
        // any order): the trip goes from the one to the first of the others after it.
        var departures: [String: (time: Int, sequence: Int)] = [:]
        var arrivals: [String: [(time: Int, sequence: Int)]] = [:]
        var starts: [String: (time: Int, sequence: Int)] = [:]
        let wanted = fromStops.union(toStops)
        try GTFSTable.read("stop_times.txt", in: archive, columns: ["trip_id", "stop_id", "stop_sequence", "arrival_time", "departure_time"]) { row in
            let trip = String(row[0])
            guard tripInfo[trip] != nil, let sequence = Int(row[2]) else { return true }
            if sequence < starts[trip]?.sequence ?? .max, let time = Self.seconds(row[4].isEmpty ? row[3] : row[4]) {
                starts[trip] = (time, sequence)
            }
            let stop = String(row[1])
            guard wanted.contains(stop) else { return true }
            if fromStops.contains(stop), sequence < departures[trip]?.sequence ?? .max, let time = Self.seconds(row[4].isEmpty ? row[3] : row[4]) {
                departures[trip] = (time, sequence)
            }
            if toStops.contains(stop), let time = Self.seconds(row[3].isEmpty ? row[4] : row[3]), (arrivals[trip]?.count ?? 0) < 64 {
                arrivals[trip, default: []].append((time, sequence))
            }
            return true
        }
        var calls: [String: (departure: Int, sequence: Int, arrival: Int?, toSequence: Int?)] = [:]
        for (trip, departure) in departures {
            let later = (arrivals[trip] ?? []).filter { $0.sequence > departure.sequence }.min { $0.sequence < $1.sequence }
            calls[trip] = (departure.time, departure.sequence, later?.time, later?.sequence)
        }
        trips = calls.compactMap { id, call in
            guard let arrival = call.arrival, let toSequence = call.toSequence, let info = tripInfo[id] else { return nil }
            return Trip(
                id: id, routeID: info.route, line: lines[info.route] ?? info.route, headsign: info.headsign, serviceID: info.service,
                departure: call.departure, arrival: arrival, fromSequence: call.sequence, toSequence: toSequence,
                start: starts[id]?.time ?? call.departure)
        }.sorted { $0.departure != $1.departure ? $0.departure < $1.departure : $0.id < $1.id }
        guard trips.count <= Self.largestTripCount else { throw ZipProblem("over \(Self.largestTripCount) trips serve these stops") }
        let serviceIDs = Set(trips.map(\.serviceID))
        var services: [String: Service] = [:]
        if archive.entries["calendar.txt"] != nil {
            let days = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
            try GTFSTable.read("calendar.txt", in: archive, columns: ["service_id", "start_date", "end_date"] + days) { row in
                let id = String(row[0])
                guard serviceIDs.contains(id), let start = Int(row[1]), let end = Int(row[2]) else { return true }
                services[id, default: Service()].weekdays = (3..<10).map { row[$0] == "1" }
                services[id]?.start = start
                services[id]?.end = end
                return true
            }
        }
        if archive.entries["calendar_dates.txt"] != nil {
            try GTFSTable.read("calendar_dates.txt", in: archive, columns: ["service_id", "date", "exception_type"]) { row in
                let id = String(row[0])
                guard serviceIDs.contains(id), let date = Int(row[1]) else { return true }
                if row[2] == "1" { services[id, default: Service()].added.insert(date) }
                if row[2] == "2" { services[id, default: Service()].removed.insert(date) }
                return true
            }
        }
        self.services = services
        if archive.entries["frequencies.txt"] != nil {
            var byTrip: [String: [Frequency]] = [:]
            let ids = Set(trips.map(\.id))
            try GTFSTable.read("frequencies.txt", in: archive, columns: ["trip_id", "start_time", "end_time", "headway_secs"]) { row in
                let id = String(row[0])
                guard ids.contains(id), let start = Self.seconds(row[1]), let end = Self.seconds(row[2]), let headway = Int(row[3]),
                    headway >= 60, end > start
                else { return true }
                byTrip[id, default: []].append(Frequency(start: start, end: end, headway: headway))
                return true
            }
            for index in trips.indices { trips[index].frequencies = byTrip[trips[index].id] }
        }
    }

    /// What a feed holds, counted in one pass over each file a route reads — every entry
    /// inflated and checked (sizes, CRC, quoting, line length) before the feed is taken.
    public struct Contents: Sendable, Equatable {
        public var timeZone: String
        public var stops: Int
        public var lines: Int
        public var trips: Int
    }

    public static func contents(of archive: ZipArchive) throws -> Contents {
        var contents = Contents(timeZone: try timeZone(of: archive), stops: 0, lines: 0, trips: 0)
        for (file, column) in [("stops.txt", "stop_id"), ("routes.txt", "route_id"), ("trips.txt", "trip_id")] {
            var count = 0
            try GTFSTable.read(file, in: archive, columns: [column]) { _ in
                count += 1
                return true
            }
            switch file {
            case "stops.txt": contents.stops = count
            case "routes.txt": contents.lines = count
            default: contents.trips = count
            }
        }
        try GTFSTable.read("stop_times.txt", in: archive, columns: ["trip_id"]) { _ in true }
        for file in ["calendar.txt", "calendar_dates.txt", "frequencies.txt"] where archive.entries[file] != nil {
            try GTFSTable.read(file, in: archive, columns: ["service_id"].filter { _ in file != "frequencies.txt" }) { _ in true }
        }
        guard archive.entries["calendar.txt"] != nil || archive.entries["calendar_dates.txt"] != nil else {
            throw ZipProblem("it has neither calendar.txt nor calendar_dates.txt: no day has service")
        }
        return contents
    }

    /// The agency's time zone, from `agency.txt` (one zone for every agency of a feed).
    public static func timeZone(of archive: ZipArchive) throws -> String {
        var zone: String?
        try GTFSTable.read("agency.txt", in: archive, columns: ["agency_timezone"]) { row in
            zone = String(row[0])
            return false
        }
        guard let name = zone, TimeZone(identifier: name) != nil else {
            throw ZipProblem("agency.txt names no time zone that exists")
        }
        return name
    }

    /// `HH:MM:SS` (or `H:MM:SS`, hours past 24 allowed, up to 7 days) in seconds; nil otherwise.
    static func seconds(_ text: Substring) -> Int? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, (1...3).contains(parts[0].count), parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.allSatisfy(\.isASCIIDigit) }),
            let hours = Int(parts[0]), let minutes = Int(parts[1]), let seconds = Int(parts[2]), hours < 168, minutes < 60, seconds < 60
        else { return nil }
        return hours * 3_600 + minutes * 60 + seconds
    }
}
