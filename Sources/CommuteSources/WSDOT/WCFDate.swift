import FoundationEssentials

/// WCF's JSON date, `/Date(1762300800000-0800)/`: milliseconds since the Unix epoch in UTC. The
/// optional offset is informational only and is never added. The number may be negative.
public enum WCFDate {
    /// The instant, or nil when the text does not match `/Date\((-?\d+)([+-]\d{4})?\)/`.
    public static func parse(_ text: String) -> Date? {
        var text = text
        return text.withUTF8 { utf8 -> Date? in
            // "/Date(" digits [sign 4-digits] ")/"
            let prefix: [UInt8] = Array("/Date(".utf8)
            guard utf8.count >= prefix.count + 3, utf8.starts(with: prefix),
                utf8[utf8.count - 2] == UInt8(ascii: ")"), utf8[utf8.count - 1] == UInt8(ascii: "/")
            else { return nil }
            var index = prefix.count
            let end = utf8.count - 2
            let negative = utf8[index] == UInt8(ascii: "-")
            if negative { index += 1 }
            let digitsStart = index
            var milliseconds: Int64 = 0
            while index < end, utf8[index] >= UInt8(ascii: "0"), utf8[index] <= UInt8(ascii: "9") {
                milliseconds = milliseconds &* 10 &+ Int64(utf8[index] - UInt8(ascii: "0"))
                index += 1
            }
            guard index > digitsStart, index - digitsStart <= 16 else { return nil }
            if index < end {
                // The informational offset: a sign and exactly four digits.
                guard end - index == 5, utf8[index] == UInt8(ascii: "+") || utf8[index] == UInt8(ascii: "-"),
                    utf8[(index + 1)..<end].allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
                else { return nil }
            }
            return Date(timeIntervalSince1970: TimeInterval(negative ? -milliseconds : milliseconds) / 1000)
        }
    }

    /// `/Date(1762300800000)/` for an instant (no offset suffix: it carries no information).
    public static func string(_ date: Date) -> String {
        "/Date(\(Int64((date.timeIntervalSince1970 * 1000).rounded())))/"
    }
}
