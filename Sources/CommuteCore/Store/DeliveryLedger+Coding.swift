import Foundation

/// `delivered.json` is read by every `tick` and holds a month of decisions, so it is read and
/// written with `JSONReader` and `JSONWriter`, in the format `JSONEncoder` writes.
extension DeliveryLedger {
    public static func decodeDocument(from data: Data) throws -> DeliveryLedger {
        var dropped = 0
        return try decodeDocument(from: data, keepingSince: nil, dropped: &dropped)
    }

    /// The ledger without the entries decided before `horizon`: each is read and checked, and
    /// dropped, so a ledger that grew for a year costs its reading, not its keeping.
    /// `dropped` counts them.
    static func decodeDocument(from data: Data, keepingSince horizon: Date?, dropped: inout Int) throws -> DeliveryLedger {
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
                    try DocumentReading.array(&reader, field: "entries") { reader, index in
                        let entry = try entry(&reader, index)
                        if let horizon, entry.at < horizon {
                            dropped += 1
                            return
                        }
                        read.append(entry)
                    }
                    entries = read
                }
            }
            guard version != nil else { throw DocumentProblem("no \"version\" field") }
            return DeliveryLedger(entries: try DocumentReading.required(entries, "entries"))
        }
    }

    /// When each decision was made and what it was, newest last, at or after `horizon`: what
    /// `status` shows, read without building the rest of each entry.
    static func decisions(from data: Data, since horizon: Date?) throws -> [(at: Date, outcome: Entry.Outcome)] {
        var decisions: [(at: Date, outcome: Entry.Outcome)] = []
        _ = try DocumentReading.document(data, as: DeliveryLedger.self) { reader in
            try DocumentReading.object(&reader, field: "", keys: ["version", "entries"]) { key, reader in
                switch key {
                case "version": try DocumentReading.version(&reader, of: DeliveryLedger.self)
                default:
                    try DocumentReading.array(&reader, field: "entries") { reader, index in
                        // Named only when something is wrong: this runs for every decision of the month.
                        func field() -> String { "entries[\(index)]" }
                        guard try reader.peek() == .object else { throw DocumentProblem("wrong shape: \(field()) is not an object") }
                        try reader.beginObject()
                        var at: Date?
                        var outcome: Entry.Outcome?
                        while let key = try reader.nextKey() {
                            if at == nil, "at" ~= key {
                                at = try DocumentReading.date(&reader, field: "\(field()).at")
                            } else if outcome == nil, "outcome" ~= key {
                                let text = try reader.readString()
                                outcome = Entry.Outcome(rawValue: text)
                                guard outcome != nil else { throw DocumentProblem("wrong shape: \(field()).outcome '\(text)' is not an outcome") }
                            } else {
                                try reader.skipValue()
                            }
                        }
                        let decided = try DocumentReading.required(at, "\(field()).at")
                        if let horizon, decided < horizon { return }
                        decisions.append((decided, try DocumentReading.required(outcome, "\(field()).outcome")))
                    }
                }
            }
            return DeliveryLedger.empty
        }
        return decisions
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
