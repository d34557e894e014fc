import FoundationEssentials

/// An agency's GTFS feeds, as `transit add` saves them in `config.json` (mode 0600): the URLs may
/// carry a key, and the header values are secrets, so they are written nowhere else.
public struct TransitFeed: Codable, Sendable, Equatable {
    /// A request header an agency wants: `X-Api-Key: …`.
    public struct Header: Codable, Sendable, Equatable {
        public var name: String
        public var value: String

        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }

        /// Reads `Name: value`; nil for anything else (a name of token characters, a value on one
        /// line without control characters).
        public init?(_ text: String) {
            guard let colon = text.firstIndex(of: ":") else { return nil }
            let name = text[..<colon].trimmingWhitespace()
            let value = text[text.index(after: colon)...].trimmingWhitespace()
            self.init(name: name, value: value)
            guard isValid else { return nil }
        }

        public var isValid: Bool {
            !name.isEmpty && name.utf8.count <= 64 && !value.isEmpty && value.utf8.count <= 4_096
                && name.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_".unicodeScalars.contains($0)) }
                && value.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7F }
        }
    }

    public var name: String
    /// The timetable zip: an http(s) URL, a `file://` URL or a path.
    public var staticURL: String
    /// GTFS-realtime trip updates, and service alerts.
    public var realtimeURL: String?
    public var alertsURL: String?
    public var headers: [Header]?

    public init(name: String, staticURL: String, realtimeURL: String? = nil, alertsURL: String? = nil, headers: [Header]? = nil) {
        self.name = name
        self.staticURL = staticURL
        self.realtimeURL = realtimeURL
        self.alertsURL = alertsURL
        self.headers = headers
    }

    /// 1 to 40 lowercase letters, digits and dashes, starting with a letter: `metro`, `kcm-2`.
    public static func isValidName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, ("a"..."z").contains(first), name.utf8.count <= 40, name.last != "-" else { return false }
        return name.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
    }

    /// The URLs in the order they are fetched, with what each is.
    public var locations: [(kind: String, text: String)] {
        [("static", staticURL)] + (realtimeURL.map { [("realtime", $0)] } ?? []) + (alertsURL.map { [("alerts", $0)] } ?? [])
    }

    /// Everything of it that must never be shown: the header values, and the URLs' credentials —
    /// user, password, query values and each path segment (an agency's key is often in the path:
    /// `https://host/KEY/trip.pb`).
    public var secrets: [String] {
        (headers ?? []).map(\.value) + locations.flatMap { Self.urlSecrets($0.text) }
    }

    /// A URL's secret parts, its path's included (`FeedSource.pathSecrets`); none for a file.
    static func urlSecrets(_ text: String) -> [String] { FeedSource.pathSecrets(in: text) }

    /// A feed file's location as it may be shown: a path as it is; a URL as its scheme and host,
    /// its path and query hidden (`https://host/…`), since either may hold the agency's key.
    public static func shown(_ text: String) -> String {
        guard FeedSource.looksLikeURL(text) else { return text }
        guard let components = URLComponents(string: text), let scheme = components.scheme, let host = components.percentEncodedHost
        else { return "(a URL that cannot be read)" }
        let rest = components.percentEncodedPath.count > 1 || components.percentEncodedQuery != nil ? "/…" : ""
        return "\(scheme)://\(components.percentEncodedUser != nil ? "REDACTED@" : "")\(host)\(components.port.map { ":\($0)" } ?? "")\(rest)"
    }

    /// The headers every request carries.
    public var requestHeaders: [String: String] {
        Dictionary((headers ?? []).map { ($0.name, $0.value) }, uniquingKeysWith: { _, last in last })
    }
}

/// Where a feed's file is: a URL to fetch, or a file to read (`file://` or a path).
public enum TransitLocation: Sendable, Equatable {
    case url(URL)
    case file(String)

    /// Nil for text that cannot be either: an http(s) URL without a host, a `file://` URL that is
    /// not a local path, an empty path.
    public init?(_ text: String) {
        let lower = text.lowercased()
        if lower.hasPrefix("file://") {
            guard let url = URL(string: text), url.isFileURL, url.host == nil || url.host == "" || url.host == "localhost",
                !url.path.isEmpty
            else { return nil }
            self = .file(url.path)
            return
        }
        guard !text.isEmpty, let source = FeedSource(text) else { return nil }
        switch source {
        case .url(let url): self = .url(url)
        case .file(let path): self = .file(path)
        }
    }
}

extension Route {
    /// What makes a route a transit trip: two stops of an agency's feed (a station stands for its
    /// platforms), perhaps one line, the walk to the first stop, and the departures the last
    /// refresh saw.
    public struct Transit: Codable, Sendable, Equatable {
        public var feed: String
        public var fromStop: String
        public var toStop: String
        /// A route's short name or ID; nil for any line between the stops.
        public var line: String?
        public var walkMinutes: Int
        /// The stops' names as the feed gives them.
        public var fromName: String?
        public var toName: String?
        /// The coming departures, soonest first, as the last refresh worked them out.
        public var departures: [TransitDeparture]
        /// When the realtime feed these departures used was produced; nil when they are the
        /// timetable's alone (no realtime feed, or none that could be read).
        public var realtimeAt: Date?
        /// How far ahead `departures` were worked out: the timetable's end of knowledge.
        public var coveredUntil: Date?
        /// Why there is no live data, when a realtime feed is configured but could not be used.
        public var realtimeProblem: String?
        /// The service alerts in force that name the line or either stop: their headers.
        public var notices: [String]?
        /// The first and last days its timetable has service (day numbers, in the agency's
        /// zone): why a route with no departure has none.
        public var serviceFrom: Int?
        public var serviceUntil: Int?
        /// The first day, from the day it was planned on, on which any of its trips runs (within two
        /// weeks; nil past them): why a weekday service has no departure at the weekend.
        public var nextServiceDay: Int?
        /// The planner whose itineraries these departures are (Transitous); nil for a GTFS feed's.
        public var planner: RouteProvider?
        /// The runs a leave alert named and a rider may be walking to, as the last realtime feed
        /// has them: gone from `departures` once the walk to them is longer than the time left,
        /// kept here while they are followed (`FollowedTrip`). Nil when none is.
        public var followed: [TransitDeparture]?
        /// The most followed runs kept for one route.
        public static let largestFollowedCount = 16

        public init(
            feed: String, fromStop: String, toStop: String, line: String?, walkMinutes: Int, fromName: String? = nil,
            toName: String? = nil, departures: [TransitDeparture] = [], realtimeAt: Date? = nil
        ) {
            self.feed = feed
            self.fromStop = fromStop
            self.toStop = toStop
            self.line = line
            self.walkMinutes = walkMinutes
            self.fromName = fromName
            self.toName = toName
            self.departures = departures
            self.realtimeAt = realtimeAt
        }

        /// The most departures kept: a day and a half of a bus every minute, and more. Past it, the
        /// departures kept end sooner than a day and a half, and `coveredUntil` says where.
        public static let largestDepartureCount = 3_000
        /// The longest walk to the first stop.
        public static let longestWalk = 180
        /// The most notices kept, and the longest.
        public static let largestNoticeCount = 5
        public static let longestNotice = 300
        /// The instants a departure may be at: what no calendar arithmetic traps on.
        public static let plausibleDates: ClosedRange<Date> = Date(timeIntervalSince1970: 0)...Date(timeIntervalSince1970: 7_258_118_400)

        /// The departures whose expected time is at or after `moment`, soonest first: a bus late
        /// past its scheduled time is still one; a cancelled one is listed at its scheduled time.
        public func departures(after moment: Date) -> [TransitDeparture] {
            departures.filter { ($0.canceled ? $0.scheduled : $0.expected) >= moment }
        }

        /// A departure that can be taken: not cancelled, and calling at the first stop.
        public static func isRunning(_ departure: TransitDeparture) -> Bool { !departure.canceled && !departure.skipped && !departure.dropped }

        /// For an arrival at `arrival`: the timetable's last departure that reaches the second stop
        /// by then (what the plan was), and the last running one predicted to (what to take).
        /// Nil when the departures kept do not reach `arrival` (a day and a half ahead): the
        /// leave time then rests on the usual time until a refresh brings them.
        public func choice(arrivingBy arrival: Date) -> Choice? {
            guard let until = coveredUntil, arrival <= until else { return nil }
            let planned = departures.last { $0.scheduledArrival <= arrival }
            guard let chosen = departures.last(where: { Self.isRunning($0) && $0.arrival <= arrival }) else { return nil }
            return Choice(planned: planned, chosen: chosen)
        }

        /// The next departure one could plan for at `moment` (the timetable's next), and the one to
        /// take for it: the first running one from then on.
        public func next(at moment: Date) -> Choice? {
            let leaving = moment.addingTimeInterval(TimeInterval(walkMinutes * 60))
            let coming = departures(after: leaving)
            guard let chosen = coming.first(where: Self.isRunning) else { return nil }
            let planned = coming.first { $0.scheduled >= leaving } ?? chosen
            return Choice(planned: planned, chosen: chosen)
        }

        /// A departure picked for a trip: the timetable's, and the one to take.
        public struct Choice: Sendable, Equatable {
            /// Nil when the timetable has none that fits (only a running late one does).
            public var planned: TransitDeparture?
            public var chosen: TransitDeparture
            /// The bus an earlier plan of the same occurrence was on, when it is another: what the
            /// alert says moved the plan. `replaced` is that bus as the departures have it now
            /// (nil once it is gone from them).
            public var replacedRun: TransitRun?
            public var replaced: TransitDeparture?

            /// What the plan remembers for next time.
            public var memory: TransitMemory { TransitMemory(departure: chosen.run, replaced: replacedRun) }

            /// How much later the trip arrives than the plan said, in whole minutes (rounded up):
            /// a delay, or the wait for the next bus after a cancellation.
            public var delayMinutes: Int {
                guard let planned else { return 0 }
                return max(0, Int((chosen.arrival.timeIntervalSince(planned.scheduledArrival) / 60).rounded(.up)))
            }

            /// The plan's departure is cancelled or skips the stop, and another is to be taken.
            public var plannedIsLost: Bool {
                guard let planned else { return false }
                return !Transit.isRunning(planned) && !planned.isSameRun(as: chosen)
            }
        }
    }

    /// The route with its times as of `moment`: for a transit route, the walk and the ride of the
    /// next departure one could plan for, as the timetable has it (`average`) and as it will be
    /// (`current`: later by the bus's delay, or by the wait for the next after a cancellation);
    /// any other route as it is.
    public func at(_ moment: Date) -> Route {
        guard let transit = departures else { return self }
        var route = self
        route.suspiciousMinutes = nil
        guard let next = transit.next(at: moment) else {
            route.currentMinutes = nil
            route.averageMinutes = nil
            return route
        }
        let planned = next.planned ?? next.chosen
        let ride = max(1, Int((planned.scheduledArrival.timeIntervalSince(planned.scheduled) / 60).rounded(.up)))
        route.averageMinutes = ride + transit.walkMinutes
        route.currentMinutes = ride + transit.walkMinutes + next.delayMinutes
        // A delay held back as outside what the trip can be: shown as a held-back reading.
        if let held = next.chosen.heldDelaySeconds {
            route.suspiciousMinutes = ride + transit.walkMinutes + Int((Double(held) / 60).rounded(.up))
            route.currentMinutes = nil
        }
        return route
    }
}

extension TransitDeparture: Codable {
    private enum CodingKeys: String, CodingKey {
        case tripID = "trip", line, headsign, scheduled, predicted, delaySeconds, canceled, skipped, arrival, scheduledArrival, heldDelaySeconds, legs, transfers, dropped,
            notices, predictedAt, itinerary
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        tripID = try container.decode(String.self, forKey: .tripID)
        line = try container.decode(String.self, forKey: .line)
        headsign = try container.decode(String.self, forKey: .headsign)
        scheduled = try container.decode(Date.self, forKey: .scheduled)
        predicted = try container.decodeIfPresent(Date.self, forKey: .predicted)
        delaySeconds = try container.decodeIfPresent(Int.self, forKey: .delaySeconds)
        canceled = try container.decodeIfPresent(Bool.self, forKey: .canceled) ?? false
        skipped = try container.decodeIfPresent(Bool.self, forKey: .skipped) ?? false
        arrival = try container.decode(Date.self, forKey: .arrival)
        scheduledArrival = try container.decodeIfPresent(Date.self, forKey: .scheduledArrival) ?? arrival
        heldDelaySeconds = try container.decodeIfPresent(Int.self, forKey: .heldDelaySeconds)
        legs = try container.decodeIfPresent([TransitLeg].self, forKey: .legs)
        transfers = try container.decodeIfPresent(Int.self, forKey: .transfers)
        dropped = try container.decodeIfPresent(Bool.self, forKey: .dropped) ?? false
        notices = try container.decodeIfPresent([String].self, forKey: .notices)
        predictedAt = try container.decodeIfPresent(Date.self, forKey: .predictedAt)
        itinerary = try container.decodeIfPresent(String.self, forKey: .itinerary)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(tripID, forKey: .tripID)
        try container.encode(line, forKey: .line)
        try container.encode(headsign, forKey: .headsign)
        try container.encode(scheduled, forKey: .scheduled)
        try container.encodeIfPresent(predicted, forKey: .predicted)
        try container.encodeIfPresent(delaySeconds, forKey: .delaySeconds)
        if canceled { try container.encode(true, forKey: .canceled) }
        if skipped { try container.encode(true, forKey: .skipped) }
        try container.encode(arrival, forKey: .arrival)
        if scheduledArrival != arrival { try container.encode(scheduledArrival, forKey: .scheduledArrival) }
        try container.encodeIfPresent(heldDelaySeconds, forKey: .heldDelaySeconds)
        try container.encodeIfPresent(legs, forKey: .legs)
        try container.encodeIfPresent(transfers, forKey: .transfers)
        if dropped { try container.encode(true, forKey: .dropped) }
        try container.encodeIfPresent(notices, forKey: .notices)
        try container.encodeIfPresent(predictedAt, forKey: .predictedAt)
        try container.encodeIfPresent(itinerary, forKey: .itinerary)
    }
}
