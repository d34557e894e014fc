import Foundation

/// Decodes WSDOT's `GetTravelTimesAsJson` response (see `Fixtures/wsdot/`).
public enum WSDOTFeed {
    /// The routes in the feed, in feed order. Throws when the body is not JSON, is not an array of
    /// routes, is empty, or when any route lacks its ID or has an unreadable date.
    public static func decode(_ data: Data) throws(FeedError) -> [Route] {
        let wire: [WireRoute]
        do {
            wire = try JSONDecoder().decode([WireRoute].self, from: data)
        } catch let error as DecodingError {
            throw describe(error)
        } catch {
            throw .notJSON(String(describing: error))
        }
        guard !wire.isEmpty else { throw .empty }
        var seen = Set<Int>()
        var routes: [Route] = []
        routes.reserveCapacity(wire.count)
        for (index, item) in wire.enumerated() {
            guard seen.insert(item.TravelTimeID).inserted else {
                throw .badRoute(index: index, reason: "TravelTimeID \(item.TravelTimeID) appears twice")
            }
            guard let updated = WCFDate.parse(item.TimeUpdated) else {
                throw .badRoute(index: index, reason: "TimeUpdated '\(item.TimeUpdated)' is not a /Date(…)/ value")
            }
            routes.append(
                Route(
                    id: String(item.TravelTimeID), name: item.Name, description: item.Description,
                    currentMinutes: item.CurrentTime, averageMinutes: item.AverageTime,
                    distanceMiles: item.Distance, updatedAt: updated,
                    startPoint: item.StartPoint?.point, endPoint: item.EndPoint?.point))
        }
        return routes
    }

    /// Encodes routes in the wire format (the benchmark's generated feeds, and tests).
    public static func encode(_ routes: [Route]) throws -> Data {
        let wire = routes.map { route in
            WireRoute(
                TravelTimeID: Int(route.id) ?? 0, Name: route.feedName, Description: route.description,
                CurrentTime: route.currentMinutes ?? 0, AverageTime: route.averageMinutes ?? 0,
                Distance: route.distanceMiles, TimeUpdated: WCFDate.string(route.updatedAt),
                StartPoint: route.startPoint.map(WirePoint.init), EndPoint: route.endPoint.map(WirePoint.init))
        }
        return try JSONEncoder().encode(wire)
    }

    private static func describe(_ error: DecodingError) -> FeedError {
        func place(_ path: [any CodingKey]) -> (index: Int?, field: String) {
            let index = path.first?.intValue
            let field = path.dropFirst().map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
            return (index, field)
        }
        switch error {
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            let underlying = (context.underlyingError as? NSError)?.userInfo[NSDebugDescriptionErrorKey] as? String
            return .notJSON(underlying ?? context.debugDescription)
        case .typeMismatch(_, let context) where context.codingPath.isEmpty:
            return .wrongShape("expected an array of routes")
        case .keyNotFound(let key, let context):
            let (index, field) = place(context.codingPath + [key])
            return index.map { .badRoute(index: $0, reason: "\(field) is missing") }
                ?? .wrongShape("\(field) is missing")
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            let (index, field) = place(context.codingPath)
            let reason = field.isEmpty ? "not a route object" : "\(field) has the wrong type"
            return index.map { .badRoute(index: $0, reason: reason) } ?? .wrongShape(reason)
        @unknown default:
            return .wrongShape(String(describing: error))
        }
    }
}

// Field names are the feed's own.
// swiftlint:disable identifier_name
private struct WireRoute: Codable {
    var TravelTimeID: Int
    var Name: String?
    var Description: String?
    var CurrentTime: Int?
    var AverageTime: Int?
    var Distance: Double?
    var TimeUpdated: String
    var StartPoint: WirePoint?
    var EndPoint: WirePoint?
}

private struct WirePoint: Codable {
    var Description: String?
    var Direction: String?
    var Latitude: Double?
    var Longitude: Double?
    var MilePost: Double?
    var RoadName: String?

    init(_ point: Route.Point) {
        Description = point.description
        Direction = point.direction
        Latitude = point.latitude
        Longitude = point.longitude
        MilePost = point.milePost
        RoadName = point.roadName
    }

    var point: Route.Point {
        Route.Point(
            description: Description, direction: Direction, latitude: Latitude, longitude: Longitude,
            milePost: MilePost, roadName: RoadName)
    }
}
// swiftlint:enable identifier_name
