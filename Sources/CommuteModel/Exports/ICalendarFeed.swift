import Basics
import FoundationEssentials

/// An iCalendar file of planned leave alerts (RFC 5545), for a phone calendar to subscribe to:
/// CRLF line ends, lines folded at 75 octets (never inside a UTF-8 sequence), TEXT escaped,
/// every time in UTC, so no VTIMEZONE is needed for the events.
public enum ICalendarFeed {
    /// One leave alert as an event.
    public struct Event: Sendable, Equatable {
        /// Stable per occurrence: the same alert keeps it as its leave time moves.
        public var uid: String
        /// When the occurrence was first planned (DTSTAMP, which must be UTC).
        public var stamp: Date
        public var start: Date
        public var end: Date
        public var summary: String
        public var description: String

        public init(uid: String, stamp: Date, start: Date, end: Date, summary: String, description: String) {
            self.uid = uid
            self.stamp = stamp
            self.start = start
            self.end = end
            self.summary = summary
            self.description = description
        }
    }

    /// The longest a line may be, in octets, without its CRLF (RFC 5545 §3.1).
    public static let lineOctets = 75

    /// The whole file. With no events it still holds one component (the grammar needs one): a
    /// UTC VTIMEZONE, which no calendar shows.
    public static func render(_ events: [Event], version: String) -> Data {
        var lines = [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//traveltimes//traveltimes \(version)//EN", "CALSCALE:GREGORIAN",
            "X-WR-CALNAME:traveltimes", "REFRESH-INTERVAL;VALUE=DURATION:PT15M", "X-PUBLISHED-TTL:PT15M",
        ]
        if events.isEmpty {
            lines += [
                "BEGIN:VTIMEZONE", "TZID:UTC", "BEGIN:STANDARD", "DTSTART:19700101T000000", "TZOFFSETFROM:+0000", "TZOFFSETTO:+0000",
                "END:STANDARD", "END:VTIMEZONE",
            ]
        }
        for event in events {
            lines += [
                "BEGIN:VEVENT", "UID:\(text(event.uid))", "DTSTAMP:\(utc(event.stamp))", "DTSTART:\(utc(event.start))",
                "DTEND:\(utc(max(event.end, event.start.addingTimeInterval(60))))", "SUMMARY:\(text(event.summary))",
                "DESCRIPTION:\(text(event.description))", "TRANSP:TRANSPARENT", "END:VEVENT",
            ]
        }
        lines.append("END:VCALENDAR")
        var bytes: [UInt8] = []
        for line in lines { fold(line, into: &bytes) }
        return Data(bytes)
    }

    /// `20251106T011000Z`.
    public static func utc(_ date: Date) -> String {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        let day = CivilDate(dayNumber: Int((Double(seconds) / 86_400).rounded(.down)))
        let rest = seconds - day.dayNumber * 86_400
        return String(cFormat: "%04d%02d%02dT%02d%02d%02dZ", day.year, day.month, day.day, rest / 3_600, rest % 3_600 / 60, rest % 60)
    }

    /// TEXT (RFC 5545 §3.3.11): backslash, semicolon and comma escaped, a newline as `\n`, other
    /// control characters left out.
    public static func text(_ value: String) -> String {
        var out = ""
        for (scalar, shown) in DisplayText.scalars(value) {
            switch scalar {
            case "\\": out += "\\\\"
            case ";": out += "\\;"
            case ",": out += "\\,"
            case "\n": out += "\\n"
            case "\r": continue
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F || !shown { continue }
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Appends `line` folded: at most 75 octets a line, continuation lines starting with a space,
    /// a UTF-8 sequence never split; each line ends with CRLF.
    static func fold(_ line: String, into bytes: inout [UInt8]) {
        var width = 0
        for scalar in line.unicodeScalars {
            let encoded = Array(String(scalar).utf8)
            if width + encoded.count > lineOctets {
                bytes += [0x0D, 0x0A, 0x20]
                width = 1
            }
            bytes += encoded
            width += encoded.count
        }
        bytes += [0x0D, 0x0A]
    }
}
