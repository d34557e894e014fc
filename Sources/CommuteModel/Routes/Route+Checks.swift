import FoundationEssentials

/// What a route can be. Every route comes from outside (a feed, a cache file someone may have
/// edited), so each value is checked against what it could really be before anything computes
/// with it: a travel time over a day is not a travel time, and a date after the year 9999 cannot
/// be written back.
extension Route {
    /// The longest travel time that is one, in minutes: a day.
    public static let longestTravelMinutes = 1_440
    /// The longest distance: about once around the Earth, in miles.
    public static let longestDistanceMiles = 25_000.0
    /// The instants a store file can hold: the years 0000 to 9999, as ISO 8601 writes them.
    public static let representableDates: ClosedRange<Date> =
        Date(timeIntervalSince1970: -62_167_219_200)...Date(timeIntervalSince1970: 253_402_300_799.999)

    /// Whether text can name a route: 1 to 64 lowercase ASCII letters, digits and dashes, not
    /// starting with a dash (a feed's numeric IDs are such text).
    public static func isValidID(_ id: String) -> Bool {
        let bytes = id.utf8
        guard (1...64).contains(bytes.count), bytes.first != UInt8(ascii: "-") else { return false }
        return bytes.allSatisfy { byte in
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || byte == UInt8(ascii: "-")
        }
    }

    /// Why this cannot be a real route, or nil when every value is possible.
    public var implausibility: String? {
        guard id.isValid else { return "'\(id)' is not a route ID" }
        for (label, minutes) in [("current time", currentMinutes), ("usual time", averageMinutes), ("suspicious time", suspiciousMinutes)] {
            if let minutes, minutes > Self.longestTravelMinutes {
                return "its \(label), \(minutes) min, is over a day: not a travel time"
            }
        }
        if let distance = distanceMiles, !(0...Self.longestDistanceMiles).contains(distance) {
            return "its distance, \(distance) mi, is not a road's"
        }
        if updatedAt < Self.representableDates.lowerBound { return "its update time is before the year 0000" }
        if updatedAt > Self.representableDates.upperBound { return "its update time is after the year 9999" }
        for (label, point) in [("start", startPoint), ("end", endPoint)] {
            if let problem = point?.implausibility { return "its \(label) point \(problem)" }
        }
        if case .provider(let custom) = kind {
            guard id.isValidCustom else { return "'\(id)' is not a custom route's ID" }
            let predicted = (custom.predictions ?? []).flatMap { [$0.departure, $0.askedAt] }
            for date in ([custom.fetchedAt, custom.triedAt, custom.movingSince] + predicted.map(Optional.some)).compactMap({ $0 })
            where !Self.representableDates.contains(date) {
                return "it was fetched outside the years 0000 to 9999"
            }
        }
        return nil
    }
}

extension Route.Point {
    /// Why this cannot be a place on a road, or nil.
    var implausibility: String? {
        if let latitude, !(-90...90).contains(latitude) { return "has latitude \(latitude), outside -90…90" }
        if let longitude, !(-180...180).contains(longitude) { return "has longitude \(longitude), outside -180…180" }
        if let milePost, !(-100_000...100_000).contains(milePost) { return "has milepost \(milePost), which no road has" }
        return nil
    }
}
