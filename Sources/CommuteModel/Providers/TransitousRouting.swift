import Basics
import FoundationEssentials

extension RouteProvider.Descriptor {
    /// Transitous asks that routing be used sparingly: its plan limit is 20 a minute per address,
    /// and a commute needs a few a day.
    static let transitous = keyless(
        "transitous", displayName: "Transitous", mode: .transit, url: "https://api.transitous.org", budget: 200, perMinute: 20,
        historyCode: 5, software: "MOTIS", urlNote: " (else `config set transitous-url`: a self-hosted MOTIS, a test server)",
        asked: [
            "GET /api/v6/plan (no key): door-to-door itineraries, leaving at the",
            "alert's time or arriving by its arrival; live delays and cancellations",
        ],
        service: TransitousRouting())
}

/// Transitous, the public keyless instance of the MOTIS router: `GET /api/v6/plan` for door-to-door
/// itineraries between two points, leaving at or arriving by a time (MOTIS's
/// `openapi.yaml`, github.com/motis-project/motis). Its answer's times are UTC; the legs say what is live.
struct TransitousRouting: RoutingService {
    /// How many itineraries to ask for, and the most kept.
    static let itineraryCount = 8
    static let largestItineraryCount = 64

    func request(from origin: Coordinate, to destination: Coordinate, key: String, base: String, query: RoutingQuery) -> RoutingAPI.Request? {
        // UTC with `Z`: a `+` in the query would be read as a space.
        let time = ISO8601.string(Date(timeIntervalSince1970: query.time.timeIntervalSince1970.rounded(.down)))
        return Self.getJSON(
            "\(base)/api/v6/plan?fromPlace=\(origin)&toPlace=\(destination)&time=\(time)&arriveBy=\(query.arriveBy)"
                + "&numItineraries=\(Self.itineraryCount)&detailedLegs=false")
    }

    func fault(status: Int, code: String?, message: String?) -> RoutingAPI.Fault? {
        switch status {
        case 403:
            // Its front refuses a request without a User-Agent of its own, in plain text.
            .refused("HTTP 403" + (message.map { ": \($0)" } ?? "") + " (its usage policy: https://transitous.org/api/)")
        case 404: .noRoute(message ?? "a place is unknown to Transitous")
        default: nil
        }
    }

    /// Read as it streams: a real answer's alerts can be megabytes (`MOTISPlanReader`).
    func answer(_ body: Data) -> [String: Any]? { MOTISPlanReader.read(body, largest: Self.largestItineraryCount) }

    func measurement(in answer: [String: Any]) throws -> Result<RoutingAPI.Measurement, RoutingAPI.Fault> {
        try measurement(in: answer, query: nil)
    }

    func measurement(in answer: [String: Any], query: RoutingQuery) throws -> Result<RoutingAPI.Measurement, RoutingAPI.Fault> {
        try measurement(in: answer, query: Optional(query))
    }

    /// How far from the time asked an itinerary may be and still answer it: leaving from an hour
    /// before to a day after (late at night the next runs are tomorrow's), or arriving from twelve
    /// hours before to an hour after. One further off — a year, or 74 — is for another question.
    static func isNear(_ itinerary: TransitDeparture, _ query: RoutingQuery) -> Bool {
        query.arriveBy
            ? (query.time.addingTimeInterval(-12 * 3_600)...query.time.addingTimeInterval(3_600)).contains(itinerary.arrival)
            : (query.time.addingTimeInterval(-3_600)...query.time.addingTimeInterval(86_400)).contains(itinerary.expected)
    }

    private func measurement(in answer: [String: Any], query: RoutingQuery?) throws -> Result<RoutingAPI.Measurement, RoutingAPI.Fault> {
        guard var list = answer["itineraries"] as? [Any] else { return .failure(.badAnswer("no itineraries in the answer")) }
        var field = "itineraries"
        // An answer whose only ways are on the street (a walk, a bike, a rental) has them in
        // `direct`, with no itinerary on a line: they are the ways to go. Beside a line's, they
        // are not taken (their time is the query's, not a run's).
        if list.isEmpty, let direct = answer["direct"] as? [Any], !direct.isEmpty {
            list = direct
            field = "direct"
        }
        var itineraries: [TransitDeparture] = []
        for (index, item) in list.prefix(Self.largestItineraryCount).enumerated() {
            guard let object = item as? [String: Any] else { throw RoutingAPI.Field.Problem("\(field)[\(index)] is not an object") }
            itineraries.append(try Self.itinerary(object, name: "\(field)[\(index)]"))
        }
        itineraries.sort { $0.expected < $1.expected }
        if let query, !itineraries.isEmpty {
            itineraries = itineraries.filter { Self.isNear($0, query) }
            if itineraries.isEmpty {
                return .failure(.noRoute("Transitous answered only with itineraries for another time (over \(query.arriveBy ? "12 hours before" : "a day after") the time asked)"))
            }
        }
        guard let first = itineraries.first(where: { !$0.canceled }) ?? itineraries.first else {
            return .failure(.noRoute("Transitous found no itinerary for that time"))
        }
        let result = RoutingAPI.measurement(
            now: first.arrival.timeIntervalSince(first.expected), usual: first.scheduledArrival.timeIntervalSince(first.scheduled), metres: nil)
        return result.map { measurement in
            var measurement = measurement
            measurement.itineraries = itineraries
            return measurement
        }
    }

    /// One itinerary as a departure from the door: its scheduled start is its live start less the
    /// first ride's delay, its scheduled arrival its live one less the last ride's.
    static func itinerary(_ object: [String: Any], name: String) throws -> TransitDeparture {
        typealias Problem = RoutingAPI.Field.Problem
        let start = try time(object["startTime"], "\(name).startTime")
        let end = try time(object["endTime"], "\(name).endTime")
        guard end >= start, end.timeIntervalSince(start) <= Double(Route.longestTravelMinutes * 60) else {
            throw Problem("\(name) ends before it starts, or takes over a day")
        }
        guard let legObjects = object["legs"] as? [Any], !legObjects.isEmpty else { throw Problem("\(name).legs is missing") }
        guard legObjects.count <= TransitLeg.largestCount else { throw Problem("\(name) has over \(TransitLeg.largestCount) legs") }
        var legs: [TransitLeg] = []
        for (index, item) in legObjects.enumerated() {
            guard let leg = item as? [String: Any] else { throw Problem("\(name).legs[\(index)] is not an object") }
            legs.append(try Self.leg(leg, name: "\(name).legs[\(index)]", within: start.addingTimeInterval(-86_400)...end.addingTimeInterval(86_400)))
        }
        let rides = legs.filter { !$0.isWalk }
        let firstDelay = rides.first.map { $0.departure.timeIntervalSince($0.scheduledDeparture) } ?? 0
        let lastRide = rides.last.flatMap { ride in legObjects.lazy.compactMap { $0 as? [String: Any] }.last { ($0["mode"] as? String) == ride.mode } }
        let lastDelay = try lastRide.flatMap { leg -> TimeInterval? in
            guard let scheduled = leg["scheduledEndTime"], let actual = leg["endTime"] else { return nil }
            return try time(actual, "\(name).endTime").timeIntervalSince(try time(scheduled, "\(name).scheduledEndTime"))
        } ?? 0
        let live = rides.contains(where: \.realtime)
        // A run is known by its first ride's trip (an itinerary's own ID may change with a delay).
        let firstTrip = legObjects.lazy.compactMap { $0 as? [String: Any] }.compactMap { $0["tripId"] as? String }.first
        var id = (firstTrip ?? object["id"] as? String).map { DisplayText.line(String($0.prefix(TransitRun.longestTrip))) } ?? ""
        if id.isEmpty { id = "\(ISO8601.string(Date(timeIntervalSince1970: start.timeIntervalSince1970.rounded(.down)))) " + rides.compactMap(\.line).joined(separator: ",") }
        // A way with no line is named by how it goes: `walk`, `bike`, `rental`.
        let lineName = rides.isEmpty
            ? Array(Set(legs.map { $0.mode.lowercased() })).sorted { $0 == "walk" ? false : $1 == "walk" ? true : $0 < $1 }.joined(separator: ", ")
            : rides.compactMap(\.line).joined(separator: " → ")
        var departure = TransitDeparture(
            tripID: String(id.prefix(TransitRun.longestTrip)), line: lineName,
            headsign: rides.last?.headsign ?? "", scheduled: start.addingTimeInterval(-firstDelay), predicted: live ? start : nil,
            delaySeconds: live ? Int(firstDelay) : nil, canceled: legs.contains(where: \.cancelled), skipped: false, arrival: end,
            scheduledArrival: end.addingTimeInterval(-lastDelay))
        departure.legs = legs
        departure.itinerary = (object["id"] as? String).flatMap { TransitDeparture.isItineraryID($0) ? $0 : nil }
        // The alerts of its legs, once each, in their order.
        var notices: [String] = []
        for case let leg as [String: Any] in legObjects {
            for case let notice as String in (leg["notices"] as? [Any]) ?? [] where !notices.contains(notice) && notices.count < Route.Transit.largestNoticeCount {
                notices.append(notice)
            }
        }
        departure.notices = notices.isEmpty ? nil : notices
        let transfers = (object["transfers"] as? Double).flatMap { $0 >= 0 && $0 <= 64 ? Int($0) : nil }
        departure.transfers = transfers ?? max(0, rides.count - 1)
        return departure
    }

    static func leg(_ object: [String: Any], name: String, within window: ClosedRange<Date>) throws -> TransitLeg {
        typealias Problem = RoutingAPI.Field.Problem
        func text(_ value: Any?) -> String? {
            guard let value = value as? String else { return nil }
            let cleaned = DisplayText.line(String(value.prefix(TransitLeg.longestName))).trimmingWhitespace()
            return cleaned.isEmpty ? nil : cleaned
        }
        guard let mode = text(object["mode"]), mode.utf8.count <= 40 else { throw Problem("\(name).mode is missing") }
        let departure = try time(object["startTime"], "\(name).startTime")
        let arrival = try time(object["endTime"], "\(name).endTime")
        let scheduled = try object["scheduledStartTime"].map { try time($0, "\(name).scheduledStartTime") } ?? departure
        for moment in [departure, arrival, scheduled] where !window.contains(moment) {
            throw Problem("\(name) has a time a day away from its itinerary")
        }
        guard arrival >= departure else { throw Problem("\(name) ends before it starts") }
        let from = object["from"] as? [String: Any]
        let to = object["to"] as? [String: Any]
        let street = TransitLeg.isStreet(mode)
        let line = street ? nil : text(object["displayName"]) ?? text(object["routeShortName"]) ?? text(object["tripShortName"]) ?? mode.lowercased()
        let cancelled = object["cancelled"] as? Bool == true || from?["cancelled"] as? Bool == true || to?["cancelled"] as? Bool == true
        return TransitLeg(
            mode: mode, line: line, headsign: street ? nil : text(object["headsign"]), from: text(from?["name"]) ?? "?",
            to: text(to?["name"]) ?? "?", departure: departure, arrival: arrival, scheduledDeparture: scheduled,
            realtime: object["realTime"] as? Bool == true, cancelled: cancelled)
    }

    /// `2026-06-10T07:00:00Z`, within the years a departure may be at.
    static func time(_ value: Any?, _ name: String) throws -> Date {
        guard let text = value as? String, text.utf8.count <= 40, let date = ISO8601.parse(text)?.instant,
            Route.Transit.plausibleDates.contains(date)
        else { throw RoutingAPI.Field.Problem("\(name) is not a time") }
        return date
    }
}

/// MOTIS's `GET /api/v6/refresh-itinerary` (experimental in its `openapi.yaml`): the itinerary an
/// earlier plan offered, rebuilt by its ID with the current timetable and realtime data, answered
/// as one `Itinerary`. What following a Transitous trip asks; where it is refused (an ID it no
/// longer reads, a server without it), the plan is asked again instead.
public enum ItineraryRefresh {
    /// The request's address for `itinerary` at `base`.
    public static func url(base: String, itinerary: String) -> String {
        "\(base)/api/v6/refresh-itinerary?itineraryId=\(itinerary.percentEncoded(keeping: .alphanumerics))&detailedLegs=false"
    }

    /// The itinerary of a 200 answer as a departure; nil when the answer is not one.
    public static func read(_ body: Data) -> TransitDeparture? {
        guard let object = MOTISPlanReader.readItinerary(body) else { return nil }
        return try? TransitousRouting.itinerary(object, name: "itinerary")
    }
}
