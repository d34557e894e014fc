import Basics
import CommuteModel
import FoundationEssentials

/// Decodes WSDOT's `GetTravelTimesAsJson` response (see `Fixtures/wsdot/`).
public enum WSDOTFeed {
    /// The clocks WSDOT keeps: Washington State's.
    public static let timeZone = "America/Los_Angeles"

    /// The routes in the feed, in feed order. Throws when the body is not JSON, is not an array of
    /// routes, is empty, or when any route lacks its ID or has an unreadable date.
    public static func decode(_ data: Data) throws(FeedError) -> [Route] {
        var routes: [Route] = []
        do {
            _ = try forEachRoute(in: .data(data)) { routes.append($0) }
        } catch let error as FeedError {
            throw error
        } catch {
            throw .notJSON(String(describing: error))
        }
        return routes
    }

    /// Reads the feed a route at a time, in feed order, handing each to `body` as soon as it is
    /// read: a feed of any length is read through a window of one piece of the file and one route.
    /// A route that reads but holds an impossible value (a time over a day, a date after the year
    /// 9999) is left out and handed to `dropped` instead: one bad upstream route must not stop every
    /// alert. Returns the IDs of the routes kept. Throws `FeedError` as `decode` does — possibly
    /// after `body` has seen some routes, so a caller must not act on them until this returns.
    /// Errors from `body` pass through unchanged.
    public static func forEachRoute(
        in input: FeedInput, deadline: FeedInput.Deadline? = nil, dropped: (DroppedRoute) -> Void = { _ in },
        _ body: (Route) throws -> Void
    ) throws -> Set<RouteID> {
        var splitter = JSONArraySplitter(maximumElementSize: maximumRouteSize)
        var ids = Set<RouteID>()
        var index = 0
        do {
            try input.forEachPiece(deadline: deadline) { piece in
                try splitter.consume(piece) { bytes, offset in
                    defer { index += 1 }
                    guard index < maximumRouteCount else { throw FeedError.tooManyRoutes(limit: maximumRouteCount) }
                    let route = try decodeRoute(bytes, at: offset, index: index)
                    if let problem = route.implausibility ?? (route.id.rawValue.count > 9 ? "TravelTimeID \(route.id) is out of range" : nil) {
                        dropped(DroppedRoute(index: index, id: route.id, reason: problem))
                        return
                    }
                    guard ids.insert(route.id).inserted else {
                        throw FeedError.badRoute(index: index, reason: "TravelTimeID \(route.id) appears twice")
                    }
                    try body(route)
                }
            }
            try splitter.finish()
        } catch is JSONArraySplitter.ElementTooLarge {
            throw FeedError.badRoute(index: index, reason: "it is over \(maximumRouteSize / 1_024) KiB, too large for a route")
        } catch let error as JSONReadError {
            // The splitter's own errors: the array around the routes.
            throw error.kind == .syntax
                ? FeedError.notJSON(error.description) : FeedError.wrongShape("expected an array of routes")
        }
        guard !ids.isEmpty else { throw FeedError.empty }
        return ids
    }

    /// A route takes about 500 bytes; an element far larger is not one, and is refused before it
    /// is read whole, so no feed file can make a refresh hold more than this of it at once.
    static let maximumRouteSize = 256 * 1_024
    /// WSDOT's feed has 163 routes; no travel-times feed has this many.
    public static let maximumRouteCount = 50_000

    /// A route the feed sent that was left out, and why.
    public struct DroppedRoute: Sendable, Equatable, CustomStringConvertible {
        /// Its position in the feed, from 0.
        public var index: Int
        public var id: RouteID
        public var reason: String

        public var description: String { "route #\(index + 1) (ID \(id)) was left out: \(reason)" }
    }

    /// One element of the top-level array, at `offset` in the feed. A value of the wrong type
    /// inside a route names that route.
    private static func decodeRoute(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int, index: Int) throws -> Route {
        do {
            return try JSONReader.read(bytes) { reader in try decodeRoute(&reader, index: index) }
        } catch var error as JSONReadError {
            error.offset += offset
            throw error.kind == .syntax
                ? FeedError.notJSON(error.description) : FeedError.badRoute(index: index, reason: error.message)
        }
    }

    /// Encodes routes in the wire format (the benchmark's generated feeds, and tests).
    public static func encode(_ routes: [Route]) throws -> Data {
        var writer = JSONWriter(capacity: routes.count * 520)
        writer.beginArray()
        for route in routes {
            writer.beginObject()
            writer.key("TravelTimeID")
            writer.int(Int(route.id.rawValue) ?? 0)
            writer.key("Name")
            writer.string(route.feedName)
            writer.key("Description")
            writer.string(route.description)
            writer.key("CurrentTime")
            writer.int(route.currentMinutes ?? 0)
            writer.key("AverageTime")
            writer.int(route.averageMinutes ?? 0)
            writer.key("Distance")
            writer.double(route.distanceMiles)
            writer.key("TimeUpdated")
            writer.string(WCFDate.string(route.updatedAt))
            for (key, point) in [("StartPoint", route.startPoint), ("EndPoint", route.endPoint)] {
                writer.key(key)
                writePoint(point, &writer)
            }
            writer.endObject()
        }
        writer.endArray()
        return Data(writer.bytes)
    }

    /// The fields of one route object as they arrive.
    private struct WireRoute {
        var id: Int?
        var name: String?
        var description: String?
        var current: Int?
        var average: Int?
        var distance: Double?
        var updated: String?
        var start: Route.Point?
        var end: Route.Point?
    }

    /// One route object. Unknown fields are skipped; missing optional ones are nil.
    private static func decodeRoute(_ reader: inout JSONReader, index: Int) throws -> Route {
        guard try reader.peek() == .object else { throw FeedError.badRoute(index: index, reason: "not a route object") }
        try reader.beginObject()
        var wire = WireRoute()
        var seen = JSONReader.FieldsSeen()
        while let key = try reader.nextKey(firstOf: routeFields, seen: &seen) {
            try readField(key, into: &wire, from: &reader, index: index)
        }
        guard let id = wire.id else { throw FeedError.badRoute(index: index, reason: "TravelTimeID is missing") }
        guard let updated = wire.updated else { throw FeedError.badRoute(index: index, reason: "TimeUpdated is missing") }
        guard let updatedAt = WCFDate.parse(updated) else {
            throw FeedError.badRoute(index: index, reason: "TimeUpdated '\(updated)' is not a /Date(…)/ value")
        }
        return Route(
            id: RouteID(String(id)), name: wire.name, description: wire.description, currentMinutes: wire.current,
            averageMinutes: wire.average, distanceMiles: wire.distance, updatedAt: updatedAt, startPoint: wire.start,
            endPoint: wire.end)
    }

    private static let routeFields: [StaticString] = [
        "TravelTimeID", "Name", "Description", "CurrentTime", "AverageTime", "Distance", "TimeUpdated", "StartPoint",
        "EndPoint",
    ]
    private static let pointFields: [StaticString] = ["Description", "Direction", "Latitude", "Longitude", "MilePost", "RoadName"]

    private static func readField(_ key: JSONReader.Key, into wire: inout WireRoute, from reader: inout JSONReader, index: Int) throws {
        do {
            switch key {
            case "TravelTimeID": wire.id = try reader.readInt()
            case "Name": wire.name = try reader.readOptionalString()
            case "Description": wire.description = try reader.readOptionalString()
            case "CurrentTime": wire.current = try reader.readOptionalInt()
            case "AverageTime": wire.average = try reader.readOptionalInt()
            case "Distance": wire.distance = try reader.readOptionalDouble()
            case "TimeUpdated": wire.updated = try reader.readString()
            case "StartPoint": wire.start = try readPoint(&reader)
            case "EndPoint": wire.end = try readPoint(&reader)
            default: try reader.skipValue()
            }
        } catch let error as JSONReadError where error.kind == .type {
            throw FeedError.badRoute(index: index, reason: "\(key) has the wrong type (\(error.message))")
        }
    }

    private static func readPoint(_ reader: inout JSONReader) throws -> Route.Point? {
        if try reader.readNull() { return nil }
        try reader.beginObject()
        var point = Route.Point()
        var seen = JSONReader.FieldsSeen()
        while let key = try reader.nextKey(firstOf: pointFields, seen: &seen) {
            switch key {
            case "Description": point.description = try reader.readOptionalString()
            case "Direction": point.direction = try reader.readOptionalString()
            case "Latitude": point.latitude = try reader.readOptionalDouble()
            case "Longitude": point.longitude = try reader.readOptionalDouble()
            case "MilePost": point.milePost = try reader.readOptionalDouble()
            case "RoadName": point.roadName = try reader.readOptionalString()
            default: try reader.skipValue()
            }
        }
        return point
    }

    private static func writePoint(_ point: Route.Point?, _ writer: inout JSONWriter) {
        guard let point else { return writer.null() }
        writer.beginObject()
        writer.key("Description")
        writer.string(point.description)
        writer.key("Direction")
        writer.string(point.direction)
        writer.key("Latitude")
        writer.double(point.latitude)
        writer.key("Longitude")
        writer.double(point.longitude)
        writer.key("MilePost")
        writer.double(point.milePost)
        writer.key("RoadName")
        writer.string(point.roadName)
        writer.endObject()
    }
}
