import Basics
import CommuteModel
import Foundation
import TestThreads
import Testing

/// A route's kind is read from its fields in one place, `Route.kind`; every other question about
/// what a route is goes through it.
@Suite(.ownThreads) struct RouteKindTests {
    static let at = Date(timeIntervalSince1970: 1_762_300_800)

    static func route(custom: RouteProvider? = nil, transit: Bool = false, realtime: Bool = false) throws -> Route {
        var route = Route(id: "r", name: "R", description: nil, currentMinutes: 20, averageMinutes: 18, updatedAt: at)
        let from = try #require(Coordinate("47.6,-122.3"))
        let to = try #require(Coordinate("47.7,-122.2"))
        route.custom = custom.map { Route.Custom(provider: $0, from: from, to: to) }
        if transit {
            route.transit = Route.Transit(feed: "metro", fromStop: "1", toStop: "2", line: "8", walkMinutes: 3, realtimeAt: realtime ? at : nil)
        }
        return route
    }

    @Test func eachKindIsToldByItsFieldsAndAnsweredTheSameEverywhere() throws {
        let feed = try Self.route()
        #expect(feed.kind == .feed && feed.departures == nil && !feed.isProviderRoute && !feed.isPublicTransport && feed.provider == nil && feed.sourceName == "wsdot")
        let gtfs = try Self.route(transit: true)
        let gtfsTransit = try #require(gtfs.transit)
        #expect(gtfs.isTransitFeed && gtfs.kind == .transitFeed(gtfsTransit) && !gtfs.isProviderRoute && gtfs.isPublicTransport && gtfs.isTimetableOnly && gtfs.sourceName == "transit")
        #expect(try !Self.route(transit: true, realtime: true).isTimetableOnly)
        let car = try Self.route(custom: .here)
        let carCustom = try #require(car.custom)
        #expect(car.kind == .provider(carCustom) && car.isProviderRoute && !car.isPublicTransport && !car.isTimetableOnly && car.provider == .here)
        #expect(car.sourceName == "here")
        let engine = try Self.route(custom: .osrm)
        #expect(engine.provider == .osrm && !engine.isPublicTransport && engine.provider?.isFreeFlow == true)
        // A Transitous route is public transport whether or not its itinerary has come yet.
        let planner = try Self.route(custom: .transitous, transit: true)
        #expect(planner.provider == .transitous && planner.departures == planner.transit && planner.isProviderRoute && planner.isPublicTransport && planner.sourceName == "transitous")
        #expect(try Self.route(custom: .transitous).isPublicTransport)
        // The history's source follows the kind: a GTFS route's readings are the agency's.
        #expect(ReadingSource(of: gtfs) == .transit && ReadingSource(of: planner) == .provider(.transitous) && ReadingSource(of: feed) == .wsdot)
        // A calendar's route is a provider's route that names its calendar; no other route does.
        var event = try Self.route(custom: .osrm)
        #expect(event.calendar == nil && feed.calendar == nil && gtfs.calendar == nil)
        event.custom?.calendar = "work"
        #expect(event.calendar == "work" && event.isProviderRoute && event.provider == .osrm)
    }

    /// On disk and on the wire a route's ID is text, as a value and as a dictionary's key.
    @Test func aRouteIDIsTextInJSON() throws {
        let ids: [RouteID: [RouteID]] = ["96": ["1", "to-work"]]
        let text = String(decoding: try JSONCoding.encode(ids), as: UTF8.self)
        #expect(text == #"{"96":["1","to-work"]}"#)
        #expect(try JSONCoding.decode([RouteID: [RouteID]].self, from: Data(text.utf8)) == ids)
    }

    /// A route cache written before calendars' routes named their calendar: the ID says it.
    @Test func aStoredCalendarRouteIDNamesItsCalendar() {
        #expect(Route.calendar(ofStoredID: "cal-work-1a2b3c4d") == "work")
        #expect(Route.calendar(ofStoredID: "cal-night-shift-00ff00aa") == "night-shift")
        for id in ["cal-work-home", "cal-1a2b3c4d", "cal--1a2b3c4d", "work-1a2b3c4d", "cal-Work-1a2b3c4d", "cal-work-1a2b3c4", "cal-work_1a2b3c4d", "1"] {
            #expect(Route.calendar(ofStoredID: id) == nil, "\(id)")
        }
    }

    /// No other place reads a route's kind from which of its optional fields are set.
    @Test func noSourceFileDecidesAKindByAnOptionalField() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let sources = root.appendingPathComponent("Sources")
        let files = try #require(FileManager.default.enumerator(atPath: sources.path)).compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
        #expect(files.count > 200)
        // A nil test of either field, or a binding of one (`if let custom = route.custom`): a kind
        // told by which field is set. The store's coders and checks read the fields themselves.
        let decisions = /\.(custom|transit)\s*[!=]=\s*nil|custom\?\.provider|(if|guard|,)\s+(let|var)\s+\w+\s*=\s*(\w*[rR]oute|\$0|routes\[[^\]]*\])\.(custom|transit)\b\s*(,|\{|else\b)/
        // Inside `extension Route`, the same binding is written short (`guard let custom`).
        let shortBinding = /(if|guard|,)\s+(let|var)\s+(custom|transit)\s*(,|\{|else\b)/
        // A calendar's routes are told by the calendar they name, not by their IDs' prefix.
        let byPrefix = /hasPrefix\((\w+\.)?(routePrefix|calendarIDPrefix)\)/
        let readers = ["Routes/Route+Kind.swift", "CommuteStore/Documents/", "Transit/TransitState.swift"]
        for file in files where !readers.contains(where: file.contains) {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            let isRoutes = text.contains("extension Route {") || text.contains("public struct Route:")
            for line in text.split(separator: "\n")
            where line.contains(decisions) || (isRoutes && line.contains(shortBinding)) || line.contains(byPrefix) {
                Issue.record("Sources/\(file) decides a route's kind by a field: \(line.trimmingCharacters(in: .whitespaces)) — ask route.kind")
            }
        }
    }

    /// A route's ID is a `RouteID` wherever one is named: no signature or field takes it as text.
    /// A GTFS feed's own route IDs (`route_id`) are another thing, and stay text.
    @Test func noRouteIDIsPlainText() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let sources = root.appendingPathComponent("Sources")
        let files = try #require(FileManager.default.enumerator(atPath: sources.path)).compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
        let text = /\b(routeID|routeIDs|[a-z]+RouteIDs?)\s*:\s*(String\??|\[String\]|Set<String>)(\s|,|\)|$)|\[String: Route\]/
        let gtfs = ["Transit/GTFSRealtime.swift", "Transit/TransitTimetable.swift"]
        var found: [String] = []
        for file in files where !gtfs.contains(where: file.hasSuffix) {
            let lines = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8).split(separator: "\n")
            found += lines.filter { $0.contains(text) }.map { "Sources/\(file): \($0.trimmingCharacters(in: .whitespaces))" }
        }
        #expect(found.isEmpty, "route IDs as text:\n\(found.joined(separator: "\n"))")
        // The check finds what it looks for.
        #expect("    func watch(routeID: String) {".contains(text) && "var byID: [String: Route]".contains(text))
    }
}
