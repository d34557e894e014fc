import Basics
import FoundationEssentials

/// A MOTIS `/api/v6/plan` answer read as it streams (MOTIS's `openapi.yaml`: `Itinerary`, `Alert`): the
/// fields of the itineraries and the `direct` ones that a route reads built as values, everything
/// else passed over unbuilt. Service alerts,
/// which a real answer repeats for every night on every leg and stop (6.7 MB for a 3-minute RER B
/// ride), are read one at a time and kept only where their period overlaps their leg's, once each,
/// as one line of plain text in the leg's `notices`. What is kept is what the itineraries hold,
/// however large the answer.
enum MOTISPlanReader {
    /// The most different alert texts remembered in one answer, the most alerts read for one leg,
    /// and the most periods read for one alert: far past any real answer's.
    static let largestTextCount = 256
    static let largestAlertCount = 20_000
    static let largestPeriodCount = 16

    /// The answer as an object with `itineraries` and `direct` (each at most `largest`), and
    /// `error` when MOTIS sent one; nil when the bytes are not one JSON object.
    static func read(_ data: Data, largest: Int) -> [String: Any]? {
        var texts = Texts()
        return try? JSONReader.read(data) { reader -> [String: Any]? in
            guard try reader.peek() == .object else {
                try reader.skipValue()
                return nil
            }
            try reader.beginObject()
            var answer: [String: Any] = [:]
            while let key = try reader.nextKey() {
                switch key {
                case "itineraries", "direct":
                    let name = key.description
                    let list = try readList(&reader, largest: largest) { try readItinerary(&$0, &texts) }
                    if answer[name] == nil { answer[name] = list }
                case "error":
                    let value = try reader.readAny()
                    if answer["error"] == nil { answer["error"] = value }
                default: try reader.skipValue()
                }
            }
            return answer
        }
    }

    /// A MOTIS `Itinerary` alone, as `refresh-itinerary` answers: its fields as `read` builds an
    /// itinerary's; nil when the bytes are not one JSON object.
    static func readItinerary(_ data: Data) -> [String: Any]? {
        var texts = Texts()
        return try? JSONReader.read(data) { reader -> [String: Any]? in
            guard try reader.peek() == .object else {
                try reader.skipValue()
                return nil
            }
            return try readItinerary(&reader, &texts) as? [String: Any]
        }
    }

    /// An array read element by element with `element`, keeping at most `largest` (the rest
    /// checked and passed over); any other value as it is, for the reader of the shape to refuse.
    private static func readList(_ reader: inout JSONReader, largest: Int, _ element: (inout JSONReader) throws -> Any) throws -> Any {
        guard try reader.peek() == .array else { return try reader.readAny() }
        try reader.beginArray()
        var list: [Any] = []
        while try reader.nextElement() {
            if list.count < largest { list.append(try element(&reader)) } else { try reader.skipValue() }
        }
        return list
    }

    private static func readItinerary(_ reader: inout JSONReader, _ texts: inout Texts) throws -> Any {
        guard try reader.peek() == .object else { return try reader.readAny() }
        try reader.beginObject()
        var itinerary: [String: Any] = [:]
        while let key = try reader.nextKey() {
            let name = key.description
            guard itinerary[name] == nil else {
                try reader.skipValue()
                continue
            }
            switch key {
            case "legs": itinerary[name] = try readList(&reader, largest: TransitLeg.largestCount + 1) { try readLeg(&$0, &texts) }
            case "duration", "startTime", "endTime", "transfers", "id": itinerary[name] = try readScalar(&reader)
            default: try reader.skipValue()  // fares, and whatever else: nothing read is built
            }
        }
        return itinerary
    }

    /// A leg with its places' and its own alerts gathered, then judged by its times.
    private static func readLeg(_ reader: inout JSONReader, _ texts: inout Texts) throws -> Any {
        guard try reader.peek() == .object else { return try reader.readAny() }
        try reader.beginObject()
        var leg: [String: Any] = [:]
        var alerts: [Alert] = []
        while let key = try reader.nextKey() {
            let name = key.description
            guard leg[name] == nil else {
                try reader.skipValue()
                continue
            }
            switch key {
            case "from", "to": leg[name] = try readPlace(&reader, &texts, &alerts)
            case "intermediateStops":
                // Only their alerts matter here: the stops themselves are not kept.
                _ = try readList(&reader, largest: .max) { reader in try readPlace(&reader, &texts, &alerts) }
            case "alerts": try readAlerts(&reader, &texts, into: &alerts)
            case "mode", "startTime", "endTime", "scheduledStartTime", "scheduledEndTime", "realTime", "scheduled", "cancelled", "headsign",
                "routeShortName", "displayName", "tripShortName", "tripId", "duration":
                leg[name] = try readScalar(&reader)
            default: try reader.skipValue()  // geometry, steps, rentals, fares, tickets…
            }
        }
        leg["notices"] = notices(alerts, start: leg["startTime"], end: leg["endTime"], texts: texts)
        return leg
    }

    private static func readPlace(_ reader: inout JSONReader, _ texts: inout Texts, _ alerts: inout [Alert]) throws -> Any {
        guard try reader.peek() == .object else { return try reader.readAny() }
        try reader.beginObject()
        var place: [String: Any] = [:]
        while let key = try reader.nextKey() {
            let name = key.description
            switch key {
            case "alerts": try readAlerts(&reader, &texts, into: &alerts)
            case "name", "stopId", "cancelled", "departure", "arrival", "scheduledDeparture", "scheduledArrival":
                let value = try readScalar(&reader)
                if place[name] == nil { place[name] = value }
            default: try reader.skipValue()
            }
        }
        return place
    }

    /// A string, number, boolean or null as `readAny` builds it; an array or object where one of
    /// those belongs is passed over unbuilt (nil: the field is then missing to the shape's reader).
    private static func readScalar(_ reader: inout JSONReader) throws -> Any? {
        switch try reader.peek() {
        case .array, .object:
            try reader.skipValue()
            return nil
        default: return try reader.readAny()
        }
    }

    // MARK: Alerts

    /// One alert as read: its text (an index into the answer's texts), when it is in force, and
    /// whether it is a fixed notice (a code, such as a train's catering, with no period).
    struct Alert {
        var text: Int
        /// `impactPeriod`, else `communicationPeriod`; empty: always.
        var periods: [(start: Date?, end: Date?)]
        var isFixedNotice: Bool
    }

    /// The texts of an answer's alerts, once each however often they are repeated.
    struct Texts {
        var index: [String: Int] = [:]
        var lines: [String] = []
    }

    private static func readAlerts(_ reader: inout JSONReader, _ texts: inout Texts, into alerts: inout [Alert]) throws {
        guard try reader.peek() == .array else {
            try reader.skipValue()
            return
        }
        try reader.beginArray()
        while try reader.nextElement() {
            guard alerts.count < largestAlertCount, try reader.peek() == .object else {
                try reader.skipValue()
                continue
            }
            try reader.beginObject()
            var header = "", description = "", code = false
            var impact: [(start: Date?, end: Date?)]?, communication: [(start: Date?, end: Date?)]?
            while let key = try reader.nextKey() {
                switch key {
                case "headerText": header = try readText(&reader) ?? header
                case "descriptionText": description = try readText(&reader) ?? description
                case "code": code = !(try readText(&reader) ?? "").isEmpty
                case "impactPeriod": impact = try readPeriods(&reader)
                case "communicationPeriod": communication = try readPeriods(&reader)
                default: try reader.skipValue()
                }
            }
            let periods = impact ?? communication ?? []
            guard let text = texts.add(header: header, description: description) else { continue }
            alerts.append(Alert(text: text, periods: periods, isFixedNotice: code && periods.isEmpty))
        }
    }

    /// A string, at most 64 KiB of it; nil (the value passed over) for anything else.
    private static func readText(_ reader: inout JSONReader) throws -> String? {
        guard try reader.peek() == .string else {
            try reader.skipValue()
            return nil
        }
        let text = try reader.readString()
        return text.utf8.count <= 65_536 ? text : String(text.prefix(65_536))
    }

    /// `[{"start": "…Z", "end": "…Z"}]`; a start or end not given, or not a time, is open.
    private static func readPeriods(_ reader: inout JSONReader) throws -> [(start: Date?, end: Date?)] {
        guard try reader.peek() == .array else {
            try reader.skipValue()
            return []
        }
        try reader.beginArray()
        var periods: [(start: Date?, end: Date?)] = []
        while try reader.nextElement() {
            guard periods.count < largestPeriodCount, try reader.peek() == .object else {
                try reader.skipValue()
                continue
            }
            try reader.beginObject()
            var period: (start: Date?, end: Date?) = (nil, nil)
            while let key = try reader.nextKey() {
                switch key {
                case "start": period.start = try readText(&reader).flatMap(time)
                case "end": period.end = try readText(&reader).flatMap(time)
                default: try reader.skipValue()
                }
            }
            periods.append(period)
        }
        return periods
    }

    private static func time(_ text: String) -> Date? {
        guard text.utf8.count <= 40, let date = ISO8601.parse(text)?.instant, Route.Transit.plausibleDates.contains(date) else { return nil }
        return date
    }

    /// The lines of the alerts in force during a leg from `start` to `end` (MOTIS times), once
    /// each, in the order met; fixed notices left out.
    static func notices(_ alerts: [Alert], start: Any?, end: Any?, texts: Texts) -> [String] {
        let from = (start as? String).flatMap(time), until = (end as? String).flatMap(time)
        var seen: Set<Int> = []
        var lines: [String] = []
        for alert in alerts where !alert.isFixedNotice && !seen.contains(alert.text) {
            let inForce = alert.periods.isEmpty || alert.periods.contains { period in
                // A period overlaps the leg unless it ends before the leg starts or starts after it ends.
                !((period.end.map { end in from.map { end <= $0 } ?? false } ?? false)
                    || (period.start.map { start in until.map { start > $0 } ?? false } ?? false))
            }
            guard inForce else { continue }
            seen.insert(alert.text)
            lines.append(texts.lines[alert.text])
            if lines.count == Route.Transit.largestNoticeCount { break }
        }
        return lines
    }
}

extension MOTISPlanReader.Texts {
    /// The index of the alert's text, added when new; nil past the answer's most, or for an alert
    /// with no words.
    mutating func add(header: String, description: String) -> Int? {
        let key = header + "\u{0}" + description
        if let known = index[key] { return known }
        guard lines.count < MOTISPlanReader.largestTextCount else { return nil }
        let line = PlainText.line(header.isEmpty ? description : header, longest: Route.Transit.longestNotice)
        guard !line.isEmpty else { return nil }
        index[key] = lines.count
        lines.append(line)
        return lines.count - 1
    }
}

/// Text a feed wrote in HTML, though its field is called plain (real MOTIS alerts are): as one
/// line, tags dropped (a break or paragraph a space), character references decoded
/// (`&#233;` é, `&amp;` &), runs of spaces one, nothing hidden, at most `longest` characters.
public enum PlainText {
    public static func line(_ text: String, longest: Int) -> String {
        var out = ""
        var scalars = text.unicodeScalars[...]
        while let scalar = scalars.popFirst() {
            switch scalar {
            case "<" where scalars.first.map { $0.properties.isAlphabetic || $0 == "/" || $0 == "!" } ?? false:
                // A tag (`<p>`, `</p>`, `<br/>`, `<!-- -->`): passed over to its end; an unclosed
                // one ends the text. A `<` before anything else (`<->`) is the character.
                while let next = scalars.popFirst(), next != ">" {}
                out.append(" ")
            case "&":
                var name = ""
                while let next = scalars.first, next != ";", name.count < 10, next.properties.isAlphabetic || next == "#" || ("0"..."9").contains(next) || ("a"..."f").contains(next) || ("A"..."F").contains(next) || next == "x" {
                    name.unicodeScalars.append(next)
                    scalars.removeFirst()
                }
                if scalars.first == ";", let decoded = reference(name) {
                    scalars.removeFirst()
                    out.unicodeScalars.append(decoded)
                } else {
                    out += "&" + name
                }
            default: out.unicodeScalars.append(scalar)
            }
        }
        let words = DisplayText.line(out).split(whereSeparator: { $0 == " " || $0 == "\u{A0}" })
        var line = words.joined(separator: " ")
        if line.count > longest { line = String(line.prefix(longest - 1)) + "…" }
        return line
    }

    private static let named: [String: Unicode.Scalar] = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": " "]

    private static func reference(_ name: String) -> Unicode.Scalar? {
        if name.hasPrefix("#") {
            let digits = name.dropFirst()
            let value = digits.hasPrefix("x") || digits.hasPrefix("X") ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits)
            return value.flatMap(Unicode.Scalar.init)
        }
        return named[name.lowercased()]
    }
}
