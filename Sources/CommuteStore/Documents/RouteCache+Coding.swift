import Basics
import CommuteModel
import FoundationEssentials

/// `routes.json` is the one large store file (a whole feed: 5 MB for 10,000 routes), read by most
/// commands and written by every refresh, so it is read and written with `JSONReader` and
/// `JSONWriter` field by field. The format is the one `JSONCoding` would write, with `version`
/// first.
extension RouteCache {
    public static func decodeDocument(from data: Data) throws -> RouteCache {
        try decodeDocument(from: data, includingEndPoints: true)
    }

    /// Reads the cache; without end points (which only `route ID` shows) it skips them unbuilt,
    /// a third of the work for 10,000 routes.
    static func decodeDocument(from data: Data, includingEndPoints: Bool) throws -> RouteCache {
        do {
            // The walk has checked the version: a cache that decodes is this build's version.
            return try JSONReader.read(data) { reader in try decodeCache(&reader, includingEndPoints: includingEndPoints) }
        } catch {
            throw problem(error, in: data)
        }
    }

    /// The reason to report for a failed read. A shape problem may be found before the version is
    /// read: the version, when it is wrong or missing, is the better reason.
    static func problem(_ error: any Error, in data: Data) -> DocumentProblem {
        if let error = error as? JSONReadError, error.kind == .syntax {
            return DocumentProblem("not valid JSON (\(error.description))")
        }
        do {
            try checkVersion(data)
        } catch {
            return error as? DocumentProblem ?? DocumentProblem("\(error)")
        }
        return error as? DocumentProblem ?? DocumentProblem("wrong shape: \(error)")
    }

    /// A whole pass over the file that keeps nothing: valid JSON, version 1, and `routes` an array
    /// of routes that each read and hold only possible values.
    public static func validateDocument(_ data: Data) throws {
        do {
            try JSONReader.read(data) { reader in try walk(&reader, route: checkRoute) }
        } catch {
            throw problem(error, in: data)
        }
    }

    /// The check a refresh makes before replacing the cache: the same pass, over the mapped file,
    /// handing its pages back as it goes, so that checking costs next to no memory.
    public static func validateFile(atPath path: String) throws(StoreError) {
        _ = try customRoutesCheckingFile(atPath: path)
    }

    /// The same check, keeping the custom routes it passes (what a feed refresh carries over) and
    /// the feed's routes `keeping` picks.
    static func customRoutesCheckingFile(
        atPath path: String, keeping: (Route) -> Bool = { _ in false }
    ) throws(StoreError) -> (custom: [Route], kept: [RouteID: Route]) {
        guard let file = try MappedFile(path: path, maximumSize: RegularFile.routeCacheMaximumSize) else { return ([], [:]) }
        guard !file.bytes.isEmpty else { throw .unreadable(path: path, reason: "the file is empty") }
        var custom: [Route] = []
        var kept: [RouteID: Route] = [:]
        do {
            try JSONReader.read(file.bytes) { reader in
                try walk(&reader) { reader, index in
                    let route = try readRoute(&reader, index: index, includingEndPoints: true)
                    if route.isProviderRoute {
                        custom.append(route)
                    } else if keeping(route) {
                        kept[route.id] = route
                    }
                    if index % 256 == 255 { file.release(before: reader.offset) }
                }
            }
        } catch {
            throw .unreadable(path: path, reason: file.withData { problem(error, in: $0) }.reason)
        }
        return (custom, kept)
    }

    /// One element of `routes`, read and dropped: what a read of the cache would refuse.
    private static func checkRoute(_ reader: inout JSONReader, index: Int) throws {
        _ = try readRoute(&reader, index: index, includingEndPoints: true)
    }

    /// The `version` member's value, which must be this build's.
    private static func readVersion(_ reader: inout JSONReader) throws {
        guard try reader.peek() == .number else { throw DocumentProblem("\"version\" is not a number") }
        let version = try reader.readInt()
        guard version == currentVersion else { throw versionProblem(version) }
    }

    private static func versionProblem(_ version: Int) -> DocumentProblem {
        version == 0
            ? DocumentProblem("no \"version\" field")
            : DocumentProblem("unknown version \(version) (this traveltimes reads version \(currentVersion))")
    }

    private static func decodeCache(_ reader: inout JSONReader, includingEndPoints: Bool) throws -> RouteCache {
        var cache = RouteCache.empty
        try walk(&reader, member: { key, reader in
            switch key {
            case "fetchedAt": cache.fetchedAt = try readDate(&reader, field: "fetchedAt", optional: true)
            case "source": cache.source = try reader.readOptionalString()
            case "validators": cache.validators = try readValidators(&reader)
            default: try reader.skipValue()
            }
        }, route: { reader, index in
            if index == 0 { cache.routes.reserveCapacity(reader.remainingBytes / 300) }
            cache.routes.append(try readRoute(&reader, index: index, includingEndPoints: includingEndPoints))
        })
        return cache
    }

    /// The top level of a cache file: checks the version, hands every other member to `member`, and
    /// each element of `routes` to `route` with its index. One walk for decoding, validating and
    /// searching.
    static func walk(
        _ reader: inout JSONReader, member: (JSONReader.Key, inout JSONReader) throws -> Void = { _, reader in try reader.skipValue() },
        route: (inout JSONReader, Int) throws -> Void
    ) throws {
        guard try reader.peek() == .object else { throw DocumentProblem("expected a JSON object") }
        try reader.beginObject()
        var sawVersion = false
        var sawRoutes = false
        var seen = JSONReader.FieldsSeen()
        while let key = try reader.nextKey(firstOf: topLevelFields, seen: &seen) {
            switch key {
            case "version":
                try readVersion(&reader)
                sawVersion = true
            case "routes":
                sawRoutes = true
                try reader.beginArray()
                var index = 0
                while try reader.nextElement() {
                    try route(&reader, index)
                    index += 1
                }
            default: try member(key, &reader)
            }
        }
        guard sawVersion else { throw versionProblem(0) }
        guard sawRoutes else { throw DocumentProblem("wrong shape: routes is missing") }
    }

    // A key given twice keeps its first value (see `JSONReader.FieldsSeen`).
    private static let topLevelFields: [StaticString] = ["version", "fetchedAt", "source", "validators", "routes"]
    static let routeFields: [StaticString] = [
        "id", "name", "description", "currentMinutes", "averageMinutes", "distanceMiles", "updatedAt", "startPoint", "endPoint",
        "custom", "suspiciousMinutes", "transit",
    ]
    private static let pointFields: [StaticString] = ["description", "direction", "latitude", "longitude", "milePost", "roadName"]

    /// The members before `routes`, read without reading a route: what a conditional request needs.
    /// Every store file is checked in full before it is replaced; this is a read, and it stops early.
    public static func decodeHeader(from data: Data) throws -> Header {
        var header = Header()
        do {
            try JSONReader.readPrefix(data) { reader in
                guard try reader.peek() == .object else { throw DocumentProblem("expected a JSON object") }
                try reader.beginObject()
                var seen = JSONReader.FieldsSeen()
                while let key = try reader.nextKey(firstOf: topLevelFields, seen: &seen) {
                    switch key {
                    case "version": try readVersion(&reader)
                    case "fetchedAt": header.fetchedAt = try readDate(&reader, field: "fetchedAt", optional: true)
                    case "source": header.source = try reader.readOptionalString()
                    case "validators": header.validators = try readValidators(&reader)
                    case "routes": return
                    default: try reader.skipValue()
                    }
                }
            }
        } catch {
            throw problem(error, in: data)
        }
        return header
    }

    private static func readValidators(_ reader: inout JSONReader) throws -> HTTPValidators? {
        if try reader.readNull() { return nil }
        try reader.beginObject()
        var validators = HTTPValidators()
        var seen = JSONReader.FieldsSeen()
        while let key = try reader.nextKey(firstOf: ["etag", "lastModified"], seen: &seen) {
            switch key {
            case "etag": validators.etag = try reader.readOptionalString()
            case "lastModified": validators.lastModified = try reader.readOptionalString()
            default: try reader.skipValue()
            }
        }
        return validators.isEmpty ? nil : validators
    }

    /// The fields of one cached route as they arrive.
    private struct Fields {
        var id: String?
        var name: String?
        var description: String?
        var current: Int?
        var average: Int?
        var distance: Double?
        var updated: Date?
        var start: Route.Point?
        var end: Route.Point?
        var custom: Route.Custom?
        var suspicious: Int?
        var transit: Route.Transit?
    }

    static func readRoute(_ reader: inout JSONReader, index: Int, includingEndPoints: Bool) throws -> Route {
        // Built only for a message: every route of a 10,000-route cache passes through here.
        var field: String { "routes[\(index)]" }
        guard try reader.peek() == .object else { throw DocumentProblem("wrong shape: \(field) is not an object") }
        try reader.beginObject()
        var fields = Fields()
        var seen = JSONReader.FieldsSeen()
        while let key = try reader.nextKey(firstOf: routeFields, seen: &seen) {
            try readField(key, into: &fields, from: &reader, index: index, includingEndPoints: includingEndPoints)
        }
        guard let id = fields.id else { throw DocumentProblem("wrong shape: \(field).id is missing") }
        guard let updated = fields.updated else { throw DocumentProblem("wrong shape: \(field).updatedAt is missing") }
        // A calendar's route written before routes named their calendar says so by its ID alone.
        if fields.custom?.calendar == nil { fields.custom?.calendar = Route.calendar(ofStoredID: id) }
        var route = Route(
            id: RouteID(id), name: fields.name, description: fields.description, currentMinutes: fields.current,
            averageMinutes: fields.average, distanceMiles: fields.distance, updatedAt: updated,
            startPoint: fields.start, endPoint: fields.end, custom: fields.custom)
        route.suspiciousMinutes = fields.suspicious.flatMap { $0 > 0 ? $0 : nil }
        // Only a transit planner's route carries its itineraries.
        if let transit = fields.transit {
            guard route.provider?.isTransit == true else { throw DocumentProblem("wrong shape: \(field).transit on a route that is not a planner's") }
            try checkItineraries(transit, field: "\(field).transit")
            route.transit = transit
        }
        if let problem = route.implausibility { throw DocumentProblem("impossible value: \(field): \(problem)") }
        return route
    }

    private static func readField(
        _ key: JSONReader.Key, into fields: inout Fields, from reader: inout JSONReader, index: Int, includingEndPoints: Bool
    ) throws {
        do {
            switch key {
            case "id": fields.id = try reader.readString()
            case "name": fields.name = try reader.readOptionalString()
            case "description": fields.description = try reader.readOptionalString()
            case "currentMinutes": fields.current = try reader.readOptionalInt()
            case "averageMinutes": fields.average = try reader.readOptionalInt()
            case "distanceMiles": fields.distance = try reader.readOptionalDouble()
            case "updatedAt": fields.updated = try readDate(&reader, field: "routes[\(index)].updatedAt", optional: false)
            case "startPoint" where includingEndPoints: fields.start = try readPoint(&reader)
            case "endPoint" where includingEndPoints: fields.end = try readPoint(&reader)
            case "custom": fields.custom = try readCustom(&reader, field: "routes[\(index)].custom")
            case "suspiciousMinutes": fields.suspicious = try reader.readOptionalInt()
            case "transit":
                let raw = try reader.readRawValue()
                do {
                    fields.transit = try StoreCoding.decoder.decode(Route.Transit?.self, from: Data(raw))
                } catch let error as DecodingError {
                    throw DocumentProblem("wrong shape: routes[\(index)].transit: \(StoreCoding.describe(error))")
                }
            default: try reader.skipValue()
            }
        } catch let error as JSONReadError where error.kind == .type {
            throw DocumentProblem("wrong shape: routes[\(index)].\(key) has the wrong type")
        }
    }

    /// A planner's itineraries: few, with few legs, at times a departure may be at.
    static func checkItineraries(_ transit: Route.Transit, field: String) throws(DocumentProblem) {
        try DocumentProblem.check(transit.departures.count <= 64, "\(field).departures holds over 64 itineraries")
        for departure in transit.departures {
            try DocumentProblem.check((departure.legs ?? []).count <= TransitLeg.largestCount, "\(field) has an itinerary of too many legs")
            let notices = departure.notices ?? []
            try DocumentProblem.check(
                notices.count <= Route.Transit.largestNoticeCount
                    && notices.allSatisfy { $0.count <= Route.Transit.longestNotice && DisplayText.line($0) == $0 },
                "\(field) has an itinerary with impossible notices")
            try DocumentProblem.check(departure.itinerary.map(TransitDeparture.isItineraryID) ?? true, "\(field) has an itinerary with an impossible ID")
            let times = [departure.scheduled, departure.arrival, departure.scheduledArrival] + (departure.predicted.map { [$0] } ?? [])
                + (departure.legs ?? []).flatMap { [$0.departure, $0.arrival, $0.scheduledDeparture] }
            for date in times {
                try DocumentProblem.check(Route.Transit.plausibleDates.contains(date), "\(field) has a time outside 1970 to 2199")
            }
        }
    }

    static func readDate(_ reader: inout JSONReader, field: @autoclosure () -> String, optional: Bool) throws -> Date? {
        if optional, try reader.readNull() { return nil }
        let parsed = try reader.withStringBytes { bytes in
            ISO8601.parse(bytes: bytes)?.instant.map { Result<Date, DocumentProblem>.success($0) }
                ?? .failure(DocumentProblem(
                    "wrong shape: \(field()) '\(String(decoding: bytes, as: UTF8.self))' is not an ISO 8601 time with an offset"))
        }
        return try parsed.get()
    }

    private static func readPoint(_ reader: inout JSONReader) throws -> Route.Point? {
        if try reader.readNull() { return nil }
        try reader.beginObject()
        var point = Route.Point()
        var seen = JSONReader.FieldsSeen()
        while let key = try reader.nextKey(firstOf: pointFields, seen: &seen) {
            switch key {
            case "description": point.description = try reader.readOptionalString()
            case "direction": point.direction = try reader.readOptionalString()
            case "latitude": point.latitude = try reader.readOptionalDouble()
            case "longitude": point.longitude = try reader.readOptionalDouble()
            case "milePost": point.milePost = try reader.readOptionalDouble()
            case "roadName": point.roadName = try reader.readOptionalString()
            default: try reader.skipValue()
            }
        }
        return point
    }

    static func readCoordinate(_ reader: inout JSONReader, field: String) throws -> Coordinate {
        try reader.beginObject()
        var latitude: Double?
        var longitude: Double?
        var seen = JSONReader.FieldsSeen()
        while let key = try reader.nextKey(firstOf: ["latitude", "longitude"], seen: &seen) {
            switch key {
            case "latitude": latitude = try reader.readOptionalDouble()
            case "longitude": longitude = try reader.readOptionalDouble()
            default: try reader.skipValue()
            }
        }
        guard let latitude, let longitude, let point = Coordinate(latitude: latitude, longitude: longitude) else {
            throw DocumentProblem("impossible value: \(field) is not a point on the Earth")
        }
        return point
    }
}
