/// Numbers as people type them and services write them as text: plain decimal digits, nothing else.
public enum NumberParsing {
    /// The most digits before the point: more than any value here needs (a count, seconds, degrees).
    public static let longestWhole = 9
    /// The most digits after it: a double's own text (Python writes a centroid as
    /// `13.36690305710228`, 17 significant digits at most) with room to spare. Past 17 a digit
    /// changes nothing; the bound only keeps the text short.
    public static let longestFraction = 40

    /// `5`, `0.5`, `12.25`, `13.36690305710228`. Nil for anything else — `0x10`, `1e3`, `inf`,
    /// `nan`, a sign, spaces, a whole part longer than any value here needs — so that what is
    /// accepted is what it looks like. The value is the double nearest the text.
    public static func decimal(_ text: some StringProtocol) -> Double? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), (1...longestWhole).contains(parts[0].count),
            parts.count == 1 || (1...longestFraction).contains(parts[1].count),
            parts.allSatisfy({ $0.allSatisfy(\.isASCIIDigit) })
        else { return nil }
        return Double(String(text))
    }

    /// The same, perhaps with a leading `-`: `-122.3321`.
    public static func signedDecimal(_ text: some StringProtocol) -> Double? {
        text.hasPrefix("-") ? decimal(text.dropFirst()).map { -$0 } : decimal(text)
    }
}

extension Character {
    public var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
