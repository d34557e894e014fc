import Basics
import CommuteModel
import FoundationEssentials

/// `pending.json` is read by every `tick` (every minute) and every `pending`, and holds a line for
/// every weekly request — 15,000 for 3,000 schedules — so it is read and written with `JSONReader`
/// and `JSONWriter`, as `JSONCoding` writes it but for one thing: `deferred`, nearly all of the
/// file at scale, is written last, so that `tick`, which needs only the scheduled requests, stops
/// reading where it begins (and, the file being mapped, never touches its pages).
@_spi(Store)
extension PendingBook {
    public static func decodeDocument(from data: Data) throws -> PendingBook {
        try decodeDocument(from: data, deferred: .all)
    }

    /// How much of `deferred` a reader wants.
    public enum DeferredReading: Sendable, Equatable {
        case all
        /// None: `tick` needs only the scheduled requests.
        case none
        /// The first `count`, soonest first as they are written: what the `pending` listing shows.
        case first(Int)
    }

    /// Reading stops at `deferred`, or after as many of its entries as asked for, when it comes
    /// last (as this version writes it). In a file that has it first, it is read whole or skipped
    /// as JSON.
    public static func decodeDocument(from data: Data, deferred reading: DeferredReading) throws -> PendingBook {
        try DocumentReading.document(data, as: PendingBook.self, wholly: reading == .all) { reader in
            var book = PendingBook(cap: 0)
            var version: Int?
            var cap: Int?
            var requested: Int?
            var requests: [Entry]?
            var deferred: [Entry]?
            do {
                let keys: [StaticString] = [
                    "version", "plannedAt", "timeZone", "cap", "requested", "requests", "deferred", "pauses", "schedulesStamp", "deferredDigest",
                ]
                try DocumentReading.object(&reader, field: "", keys: keys) { key, reader in
                    switch key {
                    case "version":
                        try DocumentReading.version(&reader, of: PendingBook.self)
                        version = currentVersion
                    case "plannedAt": book.plannedAt = try DocumentReading.optionalDate(&reader, field: "plannedAt")
                    case "timeZone": book.timeZone = try reader.readOptionalString()
                    case "cap": cap = try reader.readInt()
                    case "requested": requested = try reader.readInt()
                    case "requests": requests = try entries(&reader, "requests")
                    case "pauses": book.pauses = try pauses(&reader)
                    case "schedulesStamp": book.schedulesStamp = try reader.readOptionalString()
                    case "deferredDigest": book.deferredDigest = try reader.readOptionalString()
                    default:
                        // Everything but `deferred` read: the rest is read only as far as asked.
                        let last = version != nil && cap != nil && requested != nil && requests != nil
                        switch reading {
                        case .all:
                            deferred = try entries(&reader, "deferred")
                        case .none:
                            deferred = []
                            if last { throw StopAtDeferred() }
                            try reader.skipValue()
                        case .first(let count):
                            guard last else {
                                deferred = Array(try entries(&reader, "deferred").prefix(count))
                                return
                            }
                            deferred = try entries(&reader, "deferred", limit: count)
                            throw StopAtDeferred()
                        }
                    }
                }
            } catch is StopAtDeferred {}
            guard version != nil else { throw DocumentProblem("no \"version\" field") }
            book.cap = try DocumentReading.required(cap, "cap")
            book.requested = try DocumentReading.required(requested, "requested")
            book.requests = try DocumentReading.required(requests, "requests")
            book.deferred = try DocumentReading.required(deferred, "deferred")
            return book
        }
    }

    /// Thrown to stop reading at `deferred`, with everything else read.
    private struct StopAtDeferred: Error {}

    /// The pauses the plan was made with (for `pending` to name), each as `JSONCoding` writes one.
    private static func pauses(_ reader: inout JSONReader) throws -> [Pause] {
        var pauses: [Pause] = []
        try DocumentReading.array(&reader, field: "pauses") { reader, index in
            let field = "pauses[\(index)]"
            var number: Int?
            var from: String?
            var until: String?
            var scheduleID: UUID?
            var reason: String?
            try DocumentReading.object(&reader, field: field, keys: ["number", "from", "until", "scheduleID", "reason"]) { key, reader in
                switch key {
                case "number": number = try reader.readInt()
                case "from": from = try reader.readString()
                case "until": until = try reader.readString()
                case "scheduleID": scheduleID = try reader.readNull() ? nil : try DocumentReading.uuid(&reader, field: "\(field).scheduleID")
                default: reason = try reader.readOptionalString()
                }
            }
            guard let first = CivilDate(iso: try DocumentReading.required(from, "\(field).from")),
                let last = CivilDate(iso: try DocumentReading.required(until, "\(field).until"))
            else { throw DocumentProblem("impossible value: \(field) has a date that is not YYYY-MM-DD") }
            pauses.append(Pause(
                number: try DocumentReading.required(number, "\(field).number"), from: first, until: last, scheduleID: scheduleID,
                reason: reason))
        }
        return pauses
    }

    /// The entries of `requests` or `deferred`. The hottest loop of every per-minute command, so
    /// each entry's keys are matched by a switch rather than through `DocumentReading.object`.
    /// With a `limit`, reading stops after that many entries, the reader left inside the array:
    /// only the last list of the file is read so.
    private static func entries(_ reader: inout JSONReader, _ list: String, limit: Int? = nil) throws -> [Entry] {
        var entries: [Entry] = []
        entries.reserveCapacity(min(limit ?? .max, reader.remainingBytes / 200))
        do {
            try readEntries(&reader, list, limit: limit, into: &entries)
        } catch is StopAtDeferred {}
        return entries
    }

    private static func readEntries(_ reader: inout JSONReader, _ list: String, limit: Int?, into entries: inout [Entry]) throws {
        try DocumentReading.array(&reader, field: list) { reader, index in
            if let limit, entries.count >= limit { throw StopAtDeferred() }
            guard try reader.peek() == .object else { throw DocumentProblem("wrong shape: \(list)[\(index)] is not an object") }
            try reader.beginObject()
            var scheduleID: UUID?
            var weekday: Int?
            var hour: Int?
            var minute: Int?
            var nextFire: Date?
            var title: String?
            var body: String?
            var since: Date?
            var handled: Date?
            var arrival: Date?
            var headsUp = false
            var once = false
            var dataAsOf: Date?
            var departure: TransitRun?
            var replaced: TransitRun?
            var seen: UInt16 = 0
            // A key given twice keeps its first value: the repeat is skipped (and checked). `id`
            // is skipped too: it is derived from the schedule and weekday.
            func first(_ bit: UInt16) -> Bool {
                defer { seen |= bit }
                return seen & bit == 0
            }
            while let key = try reader.nextKey() {
                do {
                    switch key {
                    case "scheduleID" where first(2): scheduleID = try DocumentReading.uuid(&reader, field: "\(list)[\(index)].scheduleID")
                    case "weekday" where first(4): weekday = try reader.readInt()
                    case "hour" where first(8): hour = try reader.readInt()
                    case "minute" where first(16): minute = try reader.readInt()
                    case "nextFire" where first(32): nextFire = try DocumentReading.date(&reader, field: "\(list)[\(index)].nextFire")
                    case "title" where first(64): title = try reader.readOptionalString()
                    case "body" where first(128): body = try reader.readOptionalString()
                    case "since" where first(256): since = try DocumentReading.optionalDate(&reader, field: "\(list)[\(index)].since")
                    case "handled" where first(512):
                        handled = try DocumentReading.optionalDate(&reader, field: "\(list)[\(index)].handled")
                    case "arrival" where first(1024):
                        arrival = try DocumentReading.optionalDate(&reader, field: "\(list)[\(index)].arrival")
                    case "headsUp" where first(2048): headsUp = try reader.readBool()
                    case "dataAsOf" where first(4096):
                        dataAsOf = try DocumentReading.optionalDate(&reader, field: "\(list)[\(index)].dataAsOf")
                    case "departure" where first(8192): departure = try readRun(&reader, field: "\(list)[\(index)].departure")
                    case "replaced" where first(16384): replaced = try readRun(&reader, field: "\(list)[\(index)].replaced")
                    case "once" where first(32768): once = try reader.readBool()
                    default: try reader.skipValue()
                    }
                } catch let error as JSONReadError where error.kind == .type {
                    throw DocumentProblem("wrong shape: \(list)[\(index)].\(key) has the wrong type")
                }
            }
            func field() -> String { "\(list)[\(index)]" }
            let number = try DocumentReading.required(weekday, "\(field()).weekday")
            guard let day = Weekday(rawValue: number) else {
                throw DocumentProblem("impossible value: \(field()).weekday is \(number), outside 1–7")
            }
            var entry = Entry(
                scheduleID: try DocumentReading.required(scheduleID, "\(field()).scheduleID"), weekday: day,
                hour: try DocumentReading.required(hour, "\(field()).hour"),
                minute: try DocumentReading.required(minute, "\(field()).minute"),
                nextFire: try DocumentReading.required(nextFire, "\(field()).nextFire"), title: title, body: body, since: since,
                handled: handled, arrival: arrival, isHeadsUp: headsUp, isOnce: once)
            entry.dataAsOf = dataAsOf
            if departure != nil || replaced != nil { entry.memory = TransitMemory(departure: departure, replaced: replaced) }
            entries.append(entry)
        }
    }

    /// `{"scheduled": "…", "trip": "…"}`, or null.
    private static func readRun(_ reader: inout JSONReader, field: String) throws -> TransitRun? {
        if try reader.peek() == .null {
            try reader.skipValue()
            return nil
        }
        guard try reader.peek() == .object else { throw DocumentProblem("wrong shape: \(field) is not an object") }
        try reader.beginObject()
        var trip: String?
        var scheduled: Date?
        while let key = try reader.nextKey() {
            switch key {
            case "trip" where trip == nil: trip = try reader.readOptionalString()
            case "scheduled" where scheduled == nil: scheduled = try DocumentReading.optionalDate(&reader, field: "\(field).scheduled")
            default: try reader.skipValue()
            }
        }
        let id = try DocumentReading.required(trip, "\(field).trip")
        guard !id.isEmpty, id.utf8.count <= TransitRun.longestTrip else {
            throw DocumentProblem("impossible value: \(field).trip is empty or over \(TransitRun.longestTrip) bytes")
        }
        return TransitRun(trip: id, scheduled: try DocumentReading.required(scheduled, "\(field).scheduled"))
    }

    public func encodeDocument() throws -> [UInt8] {
        var writer = JSONWriter(capacity: 256 + (requests.count + deferred.count) * 320)
        writer.beginObject()
        writer.key("cap")
        writer.int(cap)
        if let deferredDigest {
            writer.key("deferredDigest")
            writer.string(deferredDigest)
        }
        if let pauses, !pauses.isEmpty {
            writer.key("pauses")
            writer.beginArray()
            for pause in pauses {
                writer.beginObject()
                writer.key("from")
                writer.string(pause.from.iso)
                writer.key("number")
                writer.int(pause.number)
                if let reason = pause.reason {
                    writer.key("reason")
                    writer.string(reason)
                }
                if let scheduleID = pause.scheduleID {
                    writer.key("scheduleID")
                    writer.string(scheduleID.uuidString)
                }
                writer.key("until")
                writer.string(pause.until.iso)
                writer.endObject()
            }
            writer.endArray()
        }
        if let plannedAt {
            writer.key("plannedAt")
            writer.string(ISO8601.string(plannedAt))
        }
        writer.key("requested")
        writer.int(requested)
        writer.key("requests")
        Self.write(requests, &writer)
        if let schedulesStamp {
            writer.key("schedulesStamp")
            writer.string(schedulesStamp)
        }
        if let timeZone {
            writer.key("timeZone")
            writer.string(timeZone)
        }
        writer.key("version")
        writer.int(version)
        // Last, out of sorted order: see the top of this file.
        writer.key("deferred")
        Self.write(deferred, &writer)
        writer.endObject()
        writer.newline()
        return writer.bytes
    }

    private static func writeRun(_ run: TransitRun, key: String, _ writer: inout JSONWriter) {
        writer.key(key)
        writer.beginObject()
        writer.key("scheduled")
        writer.string(ISO8601.string(run.scheduled))
        writer.key("trip")
        writer.string(run.trip)
        writer.endObject()
    }

    /// Keys in sorted order and absent optionals left out, as `JSONCoding` writes them.
    private static func write(_ entries: [Entry], _ writer: inout JSONWriter) {
        writer.beginArray()
        for entry in entries {
            writer.beginObject()
            if let arrival = entry.arrival {
                writer.key("arrival")
                writer.string(ISO8601.string(arrival))
            }
            if let body = entry.body {
                writer.key("body")
                writer.string(body)
            }
            if let dataAsOf = entry.dataAsOf {
                writer.key("dataAsOf")
                writer.string(ISO8601.string(dataAsOf))
            }
            if let departure = entry.memory?.departure { writeRun(departure, key: "departure", &writer) }
            if let handled = entry.handled {
                writer.key("handled")
                writer.string(ISO8601.string(handled))
            }
            if entry.isHeadsUp {
                writer.key("headsUp")
                writer.bool(true)
            }
            writer.key("hour")
            writer.int(entry.hour)
            writer.key("id")
            writer.string(entry.id.description)
            writer.key("minute")
            writer.int(entry.minute)
            writer.key("nextFire")
            writer.string(ISO8601.string(entry.nextFire))
            if entry.isOnce {
                writer.key("once")
                writer.bool(true)
            }
            if let replaced = entry.memory?.replaced { writeRun(replaced, key: "replaced", &writer) }
            writer.key("scheduleID")
            writer.string(entry.scheduleID.uuidString)
            if let since = entry.since {
                writer.key("since")
                writer.string(ISO8601.string(since))
            }
            if let title = entry.title {
                writer.key("title")
                writer.string(title)
            }
            writer.key("weekday")
            writer.int(entry.weekday.rawValue)
            writer.endObject()
        }
        writer.endArray()
    }
}
