import FoundationEssentials

/// `routes.json` is the one large store file (a whole feed: 5 MB for 10,000 routes), read by most
/// commands and written by every refresh, so it is read and written with `JSONReader` and
/// `JSONWriter` instead of Foundation's coders. The format is the one `JSONEncoder` would write,
/// with `version` first.
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
    private static func problem(_ error: any Error, in data: Data) -> DocumentProblem {
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

    public func encodeDocument() throws -> [UInt8] {
        // About 500 bytes a route; reserve twice that so the buffer never regrows (and never holds
        // two copies). Pages that are never written cost no memory.
        var encoder = Encoder(fetchedAt: fetchedAt, source: source, validators: validators, capacity: 4_096 + routes.count * 1_024)
        for route in routes { encoder.append(route) }
        encoder.finish()
        return encoder.writer.bytes
    }

    /// Writes a cache a route at a time, so that a refresh can save a feed of any size as it reads
    /// it, a piece at a time (`flush`), instead of holding all of it.
    struct Encoder {
        private(set) var writer: JSONWriter

        init(fetchedAt: Date?, source: String?, validators: HTTPValidators?, capacity: Int) {
            writer = JSONWriter(capacity: capacity)
            writer.beginObject()
            writer.key("version")
            writer.int(RouteCache.currentVersion)
            writer.key("fetchedAt")
            writer.string(fetchedAt.map { ISO8601.string($0) })
            writer.key("source")
            writer.string(source)
            // Before the routes, so that a conditional request reads only the head of the file.
            writer.key("validators")
            if let validators, !validators.isEmpty {
                writer.beginObject()
                writer.key("etag")
                writer.string(validators.etag)
                writer.key("lastModified")
                writer.string(validators.lastModified)
                writer.endObject()
            } else {
                writer.null()
            }
            writer.key("routes")
            writer.beginArray()
        }

        mutating func append(_ route: Route) {
            writer.beginObject()
            writer.key("id")
            writer.string(route.id)
            writer.key("name")
            writer.string(route.feedName)
            writer.key("description")
            writer.string(route.description)
            writer.key("currentMinutes")
            writer.int(route.currentMinutes)
            writer.key("averageMinutes")
            writer.int(route.averageMinutes)
            writer.key("distanceMiles")
            writer.double(route.distanceMiles)
            writer.key("updatedAt")
            writer.string(ISO8601.string(route.updatedAt))
            writer.key("startPoint")
            RouteCache.write(route.startPoint, &writer)
            writer.key("endPoint")
            RouteCache.write(route.endPoint, &writer)
            // Only custom routes carry it: a feed's cache is as it always was.
            if let custom = route.custom {
                writer.key("custom")
                RouteCache.write(custom, &writer)
            }
            // Only a route with a reading held back carries it.
            if let suspicious = route.suspiciousMinutes {
                writer.key("suspiciousMinutes")
                writer.int(suspicious)
            }
            writer.endObject()
        }

        mutating func finish() {
            writer.endArray()
            writer.endObject()
            writer.newline()
        }

        /// Bytes written and not yet flushed.
        var pendingByteCount: Int { writer.bytes.count }

        /// Writes out what has been encoded so far.
        mutating func flush(to file: AtomicFile.Output) throws {
            try writer.flush { bytes in try file.write(bytes) }
        }
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
    ) throws(StoreError) -> (custom: [Route], kept: [String: Route]) {
        guard let file = try MappedFile(path: path, maximumSize: RegularFile.routeCacheMaximumSize) else { return ([], [:]) }
        guard !file.bytes.isEmpty else { throw .unreadable(path: path, reason: "the file is empty") }
        var custom: [Route] = []
        var kept: [String: Route] = [:]
        do {
            try JSONReader.read(file.bytes) { reader in
                try walk(&reader) { reader, index in
                    let route = try readRoute(&reader, index: index, includingEndPoints: true)
                    if route.custom != nil {
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

    /// The routes whose name or description contains the text (any case), and the newest update
    /// time of all routes. Routes that do not match are tested on the file's bytes and skipped
    /// unbuilt, so a search of 10,000 routes costs a fraction of reading them all.
    static func search(_ data: Data, for search: TextSearch) throws -> (routes: [Route], newest: Date?) {
        var newest: Date?
        var routes: [Route] = []
        do {
            try JSONReader.read(data) { reader in
                try walk(&reader) { reader, index in
                    let start = reader.position
                    let (matched, updated) = try scan(&reader, for: search)
                    if let updated, newest.map({ updated > $0 }) ?? true { newest = updated }
                    if matched {
                        reader.restore(start)
                        routes.append(try readRoute(&reader, index: index, includingEndPoints: false))
                    }
                }
            }
        } catch {
            throw problem(error, in: data)
        }
        return (routes, newest)
    }

    /// The routes with these IDs in the cache at `path`. Every other route is read for its ID and
    /// skipped unbuilt, and the mapped file's pages are handed back behind the pass, so finding a
    /// few routes among 10,000 costs a pass over the bytes, not 10,000 routes in memory.
    static func routes(atPath path: String, withIDs ids: Set<String>, includingEndPoints: Bool) throws(StoreError) -> [Route] {
        guard let file = try MappedFile(path: path, maximumSize: RegularFile.routeCacheMaximumSize) else { return [] }
        guard !file.bytes.isEmpty else { throw .unreadable(path: path, reason: "the file is empty") }
        var routes: [Route] = []
        do {
            try JSONReader.read(file.bytes) { reader in
                try walk(&reader) { reader, index in
                    let start = reader.position
                    guard try reader.peek() == .object else { throw DocumentProblem("wrong shape: routes[\(index)] is not an object") }
                    try reader.beginObject()
                    var wanted = false
                    var seen = JSONReader.FieldsSeen()
                    while let key = try reader.nextKey(firstOf: routeFields, seen: &seen) {
                        if "id" ~= key, try reader.peek() == .string {
                            wanted = ids.contains(try reader.readString())
                        } else {
                            try reader.skipValue()
                        }
                    }
                    if wanted {
                        reader.restore(start)
                        routes.append(try readRoute(&reader, index: index, includingEndPoints: includingEndPoints))
                    }
                    if index % 256 == 255 { file.release(before: reader.offset) }
                }
            }
        } catch {
            throw .unreadable(path: path, reason: file.withData { problem(error, in: $0) }.reason)
        }
        return routes
    }

    /// One route object, read for its name, description and update time only.
    private static func scan(_ reader: inout JSONReader, for search: TextSearch) throws -> (matched: Bool, updated: Date?) {
        try reader.beginObject()
        var matched = false
        var name: Bool?
        var updated: Date?
        var seen = JSONReader.FieldsSeen()
        while let key = try reader.nextKey(firstOf: routeFields, seen: &seen) {
            switch key {
            case "name", "description":
                if try reader.readNull() {
                    if key == "name" { name = false }
                    continue
                }
                let found = try reader.withStringBytes { search.matches($0) }
                if key == "name" { name = true }
                matched = matched || found
            case "updatedAt":
                updated = try reader.withStringBytes { ISO8601.parse(bytes: $0)?.instant }
            default: try reader.skipValue()
            }
        }
        // A route with no name is shown by its description, else as "Route <id>": the rare
        // nameless route is built and matched the ordinary way.
        return (matched || name != true, updated)
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
    private static func walk(
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
    private static let routeFields: [StaticString] = [
        "id", "name", "description", "currentMinutes", "averageMinutes", "distanceMiles", "updatedAt", "startPoint", "endPoint",
        "custom", "suspiciousMinutes",
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
    }

    private static func readRoute(_ reader: inout JSONReader, index: Int, includingEndPoints: Bool) throws -> Route {
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
        var route = Route(
            id: id, name: fields.name, description: fields.description, currentMinutes: fields.current,
            averageMinutes: fields.average, distanceMiles: fields.distance, updatedAt: updated,
            startPoint: fields.start, endPoint: fields.end, custom: fields.custom)
        route.suspiciousMinutes = fields.suspicious.flatMap { $0 > 0 ? $0 : nil }
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
            default: try reader.skipValue()
            }
        } catch let error as JSONReadError where error.kind == .type {
            throw DocumentProblem("wrong shape: routes[\(index)].\(key) has the wrong type")
        }
    }

    private static func readDate(_ reader: inout JSONReader, field: @autoclosure () -> String, optional: Bool) throws -> Date? {
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

    private static let customFields: [StaticString] = ["provider", "from", "to", "fetchedAt", "triedAt"]

    private static func readCustom(_ reader: inout JSONReader, field: String) throws -> Route.Custom? {
        if try reader.readNull() { return nil }
        try reader.beginObject()
        var provider: RouteProvider?
        var from: Coordinate?
        var to: Coordinate?
        var fetchedAt: Date?
        var triedAt: Date?
        var seen = JSONReader.FieldsSeen()
        while let key = try reader.nextKey(firstOf: customFields, seen: &seen) {
            switch key {
            case "provider":
                let name = try reader.readString()
                guard let known = RouteProvider(rawValue: name) else {
                    throw DocumentProblem("impossible value: \(field).provider '\(DisplayText.line(name))' is not tomtom, here or google")
                }
                provider = known
            case "from": from = try readCoordinate(&reader, field: "\(field).from")
            case "to": to = try readCoordinate(&reader, field: "\(field).to")
            case "fetchedAt": fetchedAt = try readDate(&reader, field: "\(field).fetchedAt", optional: true)
            case "triedAt": triedAt = try readDate(&reader, field: "\(field).triedAt", optional: true)
            default: try reader.skipValue()
            }
        }
        guard let provider, let from, let to else { throw DocumentProblem("wrong shape: \(field) needs provider, from and to") }
        return Route.Custom(provider: provider, from: from, to: to, fetchedAt: fetchedAt, triedAt: triedAt)
    }

    private static func readCoordinate(_ reader: inout JSONReader, field: String) throws -> Coordinate {
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

    fileprivate static func write(_ custom: Route.Custom, _ writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("provider")
        writer.string(custom.provider.rawValue)
        for (name, point) in [("from", custom.from), ("to", custom.to)] {
            writer.key(name)
            writer.beginObject()
            writer.key("latitude")
            writer.double(point.latitude)
            writer.key("longitude")
            writer.double(point.longitude)
            writer.endObject()
        }
        writer.key("fetchedAt")
        writer.string(custom.fetchedAt.map { ISO8601.string($0) })
        writer.key("triedAt")
        writer.string(custom.triedAt.map { ISO8601.string($0) })
        writer.endObject()
    }

    fileprivate static func write(_ point: Route.Point?, _ writer: inout JSONWriter) {
        guard let point else { return writer.null() }
        writer.beginObject()
        writer.key("description")
        writer.string(point.description)
        writer.key("direction")
        writer.string(point.direction)
        writer.key("latitude")
        writer.double(point.latitude)
        writer.key("longitude")
        writer.double(point.longitude)
        writer.key("milePost")
        writer.double(point.milePost)
        writer.key("roadName")
        writer.string(point.roadName)
        writer.endObject()
    }
}
