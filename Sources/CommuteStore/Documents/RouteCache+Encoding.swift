import Basics
import CommuteModel
import FoundationEssentials

extension RouteCache {
    static func write(_ custom: Route.Custom, _ writer: inout JSONWriter) {
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
        // Only a route with a fallback, or a problem, carries them.
        if let fallback = custom.fallback {
            writer.key("fallback")
            writer.string(fallback.rawValue)
            writer.key("estimateMinutes")
            writer.int(custom.estimateMinutes)
            writer.key("estimatedAt")
            writer.string(custom.estimatedAt.map { ISO8601.string($0) })
        }
        if let problem = custom.liveProblem {
            writer.key("liveProblem")
            writer.string(problem)
        }
        if let calendar = custom.calendar {
            writer.key("calendar")
            writer.string(calendar)
        }
        if let predictions = custom.predictions, !predictions.isEmpty {
            writer.key("predictions")
            writer.beginArray()
            for prediction in predictions {
                writer.beginObject()
                writer.key("departure")
                writer.string(ISO8601.string(prediction.departure))
                writer.key("minutes")
                writer.int(prediction.minutes)
                if let seconds = prediction.seconds {
                    writer.key("seconds")
                    writer.double(seconds)
                }
                if let usual = prediction.usualMinutes {
                    writer.key("usualMinutes")
                    writer.int(usual)
                }
                writer.key("askedAt")
                writer.string(ISO8601.string(prediction.askedAt))
                writer.endObject()
            }
            writer.endArray()
        }
        if let factor = custom.readingFactor {
            writer.key("readingFactor")
            writer.double(factor)
        }
        if let moving = custom.movingSince {
            writer.key("movingSince")
            writer.string(ISO8601.string(moving))
        }
        writer.endObject()
    }

    static func write(_ point: Route.Point?, _ writer: inout JSONWriter) {
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

extension RouteCache {
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
            writer.string(route.id.rawValue)
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
            // Only a transit planner's route carries its itineraries.
            if let transit = route.transit, route.provider?.isTransit == true, let encoded = try? StoreCoding.encoder.encode(transit) {
                writer.key("transit")
                writer.raw(Array(encoded))
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
}
