/// Text from outside — a feed, a server, a store file, a command line — made safe to show.
///
/// A route name is data. On a terminal it must not move the cursor, retitle the window, ring the
/// bell, overwrite its own line (CR) or start a line of its own ("FAKE LINE: all clear"), and it
/// must not reorder what follows it (bidirectional overrides).
public enum DisplayText {
    /// What stands in for a character that is not shown.
    public static let replacement: Unicode.Scalar = "\u{FFFD}"

    /// For one line: a name, a quoted value, a message. Every control character (C0, line breaks
    /// included, DEL and C1) and every bidirectional override or isolate becomes U+FFFD; a tab
    /// becomes a space.
    public static func line(_ text: String) -> String {
        neutralised(text, keepingLayout: false)
    }

    /// For whatever is written to a terminal: the same, except that line feeds and tabs, which lay
    /// the output out, are kept.
    public static func terminal(_ text: String) -> String {
        neutralised(text, keepingLayout: true)
    }

    private static func neutralised(_ text: String, keepingLayout: Bool) -> String {
        // Nearly all text is clean: look at its bytes once before building anything.
        guard needsWork(text, keepingLayout: keepingLayout) else { return text }
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x0A where keepingLayout, 0x09 where keepingLayout: scalars.append(scalar)
            case 0x09: scalars.append(" ")
            case 0x00..<0x20, 0x7F..<0xA0, 0x202A...0x202E, 0x2066...0x2069: scalars.append(replacement)
            default: scalars.append(scalar)
            }
        }
        return String(scalars)
    }

    /// Whether any byte starts something to replace. C1 controls are `C2 80`–`C2 9F` in UTF-8; the
    /// bidirectional controls are `E2 80 AA`–`E2 80 AE` and `E2 81 A6`–`E2 81 A9`.
    private static func needsWork(_ text: String, keepingLayout: Bool) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { bytes in scan(bytes, keepingLayout: keepingLayout) }
            ?? scan(Array(text.utf8), keepingLayout: keepingLayout)
    }

    private static func scan(_ bytes: some RandomAccessCollection<UInt8>, keepingLayout: Bool) -> Bool {
        var previous: UInt8 = 0
        var beforePrevious: UInt8 = 0
        for byte in bytes {
            switch byte {
            case 0x0A, 0x09: if !keepingLayout { return true }
            case 0x00..<0x20, 0x7F: return true
            case 0x80...0x9F where previous == 0xC2: return true
            case 0xAA...0xAE where previous == 0x80 && beforePrevious == 0xE2: return true
            case 0xA6...0xA9 where previous == 0x81 && beforePrevious == 0xE2: return true
            default: break
            }
            beforePrevious = previous
            previous = byte
        }
        return false
    }
}
