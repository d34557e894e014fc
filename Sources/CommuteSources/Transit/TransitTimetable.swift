import Basics
import FoundationEssentials

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

    /// The first day from `day` (a day number), within `days` days, on which any of its trips runs.
    public func nextServiceDay(from day: Int, within days: Int = 14) -> Int? {
        let running = Set(trips.map(\.serviceID)).compactMap { services[$0] }
        return (day...(day + days)).first { number in
            let date = CivilDate(dayNumber: number)
            return running.contains { $0.runs(on: date) }
        }
    }

    /// The first and last days any of its trips can run (from the calendars' ranges and the dates
    /// added), or nil when no service runs at all: what says why there is no departure.
    public var serviceDates: ClosedRange<CivilDate>? {
        var first: Int?, last: Int?
        func note(_ key: Int) {
            first = Swift.min(first ?? key, key)
            last = Swift.max(last ?? key, key)
        }
        for service in services.values {
            if service.weekdays.contains(true), service.start <= service.end {
                note(service.start)
                note(service.end)
            }
            service.added.forEach(note)
        }
        guard let first, let last else { return nil }
        let dates = [first, last].map { CivilDate(year: $0 / 10_000, month: $0 / 100 % 100, day: $0 % 100) }
        guard dates.allSatisfy(\.isValid) else { return nil }
        return dates[0]...dates[1]
    }

    /// The most frequency windows read: far past any real feed's.
    public static let largestFrequencyCount = 100_000

    /// The most trips kept for one pair of stops: far past any real route's.
    public static let largestTripCount = 20_000

    /// One route's pair of stops and line, as `init(archive:from:to:line:)` takes them.
    public struct Request: Sendable, Hashable {
        public var from: String
        public var to: String
        public var line: String?
        public init(from: String, to: String, line: String? = nil) {
            self.from = from
            self.to = to
            self.line = line
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

    /// A whole archive read once: its contents, and each request's timetable or why there is none.
    public struct Reading {
        public var contents: Contents
        public var timetables: [Result<TransitTimetable, ZipProblem>]
    }

    /// Reads `archive` in one pass over each file, for every request at once: a new timetable for
    /// a feed with many routes costs one pass over `stop_times.txt`, not one a route. A damaged
    /// archive throws; a request the archive cannot serve (a stop or line it lacks, too many
    /// trips) has its problem in its place. `checkingEverything` reads each file to its end even
    /// where no request needs it, and requires a calendar.
    public static func read(_ archive: ZipArchive, requests: [Request], checkingEverything: Bool) throws -> Reading {
        let timeZone = try timeZone(of: archive)
        let hasCalendar = archive.entries["calendar.txt"] != nil, hasDates = archive.entries["calendar_dates.txt"] != nil
        var contents = Contents(timeZone: timeZone, stops: 0, lines: 0, trips: 0)
        var problems: [ZipProblem?] = Array(repeating: nil, count: requests.count)

        // Frequency windows first (a small file), so the pass over stop_times.txt knows which
        // trips' first calls to note.
        var frequencies: [String: [Frequency]] = [:]
        if archive.entries["frequencies.txt"] != nil {
            var windows = 0
            try GTFSTable.read("frequencies.txt", in: archive, columns: ["trip_id", "start_time", "end_time", "headway_secs"]) { row in
                guard let start = Self.seconds(row[1]), let end = Self.seconds(row[2]), let headway = Int(row[3]), headway >= 60, end > start
                else { return true }
                windows += 1
                guard windows <= Self.largestFrequencyCount else {
                    throw ZipProblem("frequencies.txt holds over \(Self.largestFrequencyCount) windows")
                }
                frequencies[String(row[0]), default: []].append(Frequency(start: start, end: end, headway: headway))
                return true
            }
        }

        // A station stands for its platforms.
        let named = Set(requests.flatMap { [$0.from, $0.to] })
        var platforms: [String: Set<String>] = [:]
        var known: Set<String> = []
        var names: [String: String] = [:]
        try GTFSTable.read("stops.txt", in: archive, columns: ["stop_id", "parent_station", "stop_name"]) { row in
            contents.stops += 1
            let id = String(row[0])
            if named.contains(id) {
                known.insert(id)
                if !row[2].isEmpty { names[id] = DisplayText.line(String(row[2].prefix(120))) }
            }
            let parent = String(row[1])
            if named.contains(parent) { platforms[parent, default: []].insert(id) }
            return checkingEverything || !named.isEmpty
        }
        var fromStops: [Set<String>] = [], toStops: [Set<String>] = []
        for (index, request) in requests.enumerated() {
            fromStops.append(platforms[request.from, default: []].union([request.from]))
            toStops.append(platforms[request.to, default: []].union([request.to]))
            if let missing = [request.from, request.to].first(where: { !known.contains($0) }) {
                problems[index] = ZipProblem("stops.txt has no stop \(DisplayText.line(String(missing.prefix(64))))")
            }
        }

        var lines: [String: String] = [:]
        try GTFSTable.read("routes.txt", in: archive, columns: ["route_id", "route_short_name", "route_long_name"]) { row in
            contents.lines += 1
            let name = !row[1].isEmpty ? row[1] : !row[2].isEmpty ? row[2] : row[0]
            lines[String(row[0])] = DisplayText.line(String(name.prefix(64)))
            return true
        }
        for (index, request) in requests.enumerated() where problems[index] == nil {
            if let line = request.line, !lines.contains(where: { $0.key == line || $0.value == line }) {
                problems[index] = ZipProblem("routes.txt has no line \(DisplayText.line(String(line.prefix(64))))")
            }
        }
        /// Whether a trip on route `route` is one request `index` takes.
        func serves(_ index: Int, route: String) -> Bool {
            guard let line = requests[index].line else { return true }
            return route == line || lines[route] == line
        }

        // Which request wants each stop, and as which end.
        var uses: [String: [(request: Int, isFrom: Bool, isTo: Bool)]] = [:]
        for index in requests.indices where problems[index] == nil {
            for stop in fromStops[index].union(toStops[index]) {
                uses[stop, default: []].append((index, fromStops[index].contains(stop), toStops[index].contains(stop)))
            }
        }
        // Each trip's calls at a request's first stop and at its second (rows may come in any
        // order): each call at the second is reached from the last call at the first before it,
        // so a loop that passes both stops twice is two departures. stop_times.txt is read before
        // trips.txt, so that only the trips that call at the stops are ever held — however many
        // trips the feed has — and a request whose stops too many trips call at stops collecting.
        // A call where the rider may not board (pickup_type 1) is no departure, one where the
        // rider may not get off (drop_off_type 1) no arrival: a night bus that only sets down at
        // the first stop is not a bus to take from it. A call with no time (an untimed stop, which
        // GTFS leaves to the reader to interpolate) is timed afterwards from its trip's timed calls.
        var departures: [[String: [(time: Int, sequence: Int)]]] = Array(repeating: [:], count: requests.count)
        var arrivals: [[String: [(time: Int, sequence: Int)]]] = Array(repeating: [:], count: requests.count)
        var starts: [String: (time: Int, sequence: Int)] = [:]
        var untimed: [String: [UntimedCall]] = [:]
        let collectedTrips = 4 * Self.largestTripCount
        let readsAll = checkingEverything || !uses.isEmpty
        if readsAll {
            try GTFSTable.read(
                "stop_times.txt", in: archive,
                columns: ["trip_id", "stop_id", "stop_sequence", "arrival_time", "departure_time", "pickup_type", "drop_off_type"]
            ) { row in
                let stop = String(row[1])
                let stopUses = uses[stop]
                guard stopUses != nil || !frequencies.isEmpty else { return true }
                let trip = String(row[0])
                if !frequencies.isEmpty, frequencies[trip] != nil, let sequence = Int(row[2]), sequence < starts[trip]?.sequence ?? .max,
                    let time = Self.seconds(row[4].isEmpty ? row[3] : row[4])
                {
                    starts[trip] = (time, sequence)
                }
                guard let stopUses, let sequence = Int(row[2]) else { return true }
                let boards = row[5] != "1", alights = row[6] != "1"
                let leaves = Self.seconds(row[4].isEmpty ? row[3] : row[4]), reaches = Self.seconds(row[3].isEmpty ? row[4] : row[3])
                for use in stopUses where problems[use.request] == nil {
                    if use.isFrom, boards, (departures[use.request][trip]?.count ?? 0) < 64 {
                        if let leaves {
                            departures[use.request][trip, default: []].append((leaves, sequence))
                        } else if row[3].isEmpty, row[4].isEmpty, (untimed[trip]?.count ?? 0) < 64 {
                            untimed[trip, default: []].append(UntimedCall(request: use.request, sequence: sequence, isFrom: true))
                        }
                    }
                    if use.isTo, alights, (arrivals[use.request][trip]?.count ?? 0) < 64 {
                        if let reaches {
                            arrivals[use.request][trip, default: []].append((reaches, sequence))
                        } else if row[3].isEmpty, row[4].isEmpty, (untimed[trip]?.count ?? 0) < 64 {
                            untimed[trip, default: []].append(UntimedCall(request: use.request, sequence: sequence, isFrom: false))
                        }
                    }
                    if departures[use.request].count > collectedTrips || arrivals[use.request].count > collectedTrips || untimed.count > collectedTrips {
                        problems[use.request] = ZipProblem("over \(Self.largestTripCount) trips serve these stops")
                        departures[use.request] = [:]
                        arrivals[use.request] = [:]
                    }
                }
                return true
            }
        }
        if !untimed.isEmpty {
            for (trip, calls) in try Self.interpolated(untimed, in: archive) {
                for call in calls where problems[call.request] == nil {
                    if call.isFrom {
                        departures[call.request][trip, default: []].append((call.time, call.sequence))
                    } else {
                        arrivals[call.request][trip, default: []].append((call.time, call.sequence))
                    }
                }
            }
        }

        // Then the trips that call there, and no others.
        let calling = Set(requests.indices.flatMap { departures[$0].keys })
        var tripInfo: [String: (route: String, service: String, headsign: String)] = [:]
        try GTFSTable.read("trips.txt", in: archive, columns: ["trip_id", "route_id", "service_id", "trip_headsign"]) { row in
            contents.trips += 1
            let id = String(row[0])
            guard calling.contains(id) else { return true }
            tripInfo[id] = (String(row[1]), String(row[2]), DisplayText.line(String(row[3].prefix(80))))
            return true
        }

        var kept: [[Trip]] = Array(repeating: [], count: requests.count)
        for index in requests.indices where problems[index] == nil {
            var trips: [Trip] = []
            for (id, calls) in departures[index] {
                guard let info = tripInfo[id], serves(index, route: info.route) else { continue }
                for (departure, later) in Self.boardings(calls, arrivals[index][id] ?? []) {
                    trips.append(Trip(
                        id: id, routeID: info.route, line: lines[info.route] ?? info.route, headsign: info.headsign, serviceID: info.service,
                        departure: departure.time, arrival: later.time, fromSequence: departure.sequence, toSequence: later.sequence,
                        start: starts[id]?.time ?? departure.time, frequencies: frequencies[id]))
                }
                if trips.count > Self.largestTripCount { break }
            }
            guard trips.count <= Self.largestTripCount else {
                problems[index] = ZipProblem("over \(Self.largestTripCount) trips serve these stops")
                continue
            }
            kept[index] = trips.sorted { $0.departure != $1.departure ? $0.departure < $1.departure : $0.id < $1.id }
        }

        let serviceIDs = Set(kept.joined().map(\.serviceID))
        var services: [String: Service] = [:]
        if hasCalendar, checkingEverything || !serviceIDs.isEmpty {
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
        if hasDates, checkingEverything || !serviceIDs.isEmpty {
            try GTFSTable.read("calendar_dates.txt", in: archive, columns: ["service_id", "date", "exception_type"]) { row in
                let id = String(row[0])
                guard serviceIDs.contains(id), let date = Int(row[1]) else { return true }
                if row[2] == "1" { services[id, default: Service()].added.insert(date) }
                if row[2] == "2" { services[id, default: Service()].removed.insert(date) }
                return true
            }
        }

        if checkingEverything, !hasCalendar, !hasDates {
            throw ZipProblem("it has neither calendar.txt nor calendar_dates.txt: no day has service")
        }

        let timetables = requests.indices.map { index -> Result<TransitTimetable, ZipProblem> in
            if let problem = problems[index] { return .failure(problem) }
            let trips = kept[index]
            let ids = Set(trips.map(\.serviceID))
            return .success(TransitTimetable(
                timeZone: timeZone, fromName: names[requests[index].from], toName: names[requests[index].to],
                fromStops: fromStops[index].sorted(), toStops: toStops[index].sorted(), trips: trips,
                services: services.filter { ids.contains($0.key) }))
        }
        return Reading(contents: contents, timetables: timetables)
    }

    /// A trip's rides from its calls at the first stop to its calls at the second: each call at
    /// the second, reached from the last call at the first before it (and after the call at the
    /// second before that). A trip that passes A, B, then A and B again is two rides; one that
    /// passes A twice before B is one, boarded at the later A.
    static func boardings(
        _ from: [(time: Int, sequence: Int)], _ to: [(time: Int, sequence: Int)]
    ) -> [(departure: (time: Int, sequence: Int), arrival: (time: Int, sequence: Int))] {
        let boardings = from.sorted { $0.sequence < $1.sequence }
        var rides: [(departure: (time: Int, sequence: Int), arrival: (time: Int, sequence: Int))] = []
        var previousArrival = Int.min
        for arrival in to.sorted(by: { $0.sequence < $1.sequence }) {
            guard let boarding = boardings.last(where: { $0.sequence < arrival.sequence && $0.sequence > previousArrival }) else { continue }
            rides.append((boarding, arrival))
            previousArrival = arrival.sequence
        }
        return rides
    }

    /// The agency's time zone, from `agency.txt` (one zone for every agency of a feed).
    public static func timeZone(of archive: ZipArchive) throws -> String {
        var zone: String?
        try GTFSTable.read("agency.txt", in: archive, columns: ["agency_timezone"]) { row in
            zone = String(row[0])
            return false
        }
        guard let name = zone, IANAZone(identifier: name) != nil else {
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

extension TransitTimetable {
    /// The trips of `archive` that call at one of `from` (a stop, or a station and its platforms)
    /// and later at one of `to`, on `line` when given (a route's short name or ID).
    public init(archive: ZipArchive, from: String, to: String, line: String? = nil) throws {
        self = try Self.read(archive, requests: [Request(from: from, to: to, line: line)], checkingEverything: false).timetables[0].get()
    }
}
