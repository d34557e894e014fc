/// Text from outside — a feed, a server, a store file, a command line — made safe to show.
///
/// A route name is data. On a terminal it must not move the cursor, retitle the window, ring the
/// bell, overwrite its own line (CR) or start a line of its own ("FAKE LINE: all clear"), and it
/// must not reorder what follows it (bidirectional overrides).
public enum DisplayText {
    /// What stands in for a character that is not shown.
    public static let replacement: Unicode.Scalar = "\u{FFFD}"

    /// For one line: a name, a quoted value, a message. Every character that is not shown as
    /// itself (`isHidden`: controls, line breaks included, format characters, separators,
    /// unassigned code points) becomes U+FFFD; a tab becomes a space.
    public static func line(_ text: String) -> String {
        neutralised(text, keepingLayout: false)
    }

    /// For whatever is written to a terminal: the same, except that line feeds and tabs, which lay
    /// the output out, are kept.
    public static func terminal(_ text: String) -> String {
        neutralised(text, keepingLayout: true)
    }

    /// The one rule, for input and output alike: control (Cc), format (Cf: bidirectional
    /// controls, zero-width characters, the soft hyphen, the byte-order mark, tags), line and
    /// paragraph separators (Zl, Zp), unassigned code points (Cn), every code point Unicode calls
    /// default-ignorable (the combining grapheme joiner, variation selectors, the Hangul fillers),
    /// and the blanks that look like nothing (the Braille blank, the Hangul fillers again, by
    /// name: U+115F, U+1160, U+3164, U+FFA0, U+2800). None of them is seen as itself, and some
    /// reorder or hide what follows; text from the user that holds one is refused, text from
    /// outside has each replaced.
    public static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return scalar.value < 0x20 || scalar.value == 0x7F }
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .unassigned: return true
        default: return scalar.properties.isDefaultIgnorableCodePoint || blanks.contains(scalar.value)
        }
    }

    /// Code points drawn as nothing at all, whatever their category.
    private static let blanks: Set<UInt32> = [0x115F, 0x1160, 0x3164, 0xFFA0, 0x2800]

    /// Whether the hidden scalar at `index` is part of an emoji as drawn: a variation selector
    /// right after an emoji (☕️, U+2615 U+FE0F), or a zero-width joiner between two (👩‍💻). Neither
    /// moves, hides or reorders anything; both are how phones and calendars write emoji.
    static func joinsEmoji(_ scalars: [Unicode.Scalar], at index: Int) -> Bool {
        guard index > 0 else { return false }
        let before = scalars[index - 1]
        switch scalars[index].value {
        case 0xFE0E, 0xFE0F: return before.properties.isEmoji
        case 0x200D:
            guard index + 1 < scalars.count else { return false }
            let joinsFrom = before.properties.isEmoji || before.value == 0xFE0F
            return joinsFrom && scalars[index + 1].properties.isEmoji && scalars[index + 1].value > 0x7F
        default: return false
        }
    }

    /// Each scalar of `text` and whether it is shown as itself: every one that `isHidden` names
    /// is not, but for the selectors and joiners of emoji (`joinsEmoji`).
    public static func scalars(_ text: String) -> [(scalar: Unicode.Scalar, shown: Bool)] {
        let all = Array(text.unicodeScalars)
        return all.indices.map { index in (all[index], !isHidden(all[index]) || joinsEmoji(all, at: index)) }
    }

    private static func neutralised(_ text: String, keepingLayout: Bool) -> String {
        // Nearly all text is clean: look at its bytes once before building anything.
        guard needsWork(text, keepingLayout: keepingLayout) else { return text }
        var scalars = String.UnicodeScalarView()
        for (scalar, shown) in Self.scalars(text) {
            switch scalar.value {
            case 0x0A where keepingLayout, 0x09 where keepingLayout: scalars.append(scalar)
            case 0x09: scalars.append(" ")
            default: scalars.append(shown ? scalar : replacement)
            }
        }
        return String(scalars)
    }

    /// Whether anything is to be replaced. ASCII is judged by its bytes; text with any other
    /// character is judged a character at a time (rare: names from a feed are nearly all ASCII).
    private static func needsWork(_ text: String, keepingLayout: Bool) -> Bool {
        let verdict = text.utf8.withContiguousStorageIfAvailable { bytes in scan(bytes, keepingLayout: keepingLayout) }
            ?? scan(Array(text.utf8), keepingLayout: keepingLayout)
        switch verdict {
        case .clean: return false
        case .hidden: return true
        // Line feeds and tabs reach here only when they are kept.
        case .notASCII: return scalars(text).contains { !$0.shown && $0.scalar != "\n" && $0.scalar != "\t" }
        }
    }

    private enum Verdict { case clean, hidden, notASCII }

    private static func scan(_ bytes: some RandomAccessCollection<UInt8>, keepingLayout: Bool) -> Verdict {
        var verdict = Verdict.clean
        for byte in bytes {
            switch byte {
            case 0x0A, 0x09: if !keepingLayout { return .hidden }
            case 0x00..<0x20, 0x7F: return .hidden
            case 0x80...: verdict = .notASCII
            default: break
            }
        }
        return verdict
    }
}

extension Array where Element == String {
    /// `a, b or c`: the names as a sentence lists them.
    public func spoken(_ conjunction: String = "or") -> String {
        guard let last else { return "" }
        return count == 1 ? last : dropLast().joined(separator: ", ") + " \(conjunction) " + last
    }
}
