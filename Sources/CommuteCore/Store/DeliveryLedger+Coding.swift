import Foundation

/// `delivered.json` is read by every `tick` and holds a month of decisions, so it is read and
/// written with `JSONReader` and `JSONWriter`, in the format `JSONEncoder` writes.
extension DeliveryLedger {
    public static func decodeDocument(from data: Data) throws -> DeliveryLedger {
        try DocumentReading.document(data, as: DeliveryLedger.self) { reader in
            var version: Int?
            var entries: [Entry]?
            try DocumentReading.object(&reader, field: "", keys: ["version", "entries"]) { key, reader in
                switch key {
                case "version":
                    try DocumentReading.version(&reader, of: DeliveryLedger.self)
                    version = currentVersion
                default:
                    var read: [Entry] = []
                    try DocumentReading.array(&reader, field: "entries") { reader, index in read.append(try entry(&reader, index)) }
                    entries = read
                }
            }
            guard version != nil else { throw DocumentProblem("no \"version\" field") }
            return DeliveryLedger(entries: try DocumentReading.required(entries, "entries"))
        }
    }

    private static func entry(_ reader: inout JSONReader, _ index: Int) throws -> Entry {
        let field = "entries[\(index)]"
        var requestID: String?
        var occurrence: Date?
        var notifier: Int?
        var outcome: Entry.Outcome?
        var at: Date?
        var attempts: Int?
        var reason: String?
        try DocumentReading.object(
            &reader, field: field, keys: ["requestID", "occurrence", "notifier", "outcome", "at", "attempts", "reason"]
        ) { key, reader in
            switch key {
            case "requestID": requestID = try reader.readString()
            case "occurrence": occurrence = try DocumentReading.date(&reader, field: "\(field).occurrence")
            case "notifier": notifier = try reader.readOptionalInt()
            case "outcome":
                let text = try reader.readString()
                guard let value = Entry.Outcome(rawValue: text) else {
                    throw DocumentProblem("wrong shape: \(field).outcome '\(text)' is not an outcome")
                }
                outcome = value
            case "at": at = try DocumentReading.date(&reader, field: "\(field).at")
            case "attempts": attempts = try reader.readInt()
            default: reason = try reader.readOptionalString()
            }
        }
        return Entry(
            requestID: try DocumentReading.required(requestID, "\(field).requestID"),
            occurrence: try DocumentReading.required(occurrence, "\(field).occurrence"), notifier: notifier,
            outcome: try DocumentReading.required(outcome, "\(field).outcome"), at: try DocumentReading.required(at, "\(field).at"),
            attempts: try DocumentReading.required(attempts, "\(field).attempts"), reason: reason)
    }

    public func encodeDocument() throws -> [UInt8] {
        var writer = JSONWriter(capacity: 64 + entries.count * 200)
        writer.beginObject()
        writer.key("entries")
        writer.beginArray()
        // Keys in sorted order and absent optionals left out, as `JSONEncoder` writes them.
        for entry in entries {
            writer.beginObject()
            writer.key("at")
            writer.string(ISO8601.string(entry.at))
            writer.key("attempts")
            writer.int(entry.attempts)
            if let notifier = entry.notifier {
                writer.key("notifier")
                writer.int(notifier)
            }
            writer.key("occurrence")
            writer.string(ISO8601.string(entry.occurrence))
            writer.key("outcome")
            writer.string(entry.outcome.rawValue)
            if let reason = entry.reason {
                writer.key("reason")
                writer.string(reason)
            }
            writer.key("requestID")
            writer.string(entry.requestID)
            writer.endObject()
        }
        writer.endArray()
        writer.key("version")
        writer.int(version)
        writer.endObject()
        writer.newline()
        return writer.bytes
    }
}
