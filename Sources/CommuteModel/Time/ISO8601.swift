import Basics
import FoundationEssentials

/// ISO 8601 timestamps with explicit offsets, written and read without a formatter object so that
/// the output is the same on every platform (`2025-11-04T16:00:00-08:00`).
public enum ISO8601 {
    /// `2025-11-04T16:00:00-08:00` for an instant and a UTC offset in seconds; fractions of a
    /// second appear only when present (`…00.250Z`). Offset 0 is written `Z`.
    public static func string(_ date: Date, offset: Int) -> String {
        let milliseconds = Int((date.timeIntervalSince1970 * 1000).rounded(.toNearestOrAwayFromZero))
        let wallMilliseconds = milliseconds + offset * 1000
        let dayNumber = wallMilliseconds.floorDivided(by: 86_400_000)
        let millisecondOfDay = wallMilliseconds - dayNumber * 86_400_000
        let civil = CivilDate(dayNumber: dayNumber)
        let seconds = millisecondOfDay / 1000
        var text = "\(pad(civil.year, 4))-\(pad(civil.month))-\(pad(civil.day))T"
        text += "\(pad(seconds / 3600)):\(pad(seconds % 3600 / 60)):\(pad(seconds % 60))"
        if millisecondOfDay % 1000 != 0 { text += ".\(pad(millisecondOfDay % 1000, 3))" }
        return text + offsetString(offset)
    }

    /// The same instant in UTC: `2025-11-05T00:00:00Z`.
    public static func string(_ date: Date) -> String { string(date, offset: 0) }

    /// `-08:00`, `+05:45`, or `Z` for zero.
    public static func offsetString(_ offset: Int) -> String {
        guard offset != 0 else { return "Z" }
        let magnitude = abs(offset)
        var text = "\(offset < 0 ? "-" : "+")\(pad(magnitude / 3600)):\(pad(magnitude % 3600 / 60))"
        if magnitude % 60 != 0 { text += ":\(pad(magnitude % 60))" }
        return text
    }

    /// A parsed timestamp: its wall-clock fields and, when it had one, its offset.
    public struct Parsed: Sendable, Equatable {
        public var date: CivilDate
        public var hour: Int
        public var minute: Int
        public var second: Int
        public var milliseconds: Int
        /// Seconds east of UTC, or nil when the text gave no offset (a local time).
        public var offset: Int?

        /// The instant, when the text carried its offset.
        public var instant: Date? {
            guard let offset else { return nil }
            return Date(timeIntervalSince1970: TimeInterval(wallSeconds - offset) + Double(milliseconds) / 1000)
        }

        var wallSeconds: Int { date.dayNumber * 86_400 + hour * 3_600 + minute * 60 + second }
    }

    /// Reads `2025-11-04T16:00`, `…:00`, `…:00.123`, with `Z`, `±HH:MM`, `±HHMM` or `±HH`, or none.
    /// A space may stand for the `T`. Nil when it is not such a timestamp.
    public static func parse(_ text: String) -> Parsed? {
        var text = text
        return text.withUTF8 { parse(bytes: $0) }
    }

    /// The same, from UTF-8 bytes (the JSON reader hands them over without building a string).
    public static func parse(bytes chars: UnsafeBufferPointer<UInt8>) -> Parsed? {
        var index = 0
        func number(_ width: Int) -> Int? {
            guard index + width <= chars.count else { return nil }
            var value = 0
            for offset in 0..<width {
                let char = chars[index + offset]
                guard char >= 48, char <= 57 else { return nil }
                value = value * 10 + Int(char - 48)
            }
            index += width
            return value
        }
        func expect(_ char: UInt8) -> Bool {
            guard index < chars.count, chars[index] == char else { return false }
            index += 1
            return true
        }
        guard let year = number(4), expect(45), let month = number(2), expect(45), let day = number(2),
            expect(84) || expect(116) || expect(32), let hour = number(2), expect(58), let minute = number(2)
        else { return nil }
        var second = 0
        var milliseconds = 0
        if expect(58) {
            guard let value = number(2) else { return nil }
            second = value
            if expect(46) {
                var digits = 0
                while index < chars.count, chars[index] >= 48, chars[index] <= 57 {
                    if digits < 3 { milliseconds = milliseconds * 10 + Int(chars[index] - 48) }
                    digits += 1
                    index += 1
                }
                guard digits > 0 else { return nil }
                for _ in digits..<max(digits, 3) { milliseconds *= 10 }
            }
        }
        var offset: Int?
        if expect(90) || expect(122) {
            offset = 0
        } else if index < chars.count, chars[index] == 43 || chars[index] == 45 {
            let sign = chars[index] == 45 ? -1 : 1
            index += 1
            guard let hours = number(2) else { return nil }
            var minutes = 0
            if expect(58) {
                guard let value = number(2) else { return nil }
                minutes = value
            } else if index < chars.count {
                guard let value = number(2) else { return nil }
                minutes = value
            }
            guard hours <= 18, minutes < 60 else { return nil }
            offset = sign * (hours * 3_600 + minutes * 60)
        }
        let civil = CivilDate(year: year, month: month, day: day)
        guard index == chars.count, civil.isValid, hour < 24, minute < 60, second < 60 else { return nil }
        return Parsed(
            date: civil, hour: hour, minute: minute, second: second, milliseconds: milliseconds, offset: offset)
    }

    private static func pad(_ value: Int, _ width: Int = 2) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
