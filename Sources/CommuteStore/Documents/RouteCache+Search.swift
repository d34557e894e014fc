import Basics
import CommuteModel
import FoundationEssentials

extension RouteCache {
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
    static func routes(atPath path: String, withIDs ids: Set<RouteID>, includingEndPoints: Bool) throws(StoreError) -> [Route] {
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
                            wanted = ids.contains(RouteID(try reader.readString()))
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
}
