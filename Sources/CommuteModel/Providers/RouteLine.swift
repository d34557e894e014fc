import Basics
import FoundationEssentials

/// Where a car route runs, as its engine drew it (OSRM's steps, Valhalla's shape), kept thin, and
/// the motorways it uses by their refs (`A8`): what an incident feed is asked about and its items
/// are held against. Pure: decoding, thinning and distances.
public struct RouteLine: Codable, Sendable, Equatable {
    public var points: [Coordinate]
    /// Motorways by their refs as an incident feed names them: `A8`, `A81`.
    public var roads: [String]

    public init(points: [Coordinate], roads: [String]) {
        self.points = Self.thinned(points, largest: Self.largestPointCount)
        var seen = Set<String>()
        self.roads = roads.filter { seen.insert($0).inserted }.prefix(Self.largestRoadCount).map { $0 }
    }

    /// The most points kept (a thinned line), and the most roads.
    public static let largestPointCount = 400
    public static let largestRoadCount = 16

    /// Every point of an encoded polyline (Google's algorithm: OSRM's precision 5, Valhalla's 6);
    /// nil for text that is not one, or one of more than `limit` points.
    public static func decodePolyline(_ text: String, precision: Int, limit: Int = 200_000) -> [Coordinate]? {
        let scale = precision == 6 ? 1e6 : 1e5
        var points: [Coordinate] = []
        var latitude = 0, longitude = 0
        var bytes = text.utf8.makeIterator()
        func next() -> Int?? {
            var result = 0, shift = 0
            while let byte = bytes.next() {
                guard byte >= 63, byte < 127, shift <= 30 else { return .some(nil) }
                let chunk = Int(byte) - 63
                result |= (chunk & 0x1F) << shift
                shift += 5
                if chunk < 0x20 { return .some((result & 1) != 0 ? ~(result >> 1) : result >> 1) }
            }
            return shift == 0 ? nil : .some(nil)
        }
        while true {
            guard let first = next() else { break }
            guard let dLat = first, let second = next(), let dLon = second else { return nil }
            latitude &+= dLat
            longitude &+= dLon
            guard points.count < limit, let point = Coordinate(latitude: Double(latitude) / scale, longitude: Double(longitude) / scale) else { return nil }
            points.append(point)
        }
        return points
    }

    /// At most `largest` items (points, a feed's coordinate pairs), evenly taken, the first and
    /// the last kept.
    public static func thinned<T>(_ items: [T], largest: Int) -> [T] {
        guard items.count > largest, largest >= 2 else { return items }
        let step = Double(items.count - 1) / Double(largest - 1)
        return (0..<largest).map { items[min(items.count - 1, Int((Double($0) * step).rounded()))] }
    }

    /// The motorway refs in an engine's road reference: `A 8;A 81` → `A8`, `A81`; `B 10`, `E 52`
    /// and names are not motorways an incident feed knows.
    public static func motorways(in ref: String) -> [String] {
        ref.split(whereSeparator: { $0 == ";" || $0 == "," }).compactMap { part in
            let compact = part.filter { !$0.isWhitespace }
            guard compact.count >= 2, compact.count <= 4, compact.first == "A", compact.dropFirst().allSatisfy(\.isASCIIDigit),
                compact.dropFirst().first != "0"
            else { return nil }
            return String(compact)
        }
    }

    /// How far `point` is from the line, in metres (each segment on a local flat projection:
    /// good to a few metres over a route's length).
    public func distance(to point: Coordinate) -> Double {
        guard let first = points.first else { return .infinity }
        guard points.count > 1 else { return Self.metres(first, point) }
        var best = Double.infinity
        for (a, b) in zip(points, points.dropFirst()) {
            best = min(best, Self.segmentDistance(point, a, b))
            if best < 1 { break }
        }
        return best
    }

    package static func metres(_ a: Coordinate, _ b: Coordinate) -> Double {
        let (x, y) = project(b, around: a)
        return (x * x + y * y).squareRoot()
    }

    /// `p`'s distance to the segment from `a` to `b`.
    static func segmentDistance(_ p: Coordinate, _ a: Coordinate, _ b: Coordinate) -> Double {
        let (bx, by) = project(b, around: a)
        let (px, py) = project(p, around: a)
        let length = bx * bx + by * by
        let t = length == 0 ? 0 : max(0, min(1, (px * bx + py * by) / length))
        let dx = px - t * bx, dy = py - t * by
        return (dx * dx + dy * dy).squareRoot()
    }

    /// Metres east and north of `origin`.
    static func project(_ point: Coordinate, around origin: Coordinate) -> (Double, Double) {
        let metresPerDegree = 111_195.0
        let x = (point.longitude - origin.longitude) * metresPerDegree * cos(origin.latitude * .pi / 180)
        return (x, (point.latitude - origin.latitude) * metresPerDegree)
    }
}
