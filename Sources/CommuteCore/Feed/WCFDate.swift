import Foundation

/// WCF's JSON date, `/Date(1762300800000-0800)/`: milliseconds since the Unix epoch in UTC. The
/// optional offset is informational only and is never added. The number may be negative.
public enum WCFDate {
    /// The instant, or nil when the text does not match `/Date\((-?\d+)([+-]\d{4})?\)/`.
    public static func parse(_ text: String) -> Date? {
        var rest = Substring(text)
        guard rest.hasPrefix("/Date("), rest.hasSuffix(")/") else { return nil }
        rest = rest.dropFirst(6).dropLast(2)
        var negative = false
        if rest.first == "-" {
            negative = true
            rest = rest.dropFirst()
        }
        let digits = rest.prefix(while: \.isASCIIDigit)
        let suffix = rest.dropFirst(digits.count)
        guard !digits.isEmpty, digits.count <= 16, let magnitude = Int64(digits) else { return nil }
        if !suffix.isEmpty {
            guard suffix.count == 5, suffix.first == "+" || suffix.first == "-",
                suffix.dropFirst().allSatisfy(\.isASCIIDigit)
            else { return nil }
        }
        let milliseconds = negative ? -magnitude : magnitude
        return Date(timeIntervalSince1970: TimeInterval(milliseconds) / 1000)
    }

    /// `/Date(1762300800000)/` for an instant (no offset suffix: it carries no information).
    public static func string(_ date: Date) -> String {
        "/Date(\(Int64((date.timeIntervalSince1970 * 1000).rounded())))/"
    }
}
