/// Numbers as people type them on a command line: plain decimal digits, nothing else.
public enum NumberParsing {
    /// `5`, `0.5`, `12.25`. Nil for anything else — `0x10`, `1e3`, `inf`, `nan`, a sign, spaces,
    /// more digits than any value here needs — so that what is accepted is what it looks like.
    public static func decimal(_ text: String) -> Double? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), parts.allSatisfy({ (1...9).contains($0.count) && $0.allSatisfy(\.isASCIIDigit) })
        else { return nil }
        return Double(text)
    }

    /// The same, perhaps with a leading `-`: `-122.3321`.
    public static func signedDecimal(_ text: String) -> Double? {
        text.hasPrefix("-") ? decimal(String(text.dropFirst())).map { -$0 } : decimal(text)
    }
}

extension Character {
    public var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
