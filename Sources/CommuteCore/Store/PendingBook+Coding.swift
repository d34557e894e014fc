import Foundation

/// `pending.json` is read by every `tick` (every minute) and every `pending`, and holds a line for
/// every weekly request — 1,500 for 300 schedules — so it is read and written with `JSONReader`
/// and `JSONWriter`, in the format `JSONEncoder` writes.
extension PendingBook {
    public static func decodeDocument(from data: Data) throws -> PendingBook {
        try decodeDocument(from: data, includingDeferred: true)
    }

    /// Without `includingDeferred`, the deferred requests are checked as JSON and left unbuilt:
    /// `tick` needs only the scheduled ones.
    static func decodeDocument(from data: Data, includingDeferred: Bool) throws -> PendingBook {
        try DocumentReading.document(data, as: PendingBook.self) { reader in
            var book = PendingBook(cap: 0)
            var version: Int?
            var cap: Int?
            var requested: Int?
            var requests: [Entry]?
            var deferred: [Entry]?
            try DocumentReading.object(&reader, field: "", keys: ["version", "plannedAt", "timeZone", "cap", "requested", "requests", "deferred"]) {
                key, reader in
                switch key {
                case "version":
                    try DocumentReading.version(&reader, of: PendingBook.self)
                    version = currentVersion
                case "plannedAt": book.plannedAt = try DocumentReading.optionalDate(&reader, field: "plannedAt")
                case "timeZone": book.timeZone = try reader.readOptionalString()
                case "cap": cap = try reader.readInt()
                case "requested": requested = try reader.readInt()
                case "requests": requests = try entries(&reader, "requests")
                default:
                    if includingDeferred {
                        deferred = try entries(&reader, "deferred")
                    } else {
                        try reader.skipValue()
                        deferred = []
                    }
                }
            }
            guard version != nil else { throw DocumentProblem("no \"version\" field") }
            book.cap = try DocumentReading.required(cap, "cap")
            book.requested = try DocumentReading.required(requested, "requested")
            book.requests = try DocumentReading.required(requests, "requests")
            book.deferred = try DocumentReading.required(deferred, "deferred")
            return book
        }
    }

    private static func entries(_ reader: inout JSONReader, _ list: String) throws -> [Entry] {
        var entries: [Entry] = []
        try DocumentReading.array(&reader, field: list) { reader, index in
            let field = "\(list)[\(index)]"
            var id: String?
            var scheduleID: UUID?
            var weekday: Weekday?
            var hour: Int?
            var minute: Int?
            var nextFire: Date?
            var title: String?
            var body: String?
            var since: Date?
            try DocumentReading.object(
                &reader, field: field, keys: ["id", "scheduleID", "weekday", "hour", "minute", "nextFire", "title", "body", "since"]
            ) { key, reader in
                switch key {
                case "id": id = try reader.readString()
                case "scheduleID": scheduleID = try DocumentReading.uuid(&reader, field: "\(field).scheduleID")
                case "weekday":
                    let number = try reader.readInt()
                    guard let day = Weekday(rawValue: number) else {
                        throw DocumentProblem("impossible value: \(field).weekday is \(number), outside 1–7")
                    }
                    weekday = day
                case "hour": hour = try reader.readInt()
                case "minute": minute = try reader.readInt()
                case "nextFire": nextFire = try DocumentReading.date(&reader, field: "\(field).nextFire")
                case "title": title = try reader.readOptionalString()
                case "body": body = try reader.readOptionalString()
                default: since = try DocumentReading.optionalDate(&reader, field: "\(field).since")
                }
            }
            entries.append(Entry(
                id: try DocumentReading.required(id, "\(field).id"),
                scheduleID: try DocumentReading.required(scheduleID, "\(field).scheduleID"),
                weekday: try DocumentReading.required(weekday, "\(field).weekday"),
                hour: try DocumentReading.required(hour, "\(field).hour"),
                minute: try DocumentReading.required(minute, "\(field).minute"),
                nextFire: try DocumentReading.required(nextFire, "\(field).nextFire"), title: title, body: body, since: since))
        }
        return entries
    }

    public func encodeDocument() throws -> [UInt8] {
        var writer = JSONWriter(capacity: 256 + (requests.count + deferred.count) * 320)
        writer.beginObject()
        writer.key("cap")
        writer.int(cap)
        writer.key("deferred")
        Self.write(deferred, &writer)
        if let plannedAt {
            writer.key("plannedAt")
            writer.string(ISO8601.string(plannedAt))
        }
        writer.key("requested")
        writer.int(requested)
        writer.key("requests")
        Self.write(requests, &writer)
        if let timeZone {
            writer.key("timeZone")
            writer.string(timeZone)
        }
        writer.key("version")
        writer.int(version)
        writer.endObject()
        writer.newline()
        return writer.bytes
    }

    /// Keys in sorted order and absent optionals left out, as `JSONEncoder` writes them.
    private static func write(_ entries: [Entry], _ writer: inout JSONWriter) {
        writer.beginArray()
        for entry in entries {
            writer.beginObject()
            if let body = entry.body {
                writer.key("body")
                writer.string(body)
            }
            writer.key("hour")
            writer.int(entry.hour)
            writer.key("id")
            writer.string(entry.id)
            writer.key("minute")
            writer.int(entry.minute)
            writer.key("nextFire")
            writer.string(ISO8601.string(entry.nextFire))
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
