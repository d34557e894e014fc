import Basics
import FoundationEssentials
@_spi(Store) import CommuteStore

/// What `traveltimes install` writes: systemd user units or a crontab block that run `refresh`
/// and `tick` unattended, with the store pinned and output quiet. Plans are pure text in, text
/// out; the units are written and removed here (`Installation+Files.swift`); the CLI runs
/// `systemctl` and `crontab`.
public enum Installation {
    /// How often `refresh` runs: every N minutes (dividing an hour) or every N hours (dividing a day).
    public struct Interval: Sendable, Equatable, CustomStringConvertible {
        public var minutes: Int

        /// Reads `15m`, `30min`, `1h`, `2h`; nil for anything a calendar cannot repeat evenly.
        public init?(_ text: String) {
            let trimmed = text.trimmingWhitespace().lowercased()
            for (suffix, scale) in [("min", 1), ("m", 1), ("h", 60)] where trimmed.hasSuffix(suffix) {
                let digits = trimmed.dropLast(suffix.count)
                guard (1...2).contains(digits.count), digits.allSatisfy(\.isASCIIDigit), let count = Int(digits) else { return nil }
                let minutes = count * scale
                guard minutes < 60 ? 60 % minutes == 0 : minutes % 60 == 0 && 1_440 % minutes == 0 else { return nil }
                self.minutes = minutes
                return
            }
            return nil
        }

        public static let standard = Interval(minutes: 15)

        private init(minutes: Int) { self.minutes = minutes }

        public var description: String { minutes < 60 ? "\(minutes)m" : "\(minutes / 60)h" }

        /// `*-*-* *:00/15:00`, `*-*-* 00/2:00:00`.
        var onCalendar: String { minutes < 60 ? "*-*-* *:00/\(minutes):00" : "*-*-* 00/\(minutes / 60):00:00" }
        /// `*/15 * * * *`, `0 */2 * * *`.
        var cronTimes: String { minutes < 60 ? "*/\(minutes) * * * *" : "0 */\(minutes / 60) * * *" }
    }

    /// The line that marks a unit or a crontab block as this program's: only what carries it is
    /// ever replaced or removed.
    public static let systemdMark = "# Written by `traveltimes install systemd`; `traveltimes uninstall systemd` removes it."
    public static let cronMark = "# Written by `traveltimes install cron`; `traveltimes uninstall cron` removes this block."
    public static let cronBegin = "# BEGIN traveltimes"
    /// The begin line when the table did not end in a line break and install added one before the
    /// block: uninstall takes that line break away again, leaving the table byte for byte.
    public static let cronBeginAfterAddedBreak = "# BEGIN traveltimes (a line break was added before this block)"
    public static let cronEnd = "# END traveltimes"

    /// The two timers, the units they start, and their file names.
    public static let timers = ["traveltimes-tick.timer", "traveltimes-refresh.timer"]

    // MARK: What a path may hold

    /// Why a path cannot be written where a service manager will read it, naming the character;
    /// nil when it can. No manager can be given a line break or another character that is not
    /// shown (`DisplayText.isHidden`): cron reads a line per job, and systemd's values end at the
    /// line. systemd also refuses to run an executable whose name holds a quote or a backslash
    /// ("Executable name contains special characters"), however it is quoted.
    public static func problem(withPath path: String, isExecutable: Bool, forSystemd: Bool) -> String? {
        for scalar in path.unicodeScalars {
            if DisplayText.isHidden(scalar) {
                return "it holds \(describe(scalar)), which no service manager can be given"
            }
            if forSystemd, isExecutable, scalar == "'" || scalar == "\"" || scalar == "\\" {
                return "it holds \(describe(scalar)), and systemd will not run an executable whose name has one"
            }
        }
        return nil
    }

    /// `a line feed (U+000A)`, `' (U+0027)`.
    static func describe(_ scalar: Unicode.Scalar) -> String {
        let code = String(cFormat: "U+%04X", scalar.value)
        let names: [UInt32: String] = [0x0A: "a line feed", 0x0D: "a carriage return", 0x09: "a tab", 0x00: "a NUL"]
        if let name = names[scalar.value] { return "\(name) (\(code))" }
        if DisplayText.isHidden(scalar) { return "an invisible character (\(code))" }
        return "\(Character(scalar)) (\(code))"
    }

    // MARK: systemd

    /// The four user units, by file name: a oneshot service and a timer for `tick` (every minute,
    /// at second 0, to the second: systemd's default accuracy of a minute would make alerts late)
    /// and for `refresh` (persistent: a run missed while the machine slept happens at wake).
    public static func systemdUnits(binary: String, store: String, refreshEvery: Interval) -> [(name: String, text: String)] {
        func service(_ command: String, _ what: String) -> String {
            """
            \(systemdMark)
            [Unit]
            Description=traveltimes: \(what)

            [Service]
            Type=oneshot
            Environment=\(systemdQuoted("TRAVELTIMES_HOME=\(store)"))
            ExecStart=\(systemdQuoted(binary)) \(command) --quiet

            """
        }
        func timer(_ what: String, _ lines: [String]) -> String {
            """
            \(systemdMark)
            [Unit]
            Description=traveltimes: \(what)

            [Timer]
            \(lines.joined(separator: "\n"))

            [Install]
            WantedBy=timers.target

            """
        }
        return [
            ("traveltimes-tick.service", service("tick", "deliver the commute alerts that are due")),
            ("traveltimes-tick.timer", timer("deliver due alerts every minute", ["OnCalendar=*-*-* *:*:00", "AccuracySec=1s"])),
            ("traveltimes-refresh.service", service("refresh", "fetch travel times and re-plan every alert")),
            ("traveltimes-refresh.timer", timer(
                "refresh travel times every \(refreshEvery)", ["OnCalendar=\(refreshEvery.onCalendar)", "Persistent=true"])),
        ]
    }

    /// Whether the units read back as running `binary` with `store`, as systemd will read them:
    /// what `install systemd` checks before it writes anything.
    public static func unitsReadBack(_ units: [(name: String, text: String)], binary: String, store: String) -> Bool {
        let services = units.filter { $0.name.hasSuffix(".service") }
        return !services.isEmpty && services.allSatisfy { pinned(service: $0.text) == Pinned(binary: binary, store: store) }
            && units.allSatisfy { unit in !unit.text.unicodeScalars.contains("\r") }
    }

    /// Whether a unit file's text is this program's.
    public static func isOurs(unit text: String) -> Bool {
        lines(of: text).first == systemdMark
    }

    /// What an installed job runs: the binary and the store it pins.
    public struct Pinned: Sendable, Equatable {
        public var binary: String
        public var store: String

        public init(binary: String, store: String) {
            self.binary = binary
            self.store = store
        }
    }

    /// The binary and store a service unit of this program's runs (nil for any other text).
    public static func pinned(service text: String) -> Pinned? {
        guard isOurs(unit: text) else { return nil }
        var binary: String?
        var store: String?
        for line in lines(of: text) where !line.isEmpty {
            if line.hasPrefix("ExecStart=") {
                binary = systemdUnquoted(line.dropFirst("ExecStart=".count))
            } else if line.hasPrefix("Environment="), let word = systemdUnquoted(line.dropFirst("Environment=".count)),
                      word.hasPrefix("TRAVELTIMES_HOME=") {
                store = String(word.dropFirst("TRAVELTIMES_HOME=".count))
            }
        }
        guard let binary, let store else { return nil }
        return Pinned(binary: binary, store: store)
    }

    /// The binary and store the tick line of this program's crontab block (byte strings) runs.
    public static func pinned(cronBlock lines: [String]) -> Pinned? {
        let prefix = "* * * * * TRAVELTIMES_HOME="
        guard let byteLine = lines.first(where: { $0.hasPrefix(prefix) }) else { return nil }
        let line = String(decoding: bytes(of: byteLine), as: UTF8.self)
        var rest = Substring(line.dropFirst(prefix.count).replacing("\\%", with: "%"))
        guard let store = shellUnquoted(&rest), rest.first == " " else { return nil }
        rest = rest.dropFirst()
        guard let binary = shellUnquoted(&rest) else { return nil }
        return Pinned(binary: binary, store: store)
    }

    /// The first double-quoted word of a unit file's value, as `systemdQuoted` wrote it.
    private static func systemdUnquoted(_ text: Substring) -> String? {
        guard text.first == "\"" else { return nil }
        var word = ""
        var iterator = text.dropFirst().makeIterator()
        while let character = iterator.next() {
            switch character {
            case "\"": return word
            case "\\": guard let next = iterator.next() else { return nil }; word.append(next)
            case "%": guard iterator.next() == "%" else { return nil }; word.append("%")
            default: word.append(character)
            }
        }
        return nil
    }

    /// Reads one word `shellQuoted` wrote (`'…'`, a quote as `'\''`) from the start of `text`.
    private static func shellUnquoted(_ text: inout Substring) -> String? {
        var word = ""
        while text.first == "'" {
            text = text.dropFirst()
            guard let close = text.firstIndex(of: "'") else { return nil }
            word += text[..<close]
            text = text[text.index(after: close)...]
            guard text.hasPrefix("\\'") else { return word }
            word += "'"
            text = text.dropFirst(2)
        }
        return nil
    }

    /// A word as a unit file reads it: in double quotes, with `\`, `"` escaped and `%` (which
    /// starts a specifier) doubled.
    static func systemdQuoted(_ word: String) -> String {
        var quoted = "\""
        for character in word {
            switch character {
            case "\\": quoted += "\\\\"
            case "\"": quoted += "\\\""
            case "%": quoted += "%%"
            default: quoted.append(character)
            }
        }
        return quoted + "\""
    }

    // MARK: cron

    /// The crontab block: the store pinned, the output quiet (cron mails every line). Its lines
    /// are byte strings (`byteString`), as the table it goes into is.
    public static func cronBlock(binary: String, store: String, refreshEvery: Interval) -> [String] {
        let command = "TRAVELTIMES_HOME=\(shellQuoted(store)) \(shellQuoted(binary))"
        return [
            cronBegin, cronMark,
            "\(refreshEvery.cronTimes) \(command) refresh --quiet",
            "* * * * * \(command) tick --quiet",
            cronEnd,
        ].map { byteString(Data($0.replacing("%", with: "\\%").utf8)) }
    }

    /// Bytes as a string of one character per byte (ISO 8859-1): a crontab is whatever bytes its
    /// owner wrote — Latin-1 comments, bytes that are no text at all — and each must come back as
    /// it was, which decoding it as UTF-8 would not do.
    public static func byteString(_ bytes: Data) -> String {
        String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
    }

    /// A byte string as text to show: its bytes read as UTF-8.
    public static func text(ofByteString byteString: String) -> String {
        String(decoding: bytes(of: byteString), as: UTF8.self)
    }

    /// The bytes a `byteString` stands for.
    public static func bytes(of byteString: String) -> Data {
        Data(byteString.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) })
    }

    /// Whether the block reads back as running `binary` with `store`, one line per job.
    public static func cronBlockReadsBack(_ block: [String], binary: String, store: String) -> Bool {
        block.count == 5 && pinned(cronBlock: block) == Pinned(binary: binary, store: store)
    }

    /// What a crontab holds of this program's.
    public enum CronState: Sendable, Equatable {
        case absent
        /// This program's block, as written (its lines).
        case ours([String])
        /// A `# BEGIN traveltimes` block without the mark, or without its end: not this
        /// program's to change.
        case foreign
    }

    public static func cronState(of table: String) -> CronState {
        let lines = Self.lines(of: table)
        guard let begin = lines.firstIndex(where: isBegin) else { return .absent }
        guard let end = lines[begin...].firstIndex(of: cronEnd), begin + 1 < end, lines[begin + 1] == cronMark else {
            return .foreign
        }
        return .ours(Array(lines[begin...end]))
    }

    /// The table with this program's block in place of the old one (or after everything), every
    /// other byte as it was. Nil when the table has a block this program did not write — unless
    /// `replacingForeign`, when that block (to its end line, or its begin line alone) is replaced.
    public static func merging(_ block: [String], into table: String, replacingForeign: Bool = false) -> String? {
        switch cronState(of: table) {
        case .foreign:
            guard replacingForeign else { return nil }
            var lines = Self.lines(of: table)
            guard let begin = lines.firstIndex(where: isBegin) else { return nil }
            let end = lines[begin...].firstIndex(of: cronEnd) ?? begin
            lines.replaceSubrange(begin...end, with: block)
            return lines.joined(separator: "\n")
        case .absent:
            if table.isEmpty || table.unicodeScalars.last == "\n" { return table + block.joined(separator: "\n") + "\n" }
            return table + "\n" + ([cronBeginAfterAddedBreak] + block.dropFirst()).joined(separator: "\n") + "\n"
        case .ours(let old):
            // The begin line keeps saying whether a line break was added before the block.
            return replacing(old, with: [old[0]] + block.dropFirst(), in: table)
        }
    }

    private static func isBegin(_ line: String) -> Bool { line == cronBegin || line == cronBeginAfterAddedBreak }

    /// The table without this program's block. Nil when the block is not this program's.
    public static func removingBlock(from table: String) -> String? {
        switch cronState(of: table) {
        case .foreign: return nil
        case .absent: return table
        case .ours(let old):
            var removed = replacing(old, with: [], in: table)
            // The block was the table's last lines, after a line break install added: the table
            // had ended without one.
            if old.first == cronBeginAfterAddedBreak, table.unicodeScalars.elementsEqual(
                removed.unicodeScalars + (old.joined(separator: "\n") + "\n").unicodeScalars), removed.unicodeScalars.last == "\n" {
                removed.unicodeScalars.removeLast()
            }
            return removed
        }
    }

    private static func replacing(_ old: [String], with new: [String], in table: String) -> String {
        var lines = Self.lines(of: table)
        guard let begin = lines.firstIndex(where: isBegin) else { return table }
        lines.replaceSubrange(begin..<(begin + old.count), with: new)
        return lines.joined(separator: "\n")
    }

    /// A text's lines, split at each line feed and nowhere else: a carriage return before one
    /// (which `Character` would join with it into one) stays at the end of its line, as the bytes
    /// have it.
    static func lines(of text: String) -> [String] {
        text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map { String(String.UnicodeScalarView($0)) }
    }

    /// A word as `sh` reads it: in single quotes, a quote written `'\''`.
    static func shellQuoted(_ word: String) -> String {
        "'" + word.replacing("'", with: #"'\''"#) + "'"
    }
}
