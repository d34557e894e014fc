import FoundationEssentials

/// One content line of an iCalendar file (RFC 5545 §3.1): `NAME;PARAM=VALUE:value`, unfolded.
public struct ICSProperty: Sendable, Equatable {
    /// Upper case: `DTSTART`.
    public var name: String
    /// Parameter names upper case, values as written (without their quotes).
    public var parameters: [(name: String, value: String)]
    public var value: String

    public func parameter(_ name: String) -> String? { parameters.first { $0.name == name }?.value }

    public static func == (lhs: ICSProperty, rhs: ICSProperty) -> Bool {
        lhs.name == rhs.name && lhs.value == rhs.value && lhs.parameters.elementsEqual(rhs.parameters) { $0 == $1 }
    }
}

/// A component (`VEVENT`, `VTIMEZONE`, `STANDARD` …) with its properties and sub-components.
public struct ICSComponent: Sendable, Equatable {
    public var name: String
    public var properties: [ICSProperty] = []
    public var children: [ICSComponent] = []
    /// The line its BEGIN was on, for messages.
    public var line: Int

    public func first(_ name: String) -> ICSProperty? { properties.first { $0.name == name } }
    public func all(_ name: String) -> [ICSProperty] { properties.filter { $0.name == name } }
}

/// Why a file is not a calendar at all (one bad event is not this: it is skipped with a reason).
public enum ICSReadError: Error, Equatable, Sendable, CustomStringConvertible {
    case tooLarge(bytes: Int)
    case notACalendar
    case tooDeep(line: Int)
    case tooManyComponents

    public var description: String {
        switch self {
        case .tooLarge(let bytes): "\(bytes) bytes, more than the \(ICSReader.maximumBytes / 1_048_576) MiB a calendar may be"
        case .notACalendar: "not an iCalendar file (no BEGIN:VCALENDAR)"
        case .tooDeep(let line): "components nested more than \(ICSReader.maximumDepth) deep at line \(line)"
        case .tooManyComponents: "more than \(ICSReader.maximumComponents) components"
        }
    }
}

/// Reads the bytes of an `.ics` file into components, bounded: a file over `maximumBytes` is
/// refused, a content line longer than `maximumLineBytes` once unfolded is dropped (a
/// million-line fold costs one pass), nesting deeper than `maximumDepth` is refused.
///
/// Lenient where real files are: bare LF line ends, a fold that ate its space (iCloud), a line
/// with no colon (skipped), lower-case names, text outside any component (ignored).
public enum ICSReader {
    public static let maximumBytes = 16 * 1_048_576
    public static let maximumLineBytes = 256 * 1_024
    public static let maximumDepth = 8
    /// Components are read one at a time and not kept: this bounds the time, not the memory.
    public static let maximumComponents = 400_000

    /// Streams a file: each component directly inside a VCALENDAR is handed to `child` as it
    /// ends, with its calendar's properties so far; `child` returns whether it took it (it is then
    /// not kept in the calendar: a large calendar is never held whole). Each VCALENDAR, with what
    /// was not taken, goes to `calendar` as it ends.
    public static func read(
        _ data: some Collection<UInt8>, child: (ICSComponent, _ calendar: ICSComponent) -> Bool, calendar: (ICSComponent) -> Void
    ) throws(ICSReadError) {
        guard data.count <= maximumBytes else { throw .tooLarge(bytes: data.count) }
        var stack: [ICSComponent] = []
        var calendars = 0
        var components = 0
        var failure: ICSReadError?
        func close(_ component: ICSComponent) {
            if stack.isEmpty {
                calendars += 1
                calendar(component)
            } else if stack.count == 1, child(component, stack[0]) {
                return
            } else {
                stack[stack.count - 1].children.append(component)
            }
        }
        func visit(_ bytes: ArraySlice<UInt8>, _ lineNumber: Int) {
            guard failure == nil, let property = parse(bytes) else { return }
            switch property.name {
            case "BEGIN":
                let name = property.value.uppercased()
                guard stack.count < maximumDepth else { failure = .tooDeep(line: lineNumber); return }
                guard !stack.isEmpty || name == "VCALENDAR" else { return }
                components += 1
                guard components <= maximumComponents else { failure = .tooManyComponents; return }
                stack.append(ICSComponent(name: name, line: lineNumber))
            case "END":
                // An END closes the component open innermost, whatever name it gives (a real
                // file misspells `END:VTOOD`), as Python's icalendar reads it: one misspelling
                // does not swallow the rest of the file.
                guard let last = stack.popLast() else { return }
                close(last)
            default:
                guard !stack.isEmpty else { return }
                stack[stack.count - 1].properties.append(property)
            }
        }
        if let bytes = data as? Data {
            bytes.withUnsafeBytes { forEachLine($0.bindMemory(to: UInt8.self), visit) }
        } else {
            let array = Array(data)
            array.withUnsafeBufferPointer { forEachLine($0, visit) }
        }
        if let failure { throw failure }
        // A file cut short still gives what it had.
        while let last = stack.popLast() { close(last) }
        guard calendars > 0 else { throw .notACalendar }
    }

    /// Each unfolded line's bytes and the number of the line it began on.
    static func forEachLine(_ bytes: UnsafeBufferPointer<UInt8>, _ body: (ArraySlice<UInt8>, Int) -> Void) {
        var line: [UInt8] = []
        var tooLong = false
        var lineNumber = 1
        var startLine = 1
        var index = bytes.startIndex
        // A UTF-8 byte order mark is not content.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index += 3 }
        func flush() {
            if !tooLong, !line.isEmpty { body(line[...], startLine) }
            line.removeAll(keepingCapacity: true)
            tooLong = false
        }
        while index < bytes.endIndex {
            // The run of bytes up to the next line break, appended at once.
            var stop = index
            while stop < bytes.endIndex, bytes[stop] != 0x0D, bytes[stop] != 0x0A { stop += 1 }
            if stop > index {
                let room = maximumLineBytes - line.count
                if stop - index > room {
                    tooLong = true
                } else {
                    line.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<stop]))
                }
                index = stop
                continue
            }
            let byte = bytes[index]
            if byte == 0x0D || byte == 0x0A {
                // CRLF, LF or a lone CR ends the physical line.
                index += (byte == 0x0D && index + 1 < bytes.endIndex && bytes[index + 1] == 0x0A) ? 2 : 1
                lineNumber += 1
                // A fold: the next line starts with a space or a tab, which is removed.
                if index < bytes.endIndex, bytes[index] == 0x20 || bytes[index] == 0x09 {
                    index += 1
                    continue
                }
                flush()
                startLine = lineNumber
                continue
            }
        }
        flush()
    }

    /// The properties anything here reads; the rest (DESCRIPTION, ATTENDEE, attachments…) are
    /// passed over unparsed, which is most of a large calendar.
    static let used: Set<String> = [
        "BEGIN", "END", "UID", "DTSTART", "DTEND", "DURATION", "RRULE", "RDATE", "EXDATE", "RECURRENCE-ID", "SUMMARY", "LOCATION",
        "STATUS", "TRANSP", "X-MICROSOFT-CDO-BUSYSTATUS", "GEO", "X-APPLE-STRUCTURED-LOCATION", "TZID", "TZOFFSETFROM", "TZOFFSETTO",
        "X-WR-TIMEZONE", "SEQUENCE",
    ]

    /// `NAME;P=V;Q="a:b":value`; nil for a line with no colon outside quotes, or no name, or a
    /// name nothing reads.
    static func parse(_ bytes: ArraySlice<UInt8>) -> ICSProperty? {
        var index = bytes.startIndex
        func isNameByte(_ byte: UInt8) -> Bool {
            (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte) || byte == 0x2D || byte == 0x5F
        }
        while index < bytes.endIndex, isNameByte(bytes[index]) { index += 1 }
        guard index > bytes.startIndex, index < bytes.endIndex else { return nil }
        // Names are written in upper case nearly always: only the rest are changed.
        let nameBytes = bytes[bytes.startIndex..<index]
        var name = String(decoding: nameBytes, as: UTF8.self)
        if nameBytes.contains(where: { (0x61...0x7A).contains($0) }) { name = name.uppercased() }
        guard used.contains(name) else { return nil }
        var parameters: [(name: String, value: String)] = []
        while index < bytes.endIndex, bytes[index] == UInt8(ascii: ";") {
            index += 1
            let nameStart = index
            while index < bytes.endIndex, bytes[index] != UInt8(ascii: "="), bytes[index] != UInt8(ascii: ":"), bytes[index] != UInt8(ascii: ";") {
                index += 1
            }
            let parameterName = String(decoding: bytes[nameStart..<index], as: UTF8.self).trimmingWhitespace().uppercased()
            var values: [String] = []
            if index < bytes.endIndex, bytes[index] == UInt8(ascii: "=") {
                index += 1
                // Values separated by commas, each quoted or not; a quoted one may hold : ; ,
                repeat {
                    if index < bytes.endIndex, bytes[index] == UInt8(ascii: ",") { index += 1 }
                    if index < bytes.endIndex, bytes[index] == UInt8(ascii: "\"") {
                        let start = index + 1
                        index = start
                        while index < bytes.endIndex, bytes[index] != UInt8(ascii: "\"") { index += 1 }
                        guard index < bytes.endIndex else { return nil }
                        values.append(String(decoding: bytes[start..<index], as: UTF8.self))
                        index += 1
                    } else {
                        let start = index
                        while index < bytes.endIndex, bytes[index] != UInt8(ascii: ":"), bytes[index] != UInt8(ascii: ";"),
                            bytes[index] != UInt8(ascii: ",")
                        {
                            index += 1
                        }
                        values.append(String(decoding: bytes[start..<index], as: UTF8.self))
                    }
                } while index < bytes.endIndex && bytes[index] == UInt8(ascii: ",")
            }
            parameters.append((parameterName, values.joined(separator: ",")))
        }
        guard index < bytes.endIndex, bytes[index] == UInt8(ascii: ":") else { return nil }
        return ICSProperty(name: name, parameters: parameters, value: String(decoding: bytes[(index + 1)...], as: UTF8.self))
    }

    /// A TEXT value (§3.3.11) unescaped: `\\` `\;` `\,` `\n` `\N`.
    public static func text(_ value: String) -> String {
        guard value.contains("\\") else { return value }
        var result = ""
        var escaped = false
        for character in value {
            if escaped {
                switch character {
                case "n", "N": result.append("\n")
                default: result.append(character)
                }
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else {
                result.append(character)
            }
        }
        return result
    }
}
